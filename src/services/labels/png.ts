/**
 * The PNG label: 4 × 6 in at 300 dpi, 1800 × 1200 px, 8-bit grey; layout in REGIONS.
 * Everything the same on every label is drawn once into a base buffer, so a label costs two
 * text renders, a copy of the base and one PNG encode.
 * Text is set by Pango (adapters/sharp.ts) in the bundled font, customer text escaped, at the
 * largest size that fits its region: estimated first (most blocks render once), then from the
 * measured overflow, then libvips' autofit. Nothing is ever cut: a block still too big is scaled.
 */
import { pixelsPng, type RawImage, scalePixels, textPixels } from '../../adapters/sharp.js';
import { escapeHtml } from '../../lib/escape.js';
import { FONT_FAMILY, FONT_FILES } from '../../lib/font.js';
import { type LabelContent, returnAddressLines, topLineText } from './content.js';
import { keepTogether } from './markup.js';
import { isWide } from './wide.js';

export const LABEL_WIDTH = 1800;
export const LABEL_HEIGHT = 1200;
const LABEL_DPI = 300;
/** Nothing is drawn closer than this to the page edge (0.15 in). */
export const PAGE_MARGIN = 45;

export type Region = { left: number; top: number; width: number; height: number };

/** Where each block goes; exported so tests can look for ink in the right places. */
export const REGIONS = {
  topLine: { left: 60, top: 50, width: 1680, height: 136 },
  rule: { left: 60, top: 200, width: 1680, height: 4 },
  fromCaption: { left: 60, top: 224, width: 200, height: 40 },
  returnAddress: { left: 60, top: 266, width: 900, height: 190 },
  shipToCaption: { left: 300, top: 474, width: 300, height: 40 },
  box: { left: 300, top: 518, width: 1440, height: 622 },
  recipient: { left: 345, top: 556, width: 1350, height: 546 },
} as const satisfies Record<string, Region>;

const BOX_STROKE = 6;

/** Preferred sizes in px (dpi 72: one point is one pixel). */
const SIZE = { topLine: 46, caption: 28, returnAddress: 36, recipient: 64 };

/** One band of coverage: 0 = paper, 255 = full ink. */
export type Mask = RawImage;

/** A paragraph of a text block: plain text, its size relative to the block's, bold or not. */
export type Paragraph = { text: string; scale?: number; bold?: boolean };
export type TextBlock = { paragraphs: Paragraph[]; size: number; region: Region };

/** Pango line height of Noto Sans JP, in ems (ascent 1.16 + descent 0.288). */
const LINE_HEIGHT_EM = 1.45;

/** Rough advance width in ems of Noto Sans: wide characters 1, the rest 0.56 on average. */
function textWidthEm(text: string): number {
  let em = 0;
  for (const ch of text) em += isWide(ch.codePointAt(0) as number) ? 1 : 0.56;
  return em;
}

/** Estimated height in px of the paragraphs set at `size` px, wrapped to `width`. */
function estimateHeight(paragraphs: readonly Paragraph[], size: number, width: number): number {
  let height = 0;
  for (const p of paragraphs) {
    const px = size * (p.scale ?? 1);
    const lines = Math.max(1, Math.ceil((textWidthEm(p.text) * px * (p.bold ? 1.05 : 1)) / width));
    height += lines * px * LINE_HEIGHT_EM;
  }
  return height;
}

/** The largest size up to `preferred` whose estimated height fits `region` (whole px, at least 4). */
function estimateFittingSize(block: TextBlock): number {
  const { width, height } = block.region;
  let size = block.size;
  while (size > 4 && estimateHeight(block.paragraphs, size, width) > height) size -= size > 24 ? 2 : 1;
  return size;
}

