/**
 * Batch labels as one PDF (docs/contract.md, "Fulfilment"): a 6 × 4 in page per label, laid
 * out like the PNG label (same regions, in points), optionally each packing slip after its
 * label. The label font is embedded as a subset so it prints the same everywhere; text stays
 * text. As on the PNG, nothing is ever cut: a block too big at the smallest size is scaled.
 * The PDF is a stream: the event loop gets a turn after each page, and writing waits when the
 * reader falls more than HIGH_WATER behind.
 */
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createPdf, type PdfDocument } from '../../adapters/pdf.js';
import type { OrderLine, OrderRecord } from '../../domain/order.js';
import { printFileName } from '../../domain/prints.js';
import { FONT_FILES } from '../../lib/font.js';
import { type LabelContent, labelContent, returnAddressLines, SIZES } from './content.js';
import { keepTogether } from './markup.js';
import { type Paragraph, REGIONS, type Region, recipientParagraphs } from './png.js';

const PT_PER_IN = 72;
/** PNG pixels (300 dpi) to PDF points. */
const PX = PT_PER_IN / 300;
const LABEL_PAGE = { width: 6 * PT_PER_IN, height: 4 * PT_PER_IN } as const;
const SLIP_PAGE = { width: 4 * PT_PER_IN, height: 6 * PT_PER_IN } as const;

/** Bytes the reader may fall behind before writing waits. */
const HIGH_WATER = 1024 * 1024;

const FONT = { regular: 'label-regular', bold: 'label-bold' } as const;

let fontBytes: Promise<{ regular: Buffer; bold: Buffer }> | undefined;
/** The font files, read once per process (about 5 MB each; each PDF embeds only what it uses). */
function fonts() {
  fontBytes ??= Promise.all([readFile(FONT_FILES.regular), readFile(FONT_FILES.bold)]).then(([regular, bold]) => ({
    regular,
    bold,
  }));
  return fontBytes;
}

/** What a packing slip shows of one order line; `thumbnail` is a JPEG or PNG, when there is one. */
export type SlipLine = { line: OrderLine; thumbnail?: Buffer | undefined };

export type BatchPdfOptions = {
  /** Gives each order's packing slip lines (with thumbnails); absent: labels only. */
  slip?: ((order: OrderRecord) => Promise<SlipLine[]>) | undefined;
  /** The event's name on packing slips. */
  eventName?: ((order: OrderRecord) => string) | undefined;
  title?: string;
};

type Doc = PdfDocument;

const pt = (r: Region) => ({ left: r.left * PX, top: r.top * PX, width: r.width * PX, height: r.height * PX });

function setFont(doc: Doc, bold: boolean | undefined, size: number): Doc {
  return doc.font(bold ? FONT.bold : FONT.regular).fontSize(size);
}

/** Height of paragraphs at `size` in a column `width` wide. */
function measure(doc: Doc, paras: readonly Paragraph[], size: number, width: number): number {
  let h = 0;
  for (const p of paras) h += setFont(doc, p.bold, size * (p.scale ?? 1)).heightOfString(p.text, { width });
  return h;
}

/** The largest size (half-point steps) whose height fits, and the scale the block needs beyond it. */
function fitBlock(doc: Doc, paras: readonly Paragraph[], sizes: { preferred: number; min: number }, box: Region) {
  let size = sizes.preferred;
  let height = measure(doc, paras, size, box.width);
  while (height > box.height && size > sizes.min) {
    size = Math.max(sizes.min, size - 0.5);
    height = measure(doc, paras, size, box.width);
  }
  return { size, height, scale: height > box.height ? box.height / height : 1 };
}

/** Sets the paragraphs from `top` down, shrunk as a whole by `scale` (1: not at all). */
function draw(doc: Doc, paras: readonly Paragraph[], size: number, box: Region, top: number, scale: number): void {
  doc.save();
  if (scale < 1) doc.scale(scale, scale, { origin: [box.left, top] });
  let y = top;
  const width = box.width / scale;
  for (const p of paras) {
    setFont(doc, p.bold, size * (p.scale ?? 1)).text(p.text, box.left, y, { width, lineGap: 0 });
    y = doc.y;
  }
  doc.restore();
}

