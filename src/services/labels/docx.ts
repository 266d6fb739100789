/**
 * The DOCX label: one 6 × 4 in page with the PNG's content as editable text in Noto Sans JP
 * (not embedded: a Word without it substitutes its own). Word lays the text out, not us, so
 * the page is planned so it never spills onto a second one: exact line heights (the same
 * whatever font Word substitutes) and generous character widths; each block shrinks until
 * its estimate fits its share of the page.
 */
import {
  AlignmentType,
  BorderStyle,
  Document,
  HeightRule,
  type ISectionOptions,
  LineRuleType,
  Packer,
  PageOrientation,
  Paragraph,
  Table,
  TableCell,
  TableLayoutType,
  TableRow,
  TextRun,
  VerticalAlignTable,
  WidthType,
} from 'docx';
import { FONT_FAMILY } from '../../lib/font.js';
import { type LabelContent, returnAddressLines, SIZES } from './content.js';
import { isWide } from './wide.js';

const TWIPS_PER_PT = 20;
const TWIPS_PER_IN = 1440;

const PAGE = { width: 6 * TWIPS_PER_IN, height: 4 * TWIPS_PER_IN, margin: 0.2 * TWIPS_PER_IN };
const CONTENT_WIDTH_PT = (PAGE.width - 2 * PAGE.margin) / TWIPS_PER_PT; // 403.2
/** The height inside the margins, in points (259.2). */
export const PAGE_CONTENT_HEIGHT_PT = (PAGE.height - 2 * PAGE.margin) / TWIPS_PER_PT;
/** What the estimates may fill: the page height less a 3 % safety margin. */
const CONTENT_HEIGHT_PT = PAGE_CONTENT_HEIGHT_PT * 0.97; // ≈ 251

/** The box starts 0.8 in in from the left margin, as on the PNG. */
const BOX_INDENT_PT = 57.6;
const BOX_WIDTH_PT = CONTENT_WIDTH_PT - BOX_INDENT_PT;
const BOX_BORDER_PT = 1.5;
const CELL_PADDING_PT = { x: 9, y: 6 };

/** Every line is exactly this many times its font size high. */
const LINE_FACTOR = 1.4;

/** Room (pt) each block may use at most before it shrinks; the recipient box gets the rest. */
const BUDGET = { topLine: 53, returnAddress: 46 };
const RULE_GAP_PT = 6;

type Para = { text: string; scale?: number; bold?: boolean };

const NARROW = new Set(" iljtf.,:;'!|()[]");

/**
 * Generous advance widths in ems, per kind of character. Word draws the label in whatever
 * font it has (Noto Sans JP if installed, else a substitute such as DejaVu Sans, one of the
 * widest), so the widths are those of a wide sans serif, not of Noto.
 */
function charEm(ch: string, cp: number): number {
  if (cp < 0x80) {
    if (NARROW.has(ch)) return 0.34;
    if (ch === 'W' || ch === 'm') return 1.0;
    if (ch === 'M' || ch === 'w') return 0.9;
    if (ch >= 'A' && ch <= 'Z') return 0.76;
    if (ch >= '0' && ch <= '9') return 0.64;
    if (ch >= 'a' && ch <= 'z') return 0.62;
    return 0.7;
  }
  return isWide(cp) ? 1 : 0.8;
}

function widthEm(text: string): number {
  let em = 0;
  for (const ch of text) em += charEm(ch, ch.codePointAt(0) as number);
  return em;
}

/** Estimated height (pt) of paragraphs at `size` pt in a column `width` pt wide. */
function estimateHeight(paras: readonly Para[], size: number, width: number): number {
  let height = 0;
  for (const p of paras) {
    const pt = size * (p.scale ?? 1);
    // Word wraps at spaces: allow a tenth of each line for the word that did not fit.
    const lines = Math.max(1, Math.ceil((widthEm(p.text) * pt * (p.bold ? 1.1 : 1)) / (width * 0.9)));
    height += lines * lineTwips(pt);
  }
  return height / TWIPS_PER_PT;
}

/** An exact line height in whole twips, as written into the document. */
function lineTwips(pt: number): number {
  return Math.ceil(pt * LINE_FACTOR * TWIPS_PER_PT);
}