function blockMarkup(paragraphs: readonly Paragraph[]): string {
  return paragraphs
    .map((p) => {
      let text = escapeHtml(p.text);
      if (p.bold) text = `<b>${text}</b>`;
      if (p.scale !== undefined && p.scale !== 1) text = `<span size="${Math.round(p.scale * 100)}%">${text}</span>`;
      return text;
    })
    .join('\n');
}

async function renderMask(markup: string, opts: { size: number; width: number; height?: number }): Promise<Mask> {
  return textPixels({
    markup,
    font: `${FONT_FAMILY} ${opts.size}`,
    fontfile: FONT_FILES.regular,
    width: opts.width,
    ...(opts.height === undefined ? { dpi: 72 } : { height: opts.height }),
  });
}

const fits = (mask: Mask, region: Region) => mask.width <= region.width && mask.height <= region.height;

/**
 * Set a block as large as it fits, up to its preferred size. The first size comes from an
 * estimate, so most blocks are rendered once; an overflow is set again smaller (its area
 * grows with the square of the size), then by libvips' autofit, then scaled as pixels.
 */
export async function renderBlock(block: TextBlock, markup = blockMarkup(block.paragraphs)): Promise<Mask> {
  const { region } = block;
  let size = estimateFittingSize(block);
  let mask = await renderMask(markup, { size, width: region.width });
  for (let attempt = 0; attempt < 3 && !fits(mask, region) && size > 4; attempt++) {
    const ratio = Math.min(Math.sqrt(region.height / mask.height), region.width / mask.width);
    size = Math.max(4, Math.min(size - 1, Math.floor(size * ratio * 0.97)));
    mask = await renderMask(markup, { size, width: region.width });
  }
  if (!fits(mask, region)) {
    mask = await renderMask(markup, { size, width: region.width, height: region.height });
  }
  if (!fits(mask, region)) {
    // Autofit works on Pango's logical extents; should the ink still exceed the region,
    // scale the pixels down rather than cut anything off.
    const scale = Math.min(region.width / mask.width, region.height / mask.height);
    mask = await scalePixels(mask, {
      width: Math.max(1, Math.floor(mask.width * scale)),
      height: Math.max(1, Math.floor(mask.height * scale)),
    });
  }
  return mask;
}

/** Darken `page` (one band, LABEL_WIDTH wide) with `mask` at (left, top): black ink on paper. */
function inkOnto(page: Buffer, mask: Mask, left: number, top: number): void {
  const { data, width, height, channels } = mask;
  const rows = Math.min(height, LABEL_HEIGHT - top);
  const cols = Math.min(width, LABEL_WIDTH - left);
  for (let y = 0; y < rows; y++) {
    let src = y * width * channels;
    let dst = (top + y) * LABEL_WIDTH + left;
    for (let x = 0; x < cols; x++, src += channels, dst++) {
      const ink = data[src] as number;
      if (ink !== 0) {
        const paper = 255 - ink;
        if (paper < (page[dst] as number)) page[dst] = paper;
      }
    }
  }
}

function fillRect(page: Buffer, r: Region, value: number): void {
  for (let y = r.top; y < r.top + r.height; y++) {
    page.fill(value, y * LABEL_WIDTH + r.left, y * LABEL_WIDTH + r.left + r.width);
  }
}

function frame(page: Buffer, r: Region, stroke: number): void {
  fillRect(page, { left: r.left, top: r.top, width: r.width, height: stroke }, 0);
  fillRect(page, { left: r.left, top: r.top + r.height - stroke, width: r.width, height: stroke }, 0);
  fillRect(page, { left: r.left, top: r.top, width: stroke, height: r.height }, 0);
  fillRect(page, { left: r.left + r.width - stroke, top: r.top, width: stroke, height: r.height }, 0);
}

