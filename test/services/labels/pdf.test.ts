/**
 * Batch labels as one PDF (and one DOCX), opened back up with pdfjs-dist: a 6 × 4 in page per
 * label with the same text as the single labels, nothing outside the page however long the
 * order, packing slips after their labels, and the multi-page DOCX.
 */
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { createLabelRenderer } from '../../../src/services/labels/renderer.js';
import { readPdf } from '../../support/fulfilment-fixtures.js';
import { docxFiles, docxParagraphs, labelOrder, manyItems, RETURN_ADDRESS } from '../../support/labels-fixtures.js';

const renderer = () => createLabelRenderer({ returnAddress: RETURN_ADDRESS });

const orders = [
  labelOrder(),
  labelOrder({ orderNumber: 'AX25-0002', customerName: '山田 太郎', city: 'Tōkyō-to Chiyoda', state: 'CA' }),
  labelOrder({
    orderNumber: 'AX25-0003',
    customerName: 'Maximiliana Wolfeschlegelsteinhausenbergerdorff-Ó Súilleabháin y Castellanos'.padEnd(100, 'x'),
    shippingAddress: '12345 North Extraordinarily Long Boulevard Name Extension, Building 17, Floor 42, Suite 4200',
    items: manyItems(200),
  }),
];

describe('batch labels PDF', () => {
  test('one 6 × 4 in landscape page per order, in the given order, with the label text', async () => {
    const pages = await readPdf(await buffer(await renderer().batchPdf(orders)));
    expect(pages).toHaveLength(3);
    for (const p of pages) expect([p.width, p.height]).toEqual([432, 288]);
    expect(pages[0]?.text).toContain('AX25-0001');
    expect(pages[0]?.text).toContain('Photo #12 (4x6) x2, Photo #130 (5x7) x1');
    for (const part of ['FROM', 'Convention Photos', '123 Main St', 'Springfield, IL 62701', 'SHIP TO']) {
      expect(pages[0]?.text).toContain(part);
    }
    expect(pages[0]?.text).toContain('Jane Q. Customer');
    expect(pages[0]?.text).toContain('1600 Pennsylvania Ave NW');
    expect(pages[0]?.text).toContain('Washington, DC 20500-0003');
    // Kanji and kana come out as text (the font is embedded, with its Unicode map).
    expect(pages[1]?.text).toContain('山田 太郎');
    expect(pages[1]?.text).toContain('Tōkyō-to Chiyoda');
  });

  test('a 200-line order and a 100-character name stay inside the page, every item still there', async () => {
    const [page] = await readPdf(await buffer(await renderer().batchPdf([orders[2] as never])));
    expect(page?.items.length).toBeGreaterThan(5);
    for (const item of page?.items ?? []) {
      expect(item.x).toBeGreaterThanOrEqual(0);
      expect(item.x).toBeLessThan(432);
      expect(item.y).toBeGreaterThan(0);
      expect(item.y).toBeLessThan(288);
    }
    const text = (page?.text ?? '').replace(/\s+/g, '');
    expect(text).toContain('Photo#1000(4x6)x1');
    expect(text).toContain('Photo#1199(5x7)x2');
    expect(text).toContain('Wolfeschlegelsteinhausenbergerdorff');
  });

  test("with packing slips: each label is followed by its order's slip (4 × 6 portrait) with thumbnails", async () => {
    const thumb = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer();
    const pdf = await buffer(
      await renderer().batchPdf(orders.slice(0, 2), {
        eventName: () => 'Anime Expo 2025',
        slip: async (order) =>
          order.items.map((line) => ({ line, thumbnail: line.photoNumber === '12' ? thumb : undefined })),
      }),
    );
    const pages = await readPdf(pdf);
    expect(pages.map((p) => [p.width, p.height])).toEqual([
      [432, 288],
      [288, 432],
      [432, 288],
      [288, 432],
    ]);
    const slip = pages[1];
    expect(slip?.text).toContain('PACKING SLIP');
    expect(slip?.text).toContain('AX25-0001');
    expect(slip?.text).toContain('Anime Expo 2025');
    expect(slip?.text).toContain('Photo #12');
    expect(slip?.text).toContain('4x6 × 2');
    expect(slip?.text).toContain('AX25-0001_12_4x6_x2.jpg');
    expect(slip?.text).toContain('Photo #130');
    expect(slip?.text).toContain('3 prints · 2 lines · page 1 of 1');
    // Photo #12 has a thumbnail; #130 has none and gets a placeholder.
    expect(slip?.images).toBe(1);
    expect(slip?.text).toContain('#130');
  });

  test('a long order continues its slip on more pages', async () => {
    const long = labelOrder({ orderNumber: 'AX25-0004', items: manyItems(12) });
    const pages = await readPdf(
      await buffer(await renderer().batchPdf([long], { slip: async (o) => o.items.map((line) => ({ line })) })),
    );
    expect(pages.length).toBeGreaterThan(2);
    const slips = pages.slice(1);
    expect(slips.at(-1)?.text).toContain(`page ${slips.length} of ${slips.length}`);
    expect(slips[1]?.text).toContain('PACKING SLIP (continued)');
    const all = slips.map((p) => p.text).join(' ');
    for (const l of long.items) expect(all).toContain(`Photo #${l.photoNumber}`);
  });

  test('an empty batch is refused', () => {
    expect(() => renderer().batchPdf([])).toThrow();
  });
});

describe('batch labels DOCX', () => {
  test('one page (section) per order, each with its label text', async () => {
    const file = await renderer().batchDocx(orders.slice(0, 2));
    const xml = docxFiles(file.content)['word/document.xml'] as string;
    expect(xml.match(/<w:sectPr/g)).toHaveLength(2);
    expect(xml.match(/<w:pgSz w:w="8640" w:h="5760" w:orient="landscape"\/>/g)).toHaveLength(2);
    const paragraphs = docxParagraphs(file.content);
    expect(paragraphs.filter((p) => p.startsWith('AX25-000'))).toEqual([
      'AX25-0001 · Photo #12 (4x6) x2, Photo #130 (5x7) x1',
      'AX25-0002 · Photo #12 (4x6) x2, Photo #130 (5x7) x1',
    ]);
    expect(paragraphs).toContain('山田 太郎');
  });
});
