/**
 * The watermark of previews: the text rendered once (per text and size) with the shipped
 * Noto Sans JP font file, never a system font, as a semi-transparent, rotated RGBA tile
 * that `render.ts` repeats across the whole image.
 */
import { type Layer, layersPixels, layersPng, type RawImage, rotatePng, textPng } from '../../adapters/sharp.js';
import { escapeHtml } from '../../lib/escape.js';
import { FONT_FAMILY, FONT_FILES } from '../../lib/font.js';

/** Raw, non-premultiplied RGBA pixels, repeated over a preview (adapters/sharp.ts, `renderFitted`). */
export type WatermarkTile = RawImage;

const ANGLE_DEG = -30;
/** Opacity of the light text and of its dark shadow: readable on bright and dark photos. */
const TEXT_ALPHA = 50;
const SHADOW_ALPHA = 35;

/** `<`, `>` and `&` would otherwise be Pango markup. */
function renderText(text: string, color: string, alpha: number, px: number) {
  const markup = `<span foreground="${color}" fgalpha="${alpha}%">${escapeHtml(text)}</span>`;
  return textPng({ markup, font: `${FONT_FAMILY} ${px}`, fontfile: FONT_FILES.regular, rgba: true, dpi: 72 });
}

/**
 * Renders the watermark for `text` on previews whose long edge is `previewSize`: the text
 * about 1/18 of the long edge high, turned 30°, repeated in staggered rows over one
 * previewSize-square layer (rows run on without seams), cut to each preview's size.
 */
async function renderWatermarkTile(text: string, previewSize: number): Promise<WatermarkTile> {
  const px = Math.max(12, Math.round(previewSize / 18));
  const shadow = Math.max(1, Math.round(px / 32));
  const [light, dark] = await Promise.all([
    renderText(text, '#ffffff', TEXT_ALPHA, px),
    renderText(text, '#000000', SHADOW_ALPHA, px),
  ]);
  const { width: textW, height: textH } = light;
  // The stamp: light text over its dark shadow, turned once.
  const flat = await layersPng({ width: textW + shadow, height: textH + shadow }, [
    { input: dark.body, left: shadow, top: shadow },
    { input: light.body, left: 0, top: 0 },
  ]);
  // Rotation is a separate pass: within one pipeline libvips rotates before compositing.
  const stamp = await rotatePng(flat, ANGLE_DEG);

  // Stamp centres on a lattice turned like the text: along the baseline every stepX,
  // across it every stepY, every other row shifted half a step.
  const rad = (ANGLE_DEG * Math.PI) / 180;
  const along = { x: Math.cos(rad), y: Math.sin(rad) };
  const across = { x: -Math.sin(rad), y: Math.cos(rad) };
  const stepX = textW + 2 * Math.round(px * 0.9);
  const stepY = textH + 2 * Math.round(px * 0.5);
  const reach = Math.ceil((previewSize * Math.SQRT2) / Math.min(stepX, stepY)) + 2;
  const half = previewSize / 2;
  const overlays: Layer[] = [];
  for (let j = -reach; j <= reach; j++) {
    for (let i = -reach; i <= reach; i++) {
      const a = i * stepX + (j & 1 ? stepX / 2 : 0);
      const b = j * stepY;
      const left = Math.round(half + a * along.x + b * across.x - stamp.width / 2);
      const top = Math.round(half + a * along.y + b * across.y - stamp.height / 2);
      const visible = left < previewSize && top < previewSize && left + stamp.width > 0 && top + stamp.height > 0;
      if (visible) overlays.push({ input: stamp.body, left, top });
    }
  }
  return layersPixels({ width: previewSize, height: previewSize }, overlays);
}

/** One tile per (text, size), rendered on first use and shared by every preview after it. */
export function watermarkTiles(): (text: string, previewSize: number) => Promise<WatermarkTile> {
  const tiles = new Map<string, Promise<WatermarkTile>>();
  return (text, previewSize) => {
    const key = `${previewSize}\u0000${text}`;
    let tile = tiles.get(key);
    if (!tile) {
      tile = renderWatermarkTile(text, previewSize);
      // A failed render is not kept: the next preview tries again.
      tile.catch(() => tiles.delete(key));
      tiles.set(key, tile);
    }
    return tile;
  };
}
