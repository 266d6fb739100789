import { describe, expect, test } from 'vitest';
import { FONT_FAMILY } from '../../../src/lib/font.js';
import { labelContent, SIZES } from '../../../src/services/labels/content.js';
import { PAGE_CONTENT_HEIGHT_PT, planDocxLabel } from '../../../src/services/labels/docx.js';
import { createLabelRenderer, DOCX_CONTENT_TYPE } from '../../../src/services/labels/renderer.js';
import { docxFiles, docxParagraphs, labelOrder, manyItems, RETURN_ADDRESS } from '../../support/labels-fixtures.js';

const renderer = () => createLabelRenderer({ returnAddress: RETURN_ADDRESS });

const LONG = {
  customerName:
    'Maximiliana Wolfeschlegelsteinhausenbergerdorff-Ó Súilleabháin y Castellanos de la Vega Montoya'.padEnd(100, 'x'),
  shippingAddress: '12345 North Extraordinarily Long Boulevard Name Extension, Building 17, Floor 42, Suite 4200',
  city: 'Rancho Santa Margarita Village',
  state: 'CA',
  zipCode: '92688-1234',
};

/** Every `w:sz` (half points) of the text in the document body, as points. */
function fontSizes(xml: string): number[] {
  // (The last, empty paragraph is set in 1 pt on purpose: it is not text.)
  return [...xml.matchAll(/<w:sz w:val="(\d+)"\/>/g)].map((m) => Number(m[1]) / 2).filter((pt) => pt > 1);
}