/** A block fitted into `box` (points), ready to draw at a given top. */
function block(doc: Doc, paras: readonly Paragraph[], sizes: { preferred: number; min: number }, box: Region) {
  const f = fitBlock(doc, paras, sizes, box);
  return { ...f, box, draw: (top: number) => draw(doc, paras, f.size, box, top, f.scale) };
}

function caption(doc: Doc, text: string, region: Region): void {
  const box = pt(region);
  setFont(doc, true, SIZES.caption).text(text, box.left, box.top, { width: box.width, lineBreak: false });
}

function labelPage(
  doc: Doc,
  content: LabelContent,
  from: readonly Paragraph[],
  fromFit: { size: number; scale: number },
) {
  doc.addPage({ size: [LABEL_PAGE.width, LABEL_PAGE.height], margin: 0 });
  // The top line: the order number in bold, then the items, wrapping only between items.
  const items = content.items.map(keepTogether).join(', ');
  const top = block(doc, [{ text: `${content.orderNumber} · ${items}` }], SIZES.topLine, pt(REGIONS.topLine));
  doc.save();
  if (top.scale < 1) doc.scale(top.scale, top.scale, { origin: [top.box.left, top.box.top] });
  setFont(doc, true, top.size).text(content.orderNumber, top.box.left, top.box.top, {
    width: top.box.width / top.scale,
    continued: true,
    lineGap: 0,
  });
  setFont(doc, false, top.size).text(` · ${items}`, { width: top.box.width / top.scale, lineGap: 0 });
  doc.restore();

  const rule = pt(REGIONS.rule);
  doc.rect(rule.left, rule.top, rule.width, rule.height).fill('#000000');
  caption(doc, 'FROM', REGIONS.fromCaption);
  draw(doc, from, fromFit.size, pt(REGIONS.returnAddress), pt(REGIONS.returnAddress).top, fromFit.scale);
  caption(doc, 'SHIP TO', REGIONS.shipToCaption);
  const box = pt(REGIONS.box);
  doc
    .rect(box.left, box.top, box.width, box.height)
    .lineWidth(6 * PX)
    .stroke('#000000');
  // The recipient sits in the middle of the box's height.
  const rec = block(doc, recipientParagraphs(content), SIZES.recipient, pt(REGIONS.recipient));
  rec.draw(rec.box.top + Math.max(0, (rec.box.height - rec.height * rec.scale) / 2));
}

// ------------------------------------------------------------------- packing slip

const SLIP = { margin: 18, thumb: 54, row: 64, headerFirst: 118, headerNext: 46, footer: 22 } as const;

function slipPages(lines: number): number[] {
  const usable = (header: number) =>
    Math.max(1, Math.floor((SLIP_PAGE.height - 2 * SLIP.margin - header - SLIP.footer) / SLIP.row));
  const pages: number[] = [];
  let left = lines;
  while (left > 0 || pages.length === 0) {
    const n = Math.min(left, usable(pages.length === 0 ? SLIP.headerFirst : SLIP.headerNext));
    pages.push(n);
    left -= n;
  }
  return pages;
}

function slip(doc: Doc, order: OrderRecord, eventName: string, lines: readonly SlipLine[]): void {
  const m = SLIP.margin;
  const width = SLIP_PAGE.width - 2 * m;
  const content = labelContent(order);
  const pages = slipPages(lines.length);
  const prints = order.items.reduce((n, l) => n + l.quantity, 0);
  let next = 0;
  pages.forEach((count, page) => {
    doc.addPage({ size: [SLIP_PAGE.width, SLIP_PAGE.height], margin: 0 });
    let y = m;
    setFont(doc, true, SIZES.caption).text(page === 0 ? 'PACKING SLIP' : 'PACKING SLIP (continued)', m, y, {
      width,
      lineBreak: false,
    });
    y += 10;
    setFont(doc, true, 16).text(order.orderNumber, m, y, { width, lineBreak: false });
    y += 22;
    if (page === 0) {
      const placed = order.createdAt.slice(0, 10);
      setFont(doc, false, 8).text(`${eventName} · placed ${placed}`, m, y, { width, height: 11, ellipsis: true });
      y += 14;
      // The customer: the name larger and bold, then where it goes, shrunk to fit as on the label.
      const who = block(
        doc,
        [{ text: content.name, bold: true }, { text: content.addressLines.join(', ') }],
        { preferred: 10, min: 5 },
        { left: m, top: y, width, height: m + SLIP.headerFirst - 12 - y },
      );
      who.draw(y);
      y = m + SLIP.headerFirst - 8;
    } else {
      y = m + SLIP.headerNext - 8;
    }
    doc
      .moveTo(m, y)
      .lineTo(m + width, y)
      .lineWidth(0.75)
      .stroke('#000000');
    y += 8;
    for (const { line, thumbnail } of lines.slice(next, next + count)) {
      slipRow(doc, order, line, thumbnail, y);
      y += SLIP.row;
    }
    next += count;
    const footer = `${prints} print${prints === 1 ? '' : 's'} · ${order.items.length} line${order.items.length === 1 ? '' : 's'} · page ${page + 1} of ${pages.length}`;
    setFont(doc, false, 7).text(footer, m, SLIP_PAGE.height - m - 9, { width, align: 'right', lineBreak: false });
  });
}

