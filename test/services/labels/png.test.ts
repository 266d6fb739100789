import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { labelContent } from '../../../src/services/labels/content.js';
import {
  LABEL_HEIGHT,
  LABEL_WIDTH,
  labelBlocks,
  PAGE_MARGIN,
  REGIONS,
  renderBlock,
} from '../../../src/services/labels/png.js';
import { createLabelRenderer } from '../../../src/services/labels/renderer.js';
import { greyPixels, inkIn, labelOrder, manyItems, RETURN_ADDRESS } from '../../support/labels-fixtures.js';

const renderer = () => createLabelRenderer({ returnAddress: RETURN_ADDRESS });

/** Ink of the recipient's name alone: the recipient block less that of a one-dot name. */
async function nameInk(name: string): Promise<number> {
  const [withName, dot] = await Promise.all([pngOf({ customerName: name }), pngOf({ customerName: '.' })]);
  return inkIn(withName.img, REGIONS.recipient).count - inkIn(dot.img, REGIONS.recipient).count;
}

async function pngOf(over: Parameters<typeof labelOrder>[0] = {}) {
  const file = await renderer().png(labelOrder(over));
  return { file, img: await greyPixels(file.content) };
}

describe('PNG label', () => {
  test('is a 1800 × 1200 px, 300 dpi PNG named after the order', async () => {
    const { file } = await pngOf();
    expect(file.filename).toBe('label-AX25-0001.png');
    expect(file.contentType).toBe('image/png');
    const meta = await sharp(file.content).metadata();
    expect(meta).toMatchObject({ format: 'png', width: LABEL_WIDTH, height: LABEL_HEIGHT, density: 300 });
  });

  test('white page with ink where the text, rule and box are, nowhere in the margins', async () => {
    const { img } = await pngOf();
    const page = inkIn(img, { left: 0, top: 0, width: LABEL_WIDTH, height: LABEL_HEIGHT });
    // Mostly paper: text, a rule and a frame cover a few percent of the page.
    expect(page.count / (LABEL_WIDTH * LABEL_HEIGHT)).toBeLessThan(0.1);
    expect(page.left).toBeGreaterThanOrEqual(PAGE_MARGIN);
    expect(page.top).toBeGreaterThanOrEqual(PAGE_MARGIN);
    expect(page.right).toBeLessThan(LABEL_WIDTH - PAGE_MARGIN);
    expect(page.bottom).toBeLessThan(LABEL_HEIGHT - PAGE_MARGIN);
    for (const region of [
      REGIONS.topLine,
      REGIONS.returnAddress,
      REGIONS.fromCaption,
      REGIONS.shipToCaption,
      REGIONS.recipient,
    ]) {
      expect(inkIn(img, region).count, JSON.stringify(region)).toBeGreaterThan(500);
    }
    // The rule is solid; the box frame is drawn on all four sides.
    expect(inkIn(img, REGIONS.rule).count).toBe(REGIONS.rule.width * REGIONS.rule.height);
    const box = REGIONS.box;
    for (const side of [
      { left: box.left, top: box.top, width: box.width, height: 4 },
      { left: box.left, top: box.top + box.height - 4, width: box.width, height: 4 },
      { left: box.left, top: box.top, width: 4, height: box.height },
      { left: box.left + box.width - 4, top: box.top, width: 4, height: box.height },
    ]) {
      expect(inkIn(img, side).count).toBe(side.width * side.height);
    }
    // The caption sits in its own region, clear of the box below it.
    const caption = inkIn(img, {
      left: 0,
      top: REGIONS.returnAddress.top + REGIONS.returnAddress.height,
      width: LABEL_WIDTH,
      height: box.top - REGIONS.returnAddress.top - REGIONS.returnAddress.height,
    });
    expect(caption.count).toBeGreaterThan(100);
    expect(caption.left).toBeGreaterThanOrEqual(REGIONS.shipToCaption.left);
    expect(caption.top).toBeGreaterThanOrEqual(REGIONS.shipToCaption.top);
    expect(caption.bottom).toBeLessThan(box.top - 4);
  });

  test('no empty band under the header: a one-line top line sits mid-band, close above the rule', async () => {
    const { img } = await pngOf();
    const band = REGIONS.topLine;
    const ink = inkIn(img, band);
    const above = ink.top - band.top;
    const below = band.top + band.height - ink.bottom;
    expect(Math.abs(above - below)).toBeLessThan(24);
    expect(REGIONS.rule.top - ink.bottom).toBeLessThan(80);
    // Many items still fit the band, set smaller over more lines.
    const many = await pngOf({ items: manyItems(40) });
    const crowded = inkIn(many.img, band);
    expect(crowded.bottom - crowded.top).toBeGreaterThan(ink.bottom - ink.top);
    expect(
      inkIn(many.img, { ...band, top: band.top + band.height, height: REGIONS.rule.top - band.top - band.height })
        .count,
    ).toBe(0);
  });

  test('the same order renders the same pixels every time (and with a fresh renderer)', async () => {
    const a = await renderer().png(labelOrder());
    const b = await renderer().png(labelOrder());
    const [pa, pb] = await Promise.all([greyPixels(a.content), greyPixels(b.content)]);
    expect(pa.data.equals(pb.data)).toBe(true);
  });

  test('different recipients change the box and nothing else', async () => {
    const { img: a } = await pngOf();
    const { img: b } = await pngOf({ customerName: 'Somebody Else Entirely', shippingAddress: '350 Fifth Ave' });
    expect(inkIn(a, REGIONS.recipient).count).not.toBe(inkIn(b, REGIONS.recipient).count);
    for (const region of [REGIONS.topLine, REGIONS.returnAddress]) {
      expect(inkIn(a, region)).toEqual(inkIn(b, region));
    }
  });

  test('CJK names are drawn with real glyphs, not missing-glyph boxes', async () => {
    const latin = await nameInk('Yamada Taro');
    const cjk = await nameInk('山田太郎');
    expect(latin).toBeGreaterThan(1000);
    expect(cjk / latin).toBeGreaterThan(0.4);
    expect(cjk / latin).toBeLessThan(2.5);
    // Missing-glyph boxes all look alike; real glyphs differ: 一 is one stroke, 鬱 dozens.
    const light = await nameInk('一一一一');
    const heavy = await nameInk('鬱鬱鬱鬱');
    expect(heavy / light).toBeGreaterThan(4);
    // Kana too.
    expect(await nameInk('やまだ たろう')).toBeGreaterThan(latin * 0.4);
  });

  test('accents are drawn (É has more ink than E)', async () => {
    const plain = await nameInk('EEEEEE AOU');
    const accented = await nameInk('ÉÈÊËÉÈ ÅÕÜ');
    expect(accented).toBeGreaterThan(plain * 1.1);
  });

  test('markup in customer text is printed, not interpreted', async () => {
    const plain = await nameInk('Jo');
    // Interpreted, <b> would only embolden "Jo"; printed, it adds seven characters.
    expect(await nameInk('<b>Jo</b>')).toBeGreaterThan(plain * 3);
    // An ampersand or a stray < would break the markup parser if it were not escaped.
    const { img } = await pngOf({
      customerName: 'Tom & Jerry <3',
      shippingAddress: '1 "Quoted" St & Co <x>',
      city: "O'Fallon",
    });
    expect(inkIn(img, REGIONS.recipient).count).toBeGreaterThan(plain);
  });

  test('odd text never breaks the renderer (emoji, broken UTF-16, right-to-left, control characters)', async () => {
    for (const customerName of [
      'Ana 📸🎉',
      'bad \ud800 half',
      'שלום עליכם',
      'tab\there\u0000nul',
      '&amp; &#x3C; <span>',
    ]) {
      const { img } = await pngOf({ customerName });
      expect(inkIn(img, REGIONS.recipient).count, customerName).toBeGreaterThan(1000);
    }
  });

  test('pickup orders say so instead of an address', async () => {
    const ship = await pngOf();
    const pickup = await pngOf({ fulfillmentType: 'pickup', shippingAddress: '', city: '', state: '', zipCode: '' });
    expect(inkIn(pickup.img, REGIONS.recipient).count).toBeGreaterThan(1000);
    expect(inkIn(pickup.img, REGIONS.recipient).count).not.toBe(inkIn(ship.img, REGIONS.recipient).count);
    expect(labelContent(labelOrder({ fulfillmentType: 'pickup' })).addressLines).toEqual(['PICKUP AT BOOTH']);
  });

  test('a 100-character name, a long address and 40 lines fit: every block inside its region', async () => {
    const order = labelOrder({
      customerName:
        'Maximiliana Wolfeschlegelsteinhausenbergerdorff-Ó Súilleabháin y Castellanos de la Vega Montoya'.padEnd(
          100,
          'x',
        ),
      shippingAddress: '12345 North Extraordinarily Long Boulevard Name Extension, Building 17, Floor 42, Suite 4200',
      city: 'Rancho Santa Margarita Village',
      items: manyItems(40),
    });
    expect(order.customerName).toHaveLength(100);
    const blocks = labelBlocks(labelContent(order));
    for (const { block, markup } of [blocks.topLine, { ...blocks.recipient, markup: undefined }]) {
      const mask = await renderBlock(block, markup);
      expect(mask.width).toBeLessThanOrEqual(block.region.width);
      expect(mask.height).toBeLessThanOrEqual(block.region.height);
      // Shrunk, but not to nothing: still a readable size at 300 dpi.
      expect(mask.height).toBeGreaterThan(block.region.height * 0.5);
    }
    const img = await greyPixels((await renderer().png(order)).content);
    const page = inkIn(img, { left: 0, top: 0, width: LABEL_WIDTH, height: LABEL_HEIGHT });
    expect(page.left).toBeGreaterThanOrEqual(PAGE_MARGIN);
    expect(page.right).toBeLessThan(LABEL_WIDTH - PAGE_MARGIN);
    expect(page.bottom).toBeLessThan(LABEL_HEIGHT - PAGE_MARGIN);
    // The recipient text stays clear of the box frame (6 px) on every side.
    const inner = inkIn(img, {
      left: REGIONS.box.left + 8,
      top: REGIONS.box.top + 8,
      width: REGIONS.box.width - 16,
      height: REGIONS.box.height - 16,
    });
    expect(inner.left).toBeGreaterThanOrEqual(REGIONS.recipient.left);
    expect(inner.right).toBeLessThan(REGIONS.recipient.left + REGIONS.recipient.width);
    expect(inner.top).toBeGreaterThanOrEqual(REGIONS.recipient.top);
    expect(inner.bottom).toBeLessThan(REGIONS.recipient.top + REGIONS.recipient.height);
    // The top line's ink stays above the rule.
    expect(inkIn(img, REGIONS.topLine).bottom).toBeLessThan(REGIONS.rule.top);
  });

  test('200 lines (the most an order may have) still fit above the rule', async () => {
    const order = labelOrder({ items: manyItems(200) });
    const { block, markup } = labelBlocks(labelContent(order)).topLine;
    const mask = await renderBlock(block, markup);
    expect(mask.width).toBeLessThanOrEqual(block.region.width);
    expect(mask.height).toBeLessThanOrEqual(block.region.height);
  });

  test('a long return address shrinks into its region', async () => {
    const r = createLabelRenderer({
      returnAddress:
        'Convention Photos by a Photographer With a Rather Long Business Name\nSuite 100\n123 Main St\nBuilding 4\nSpringfield, IL 62701-1234\nUSA',
    });
    const img = await greyPixels((await r.png(labelOrder())).content);
    const ink = inkIn(img, {
      left: 0,
      top: REGIONS.rule.top + 10,
      width: LABEL_WIDTH,
      height: REGIONS.shipToCaption.top - REGIONS.rule.top - 10,
    });
    expect(ink.count).toBeGreaterThan(1000);
    expect(ink.right).toBeLessThan(REGIONS.returnAddress.left + REGIONS.returnAddress.width);
    expect(ink.bottom).toBeLessThan(REGIONS.returnAddress.top + REGIONS.returnAddress.height);
  });
});
