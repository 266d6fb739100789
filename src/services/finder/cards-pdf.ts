/**
 * The booth's card sheet (docs/gallery.md, "Photo code cards"): photo code cards ten to a page,
 * laid out like perforated business-card stock (Avery 8371 on Letter, C32011 on A4), with
 * light cut marks for plain paper. QR codes are vector, sharp at any resolution. Set in PDF's
 * standard Helvetica (codes and URLs are ASCII): nothing to embed.
 */
import type { Readable } from 'node:stream';
import { createPdf, type PdfDocument } from '../../adapters/pdf.js';
import { qrModules } from './issue.js';

const IN = 72;
const MM = 72 / 25.4;

export type Paper = 'letter' | 'a4';

type Layout = {
  page: [number, number];
  card: { width: number; height: number };
  margin: { left: number; top: number };
  gap: { x: number; y: number };
};

const LAYOUTS: Record<Paper, Layout> = {
  letter: {
    page: [8.5 * IN, 11 * IN],
    card: { width: 3.5 * IN, height: 2 * IN },
    margin: { left: 0.75 * IN, top: 0.5 * IN },
    gap: { x: 0, y: 0 },
  },
  a4: {
    page: [210 * MM, 297 * MM],
    card: { width: 85 * MM, height: 54 * MM },
    margin: { left: 15 * MM, top: 13.5 * MM },
    gap: { x: 10 * MM, y: 0 },
  },
};

const CARDS_PER_PAGE = 10;
const COLUMNS = 2;

export type Card = { code: string; url: string };

/** `K7M2Q9TX` as `K7M2-Q9TX`: easier to read aloud and to type (hyphens are ignored). */
const spaced = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

type QrModules = Awaited<ReturnType<typeof qrModules>>;

function drawQr(doc: PdfDocument, qr: QrModules, x: number, y: number, side: number): void {
  const quiet = 2; // modules of white around it, on top of the card's own margin
  const unit = side / (qr.size + 2 * quiet);
  for (let row = 0; row < qr.size; row++) {
    for (let col = 0; col < qr.size; col++) {
      if (qr.dark(row, col)) doc.rect(x + (col + quiet) * unit, y + (row + quiet) * unit, unit, unit);
    }
  }
  doc.fillColor('#000000').fill();
}

function drawCard(doc: PdfDocument, card: Card, qr: QrModules, x: number, y: number, w: number, h: number): void {
  // Cut marks at the corners, light enough to vanish on perforated stock.
  const tick = 6;
  doc.save().lineWidth(0.3).strokeColor('#b0b0b0');
  for (const [cx, cy, dx, dy] of [
    [x, y, 1, 1],
    [x + w, y, -1, 1],
    [x, y + h, 1, -1],
    [x + w, y + h, -1, -1],
  ] as const) {
    doc
      .moveTo(cx, cy)
      .lineTo(cx + dx * tick, cy)
      .moveTo(cx, cy)
      .lineTo(cx, cy + dy * tick)
      .stroke();
  }
  doc.restore();

  const pad = 0.1 * h;
  const side = h - 2 * pad;
  drawQr(doc, qr, x + pad, y + pad, side);
  const tx = x + pad + side + pad * 0.6;
  const tw = x + w - pad - tx;
  doc.fillColor('#000000');
  doc
    .font('Helvetica-Bold')
    .fontSize(7)
    .text('MY PHOTO CODE', tx, y + pad, { width: tw, characterSpacing: 1 });
  // As large as fits on one line (a code of wide letters, W and M, is the widest).
  let size = 17;
  doc.font('Helvetica-Bold');
  while (size > 8 && doc.fontSize(size).widthOfString(spaced(card.code)) > tw) size -= 0.5;
  doc.fontSize(size).text(spaced(card.code), tx, y + pad + 11 + (17 - size) / 2, { width: tw, lineBreak: false });
  doc
    .font('Helvetica')
    .fontSize(7.5)
    .text(
      'Show this card to the photographer before your photos are taken. Then scan it to see them.',
      tx,
      y + pad + 34,
      {
        width: tw,
      },
    );
  doc
    .font('Helvetica')
    .fontSize(5.5)
    .fillColor('#333333')
    .text(card.url, tx, y + h - pad - 14, { width: tw, height: 16, ellipsis: true });
}

/** The sheet as a PDF stream; pages are written as the reader takes them. */
export async function cardsPdf(cards: readonly Card[], paper: Paper = 'letter'): Promise<Readable> {
  const layout = LAYOUTS[paper];
  const doc = await createPdf({ title: 'Photo code cards', size: layout.page });
  void (async () => {
    try {
      for (let start = 0; start < cards.length; start += CARDS_PER_PAGE) {
        doc.addPage({ size: layout.page, margin: 0 });
        for (const [i, card] of cards.slice(start, start + CARDS_PER_PAGE).entries()) {
          const col = i % COLUMNS;
          const row = Math.floor(i / COLUMNS);
          const x = layout.margin.left + col * (layout.card.width + layout.gap.x);
          const y = layout.margin.top + row * (layout.card.height + layout.gap.y);
          drawCard(doc, card, await qrModules(card.url), x, y, layout.card.width, layout.card.height);
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      doc.end();
    } catch (err) {
      doc.destroy(err as Error);
    }
  })();
  return doc;
}