/** The parts of the label that never change: built once per renderer. */
async function renderBase(returnAddress: string): Promise<Buffer> {
  const page = Buffer.alloc(LABEL_WIDTH * LABEL_HEIGHT, 255);
  fillRect(page, REGIONS.rule, 0);
  frame(page, REGIONS.box, BOX_STROKE);
  const lines = returnAddressLines(returnAddress);
  const blocks: TextBlock[] = [
    { paragraphs: [{ text: 'FROM', bold: true }], size: SIZE.caption, region: REGIONS.fromCaption },
    { paragraphs: [{ text: 'SHIP TO', bold: true }], size: SIZE.caption, region: REGIONS.shipToCaption },
  ];
  if (lines.length > 0) {
    blocks.push({
      paragraphs: lines.map((text) => ({ text })),
      size: SIZE.returnAddress,
      region: REGIONS.returnAddress,
    });
  }
  for (const block of blocks) {
    inkOnto(page, await renderBlock(block), block.region.left, block.region.top);
  }
  return page;
}

let boldRegistered: Promise<unknown> | undefined;

/**
 * libvips adds a `fontfile` to its (process-wide) font map the first time it sees it.
 * Rendering once with the bold file makes `<b>` use the real bold face rather than a
 * synthesised one, whichever file later calls name.
 */
function registerBoldFace(): Promise<unknown> {
  boldRegistered ??= textPixels({ markup: 'B', font: `${FONT_FAMILY} Bold 8`, fontfile: FONT_FILES.bold });
  return boldRegistered;
}

/** The top line: the order number in bold, then the items, wrapping only between items. */
function topLineMarkup(content: LabelContent): string {
  const items = content.items.map((i) => escapeHtml(keepTogether(i))).join(', ');
  return `<b>${escapeHtml(content.orderNumber)}</b> · ${items}`;
}

/** The recipient block: the name larger and bold, then the address lines. */
export function recipientParagraphs(content: LabelContent): Paragraph[] {
  return [
    { text: content.name, scale: 1.2, bold: true },
    ...content.addressLines.map((text) => ({ text, bold: content.pickup })),
  ];
}

/** The two blocks that change from label to label, as `renderBlock` takes them. */
export function labelBlocks(content: LabelContent) {
  return {
    topLine: {
      block: { paragraphs: [{ text: topLineText(content) }], size: SIZE.topLine, region: REGIONS.topLine },
      markup: topLineMarkup(content),
    },
    recipient: { block: { paragraphs: recipientParagraphs(content), size: SIZE.recipient, region: REGIONS.recipient } },
  } satisfies Record<string, { block: TextBlock; markup?: string }>;
}

export type PngLabelRenderer = { render(content: LabelContent): Promise<Buffer> };

export function createPngLabelRenderer(opts: { returnAddress: string }): PngLabelRenderer {
  let base: Promise<Buffer> | undefined;
  const getBase = (): Promise<Buffer> => {
    if (!base) {
      const attempt = registerBoldFace().then(() => renderBase(opts.returnAddress));
      // A failed first attempt is not remembered: the next label tries again.
      attempt.catch(() => {
        if (base === attempt) base = undefined;
      });
      base = attempt;
    }
    return base;
  };

  return {
    async render(content) {
      // The first label waits for the base (and the bold face) before setting its own text.
      const basePage = await getBase();
      const blocks = labelBlocks(content);
      const [top, recipient] = await Promise.all([
        renderBlock(blocks.topLine.block, blocks.topLine.markup),
        renderBlock(blocks.recipient.block),
      ]);
      const page = Buffer.from(basePage);
      // Both blocks sit in the middle of their regions' height.
      const t = REGIONS.topLine;
      inkOnto(page, top, t.left, t.top + Math.floor((t.height - top.height) / 2));
      const r = REGIONS.recipient;
      inkOnto(page, recipient, r.left, r.top + Math.floor((r.height - recipient.height) / 2));
      return pixelsPng(
        { data: page, width: LABEL_WIDTH, height: LABEL_HEIGHT, channels: 1 },
        { dpi: LABEL_DPI, compressionLevel: 6 },
      );
    },
  };
}