describe('DOCX label', () => {
  test('a Word document named after the order, with one 6 × 4 in landscape page', async () => {
    const file = await renderer().docx(labelOrder());
    expect(file.filename).toBe('label-AX25-0001.docx');
    expect(file.contentType).toBe(DOCX_CONTENT_TYPE);
    expect(file.content.subarray(0, 2).toString()).toBe('PK');
    const files = docxFiles(file.content);
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['[Content_Types].xml', 'word/document.xml']));
    const xml = files['word/document.xml'] as string;
    expect(xml).toMatch(/<w:pgSz w:w="8640" w:h="5760" w:orient="landscape"\/>/);
    // Exactly one section and no page breaks.
    expect(xml.match(/<w:sectPr/g)).toHaveLength(1);
    expect(xml).not.toMatch(/w:type="page"|<w:pageBreakBefore/);
  });

  test('contains the order number, the items, the recipient and the return address as text', async () => {
    const paragraphs = docxParagraphs((await renderer().docx(labelOrder())).content);
    expect(paragraphs).toEqual([
      'AX25-0001 · Photo #12 (4x6) x2, Photo #130 (5x7) x1',
      'FROM',
      'Convention Photos',
      '123 Main St',
      'Springfield, IL 62701',
      'SHIP TO',
      'Jane Q. Customer',
      '1600 Pennsylvania Ave NW',
      'Washington, DC 20500-0003',
      '',
    ]);
  });

  test('editable text in the label font: runs and a table, no pictures', async () => {
    const files = docxFiles((await renderer().docx(labelOrder())).content);
    const xml = files['word/document.xml'] as string;
    expect(xml).toContain('<w:tbl>');
    expect(xml).not.toMatch(/<w:drawing|<w:pict/);
    expect(Object.keys(files).some((f) => f.startsWith('word/media/'))).toBe(false);
    const fonts = [...xml.matchAll(/<w:rFonts ([^>]*)\/>/g)].map((m) => m[1]);
    expect(fonts.length).toBeGreaterThan(5);
    for (const f of fonts) expect(f).toContain(`w:ascii="${FONT_FAMILY}"`);
    expect(xml).toContain(`w:eastAsia="${FONT_FAMILY}"`);
    expect(files['word/styles.xml']).toContain(FONT_FAMILY);
  });

  test('the order number is bold, the recipient box has a border on all four sides', async () => {
    const xml = docxFiles((await renderer().docx(labelOrder())).content)['word/document.xml'] as string;
    const runs = [...xml.matchAll(/<w:r>([\s\S]*?)<\/w:r>/g)].map((m) => m[1] as string);
    const orderNumberRun = runs.find((r) => r.includes('>AX25-0001</w:t>'));
    expect(orderNumberRun).toMatch(/<w:rPr>.*<w:b\/>.*<\/w:rPr>/);
    expect(runs.find((r) => r.includes('Photo #12'))).not.toContain('<w:b/>');
    const borders = /<w:tblBorders>([\s\S]*?)<\/w:tblBorders>/.exec(xml)?.[1] ?? '';
    for (const side of ['top', 'left', 'bottom', 'right']) {
      expect(borders).toMatch(new RegExp(`<w:${side} w:val="single"`));
    }
  });

  test('customer text with markup characters is kept literally', async () => {
    const order = labelOrder({ customerName: '<b>Tom & "Jerry"</b>', shippingAddress: "1 O'Hare <Way> & Co" });
    const { content } = await renderer().docx(order);
    const xml = docxFiles(content)['word/document.xml'] as string;
    expect(xml).not.toContain('<b>');
    const paragraphs = docxParagraphs(content);
    expect(paragraphs).toContain('<b>Tom & "Jerry"</b>');
    expect(paragraphs).toContain("1 O'Hare <Way> & Co");
  });

  test('CJK and accented names are kept as they are', async () => {
    const paragraphs = docxParagraphs(
      (await renderer().docx(labelOrder({ customerName: '山田 太郎 (Élodie Müller)' }))).content,
    );
    expect(paragraphs).toContain('山田 太郎 (Élodie Müller)');
  });

  test('pickup orders say so instead of an address', async () => {
    const order = labelOrder({ fulfillmentType: 'pickup', shippingAddress: '', city: '', state: '', zipCode: '' });
    const paragraphs = docxParagraphs((await renderer().docx(order)).content);
    expect(paragraphs.slice(6, 8)).toEqual(['Jane Q. Customer', 'PICKUP AT BOOTH']);
  });

  test('a 100-character name and 40 lines: all the text is there, in smaller type', async () => {
    const order = labelOrder({ ...LONG, items: manyItems(40) });
    const { content } = await renderer().docx(order);
    const paragraphs = docxParagraphs(content);
    const [top] = paragraphs;
    for (const line of order.items)
      expect(top).toContain(`Photo #${line.photoNumber} (${line.size}) x${line.quantity}`);
    expect(top?.match(/Photo #/g)).toHaveLength(40);
    expect(paragraphs).toContain(LONG.customerName);
    expect(paragraphs).toContain(LONG.shippingAddress);
    expect(paragraphs).toContain('Rancho Santa Margarita Village, CA 92688-1234');

    const short = fontSizes(docxFiles((await renderer().docx(labelOrder())).content)['word/document.xml'] as string);
    const long = fontSizes(docxFiles(content)['word/document.xml'] as string);
    expect(Math.min(...long)).toBeLessThan(Math.min(...short));
    expect(Math.max(...long)).toBeLessThan(Math.max(...short));
  });

  test('the page plan fits one page from the smallest order to the largest', () => {
    const cases = [
      labelOrder(),
      labelOrder({ fulfillmentType: 'pickup' }),
      labelOrder({ ...LONG }),
      labelOrder({ ...LONG, items: manyItems(40) }),
      labelOrder({ ...LONG, items: manyItems(200), customerName: '山'.repeat(100) }),
    ];
    const longReturn =
      'A Very Long Photography Business Name, Incorporated\nSuite 100\n123 Main St\nSpringfield, IL 62701\nUSA';
    for (const order of cases) {
      for (const ret of [RETURN_ADDRESS, longReturn]) {
        const plan = planDocxLabel(labelContent(order), ret);
        expect(plan.estimatedHeight, `${order.customerName.slice(0, 10)} ${order.items.length}`).toBeLessThanOrEqual(
          PAGE_CONTENT_HEIGHT_PT,
        );
      }
    }
    // A small order keeps the preferred sizes; a large one shrinks.
    expect(planDocxLabel(labelContent(cases[0] as never), RETURN_ADDRESS).sizes).toEqual({
      topLine: SIZES.topLine.preferred,
      returnAddress: SIZES.returnAddress.preferred,
      recipient: SIZES.recipient.preferred,
    });
    const big = planDocxLabel(labelContent(cases[3] as never), RETURN_ADDRESS).sizes;
    expect(big.topLine).toBeLessThan(SIZES.topLine.preferred);
    expect(big.recipient).toBeLessThan(SIZES.recipient.preferred);
  });
});