/** The largest size (half-point steps) from `preferred` down to `min` whose estimate fits `budget`. */
function fitBlock(paras: readonly Para[], sizes: { preferred: number; min: number }, width: number, budget: number) {
  let size = sizes.preferred;
  while (size > sizes.min && estimateHeight(paras, size, width) > budget) size -= 0.5;
  return { size, height: estimateHeight(paras, size, width) };
}

function paragraph(p: Para, size: number, opts: { indentPt?: number } = {}): Paragraph {
  const pt = size * (p.scale ?? 1);
  return new Paragraph({
    spacing: { before: 0, after: 0, line: lineTwips(pt), lineRule: LineRuleType.EXACT },
    indent: opts.indentPt ? { left: Math.round(opts.indentPt * TWIPS_PER_PT) } : undefined,
    children: [new TextRun({ text: p.text, bold: p.bold, size: Math.round(pt * 2), font: FONT_FAMILY })],
  });
}

/** The paragraphs of a label, with the sizes chosen for them (exported for tests). */
export function planDocxLabel(content: LabelContent, returnAddress: string) {
  const top: Para[] = [{ text: `${content.orderNumber} · ${content.items.join(', ')}`, bold: false }];
  const from: Para[] = returnAddressLines(returnAddress).map((text) => ({ text }));
  const recipient: Para[] = [
    { text: content.name, scale: 1.2, bold: true },
    ...content.addressLines.map((text) => ({ text, bold: content.pickup })),
  ];
  const captionHeight = lineTwips(SIZES.caption) / TWIPS_PER_PT;
  const boxChrome = 2 * BOX_BORDER_PT + 2 * CELL_PADDING_PT.y;
  const boxTextWidth = BOX_WIDTH_PT - 2 * CELL_PADDING_PT.x - 2 * BOX_BORDER_PT;

  const ret = fitBlock(from, SIZES.returnAddress, CONTENT_WIDTH_PT, BUDGET.returnAddress);
  const fixed = RULE_GAP_PT + 2 * captionHeight + ret.height;
  // The recipient may use whatever the top line and the return address leave at most. The
  // top line keeps to its budget, or takes more room when an enormous order needs it; if even
  // then the page overflows, the recipient gives up the difference (smaller type) and we retry.
  const topFit = fitBlock(top, SIZES.topLine, CONTENT_WIDTH_PT, BUDGET.topLine);
  let recBudget = CONTENT_HEIGHT_PT - fixed - BUDGET.topLine - boxChrome;
  let rec = fitBlock(recipient, SIZES.recipient, boxTextWidth, recBudget);
  let topLine = topFit;
  for (let round = 0; round < 20; round++) {
    rec = fitBlock(recipient, SIZES.recipient, boxTextWidth, recBudget);
    const topBudget = Math.max(BUDGET.topLine, CONTENT_HEIGHT_PT - fixed - rec.height - boxChrome);
    topLine = topFit.height <= BUDGET.topLine ? topFit : fitBlock(top, SIZES.topLine, CONTENT_WIDTH_PT, topBudget);
    const overflow = topLine.height + fixed + rec.height + boxChrome - CONTENT_HEIGHT_PT;
    if (overflow <= 0 || rec.size <= SIZES.recipient.min) break;
    recBudget = rec.height - overflow;
  }
  // The box fills the rest of the page (as on the PNG), never less than its text needs.
  const boxHeight = Math.max(rec.height + boxChrome, CONTENT_HEIGHT_PT - fixed - topLine.height);
  return {
    from,
    recipient,
    sizes: { topLine: topLine.size, returnAddress: ret.size, recipient: rec.size },
    boxHeight,
    /** The estimated height of everything, to compare with PAGE_CONTENT_HEIGHT_PT. */
    estimatedHeight: topLine.height + fixed + boxHeight,
  };
}