function slipRow(doc: Doc, order: OrderRecord, line: OrderLine, thumbnail: Buffer | undefined, y: number): void {
  const m = SLIP.margin;
  const t = SLIP.thumb;
  let drawn = false;
  if (thumbnail) {
    try {
      doc.image(thumbnail, m, y, { fit: [t, t], align: 'center', valign: 'center' });
      drawn = true;
    } catch {
      // Not an image pdfkit reads: the placeholder below says which photo it is.
    }
  }
  if (!drawn) {
    doc.rect(m, y, t, t).lineWidth(0.5).stroke('#888888');
    setFont(doc, false, 7)
      .fillColor('#555555')
      .text(`#${line.photoNumber}`, m, y + t / 2 - 4, {
        width: t,
        align: 'center',
        lineBreak: false,
      });
    doc.fillColor('#000000');
  }
  const x = m + t + 10;
  const textWidth = SLIP_PAGE.width - m - x - 22;
  setFont(doc, true, 12).text(`Photo #${line.photoNumber}`, x, y + 2, { width: textWidth, lineBreak: false });
  setFont(doc, false, 11).text(`${line.size} × ${line.quantity}`, x, y + 19, { width: textWidth, lineBreak: false });
  const file = printFileName({ orderNumber: order.orderNumber, ...line });
  setFont(doc, false, 6.5)
    .fillColor('#444444')
    .text(file, x, y + 36, { width: textWidth, lineBreak: false });
  doc.fillColor('#000000');
  // A box to tick once the print is in the bag.
  doc
    .rect(SLIP_PAGE.width - m - 14, y + 4, 12, 12)
    .lineWidth(0.75)
    .stroke('#000000');
}

// ------------------------------------------------------------------- the document

/** Waits while the reader is more than HIGH_WATER behind (pdfkit pushes whatever it is given). */
function pacer(doc: Doc) {
  let wake: (() => void) | undefined;
  const stream = doc as unknown as Readable & { _read: () => void };
  stream._read = () => {
    wake?.();
    wake = undefined;
  };
  return async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (stream.readableLength > HIGH_WATER && !stream.destroyed) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
}

/**
 * One PDF: a label page per order, in the given order, each followed by its packing slip
 * when `opts.slip` is given. A readable stream; it errors if a page cannot be made.
 */
export async function renderLabelsPdf(
  orders: readonly OrderRecord[],
  returnAddress: string,
  opts: BatchPdfOptions = {},
): Promise<Readable> {
  const doc = await createPdf({ title: opts.title ?? 'Shipping labels' });
  const pace = pacer(doc);
  (async () => {
    const f = await fonts();
    doc.registerFont(FONT.regular, f.regular);
    doc.registerFont(FONT.bold, f.bold);
    const from: Paragraph[] = returnAddressLines(returnAddress).map((text) => ({ text }));
    const fromFit = fitBlock(doc, from, SIZES.returnAddress, pt(REGIONS.returnAddress));
    for (const order of orders) {
      if ((doc as unknown as Readable).destroyed) return;
      labelPage(doc, labelContent(order), from, fromFit);
      if (opts.slip) slip(doc, order, opts.eventName?.(order) ?? order.eventSlug, await opts.slip(order));
      await pace();
    }
    doc.end();
  })().catch((err: unknown) =>
    (doc as unknown as Readable).destroy(err instanceof Error ? err : new Error(String(err))),
  );
  return doc as unknown as Readable;
}