/** The label as one section of a document: one page. */
function labelSection(content: LabelContent, returnAddress: string): ISectionOptions {
  const plan = planDocxLabel(content, returnAddress);
  const caption = (text: string, indentPt?: number) =>
    paragraph({ text, bold: true }, SIZES.caption, indentPt === undefined ? {} : { indentPt });
  const border = { style: BorderStyle.SINGLE, size: BOX_BORDER_PT * 8, color: '000000' };

  const box = new Table({
    layout: TableLayoutType.FIXED,
    width: { size: Math.round(BOX_WIDTH_PT * TWIPS_PER_PT), type: WidthType.DXA },
    columnWidths: [Math.round(BOX_WIDTH_PT * TWIPS_PER_PT)],
    indent: { size: Math.round(BOX_INDENT_PT * TWIPS_PER_PT), type: WidthType.DXA },
    borders: { top: border, bottom: border, left: border, right: border },
    rows: [
      new TableRow({
        cantSplit: true,
        height: { value: Math.floor(plan.boxHeight * TWIPS_PER_PT), rule: HeightRule.ATLEAST },
        children: [
          new TableCell({
            verticalAlign: VerticalAlignTable.CENTER,
            margins: {
              top: CELL_PADDING_PT.y * TWIPS_PER_PT,
              bottom: CELL_PADDING_PT.y * TWIPS_PER_PT,
              left: CELL_PADDING_PT.x * TWIPS_PER_PT,
              right: CELL_PADDING_PT.x * TWIPS_PER_PT,
            },
            children: plan.recipient.map((p) => paragraph(p, plan.sizes.recipient)),
          }),
        ],
      }),
    ],
  });

  // The top line: the order number in bold, then the items (the rule under it is its border).
  const topSize = Math.round(plan.sizes.topLine * 2);
  const topParagraph = new Paragraph({
    spacing: {
      before: 0,
      after: (RULE_GAP_PT / 2) * TWIPS_PER_PT,
      line: lineTwips(plan.sizes.topLine),
      lineRule: LineRuleType.EXACT,
    },
    border: { bottom: { style: BorderStyle.SINGLE, size: 8, color: '000000', space: RULE_GAP_PT / 2 } },
    children: [
      new TextRun({ text: content.orderNumber, bold: true, size: topSize, font: FONT_FAMILY }),
      new TextRun({ text: ` · ${content.items.join(', ')}`, size: topSize, font: FONT_FAMILY }),
    ],
  });

  return {
    properties: {
      page: {
        // docx swaps width and height for landscape: give the portrait sizes.
        size: { width: PAGE.height, height: PAGE.width, orientation: PageOrientation.LANDSCAPE },
        margin: {
          top: PAGE.margin,
          right: PAGE.margin,
          bottom: PAGE.margin,
          left: PAGE.margin,
          header: 0,
          footer: 0,
        },
      },
    },
    children: [
      topParagraph,
      caption('FROM'),
      ...plan.from.map((p) => paragraph(p, plan.sizes.returnAddress)),
      caption('SHIP TO', BOX_INDENT_PT),
      box,
      // Word ends a document with a paragraph after a table: make it one point high so
      // that a full page never spills its last, empty line onto a second page.
      new Paragraph({
        spacing: { before: 0, after: 0, line: TWIPS_PER_PT, lineRule: LineRuleType.EXACT },
        run: { size: 2 },
        alignment: AlignmentType.LEFT,
        children: [],
      }),
    ],
  };
}

/** A document of labels, one page each, in the given order. */
function labelsDocument(contents: readonly LabelContent[], returnAddress: string, title: string): Document {
  return new Document({
    creator: 'convention-photo-service',
    title,
    styles: {
      default: {
        document: {
          run: { font: FONT_FAMILY, size: 20 },
          paragraph: { spacing: { before: 0, after: 0 } },
        },
      },
    },
    sections: contents.map((c) => labelSection(c, returnAddress)),
  });
}

function buildDocxLabel(content: LabelContent, returnAddress: string): Document {
  return labelsDocument([content], returnAddress, `Shipping label ${content.orderNumber}`);
}

export async function renderDocxLabel(content: LabelContent, returnAddress: string): Promise<Buffer> {
  return Packer.toBuffer(buildDocxLabel(content, returnAddress));
}

/** Batch labels: one page per label (docs/contract.md, "Fulfilment"). */
export async function renderDocxLabels(
  contents: readonly LabelContent[],
  returnAddress: string,
  title = 'Shipping labels',
): Promise<Buffer> {
  return Packer.toBuffer(labelsDocument(contents, returnAddress, title));
}
