/**
 * One demo image drawn (demo.ts): a gradient with the photo number the index will give it
 * and a caption, in the font shipped in node_modules, as a JPEG with the EXIF capture time
 * and the XMP packet Lightroom would embed.
 */
import { layersJpeg, textPng } from '../../adapters/sharp.js';
import { escapeHtml } from '../../lib/escape.js';
import { FONT_FAMILY, FONT_FILES } from '../../lib/font.js';
import type { DemoImage, DemoMetadata } from './demo-plan.js';

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The XMP packet Lightroom embeds on export, with what the gallery reads. */
function demoXmp(meta: DemoMetadata): string {
  const li = (items: readonly string[]) => items.map((i) => `<rdf:li>${xmlText(i)}</rdf:li>`).join('');
  return [
    '<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0-c000">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"',
    meta.rating === undefined ? '>' : ` xmp:Rating="${meta.rating}">`,
    `<dc:creator><rdf:Seq>${li([meta.photographer])}</rdf:Seq></dc:creator>`,
    meta.keywords ? `<dc:subject><rdf:Bag>${li(meta.keywords)}</rdf:Bag></dc:subject>` : '',
    meta.caption
      ? `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(meta.caption)}</rdf:li></rdf:Alt></dc:description>`
      : '',
    '</rdf:Description></rdf:RDF></x:xmpmeta>',
  ].join('');
}

function exifDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}:${p(d.getUTCMonth() + 1)}:${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

function hslToRgb(h: number, sat: number, light: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = sat * Math.min(light, 1 - light);
  const f = (n: number) => light - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

/**
 * Raw RGB pixels: a diagonal two-colour gradient, a soft glow placed by the photo number,
 * and a darker plate behind the number. Drawn in JS because it is several times faster
 * here than rasterising an SVG of the same size.
 */
function background(img: DemoImage): Buffer {
  const { width: w, height: h, hue, number } = img;
  const from = hslToRgb(hue, 0.55, 0.6);
  const to = hslToRgb((hue + 50) % 360, 0.58, 0.32);
  const gx = ((number * 37) % 100) / 100;
  const gy = ((number * 53) % 100) / 100;
  const glowX = gx * w;
  const glowY = gy * h;
  const glowR2 = (0.45 * Math.min(w, h)) ** 2;
  const plateW = Math.round(w * 0.62);
  const plateH = Math.round(h * 0.3);
  const px0 = (w - plateW) >> 1;
  const py0 = (h - plateH) >> 1;
  const out = Buffer.allocUnsafe(w * h * 3);
  const span = w + h;
  let o = 0;
  for (let y = 0; y < h; y++) {
    const dy2 = (y - glowY) ** 2;
    const inPlateRow = y >= py0 && y < py0 + plateH;
    for (let x = 0; x < w; x++) {
      const t = (x + y) / span;
      const d2 = (x - glowX) ** 2 + dy2;
      const glow = d2 < glowR2 ? 40 * (1 - d2 / glowR2) : 0;
      const dim = inPlateRow && x >= px0 && x < px0 + plateW ? 0.78 : 1;
      out[o++] = Math.min(255, (from[0] + (to[0] - from[0]) * t + glow) * dim);
      out[o++] = Math.min(255, (from[1] + (to[1] - from[1]) * t + glow) * dim);
      out[o++] = Math.min(255, (from[2] + (to[2] - from[2]) * t + glow) * dim);
    }
  }
  return out;
}

function renderText(text: string, sizePt: number, fontfile: string, color: string) {
  return textPng(
    {
      markup: `<span foreground="${color}">${escapeHtml(text)}</span>`,
      font: `${FONT_FAMILY} ${sizePt}`,
      fontfile,
      rgba: true,
      dpi: 72,
    },
    1,
  );
}

/** Draws one demo image: JPEG bytes with EXIF DateTimeOriginal set. */
export async function renderDemoImage(img: DemoImage, fontfile: string = FONT_FILES.regular): Promise<Buffer> {
  const short = Math.min(img.width, img.height);
  const [number, caption] = await Promise.all([
    renderText(`No. ${img.number}`, Math.round(short * 0.2), fontfile, '#ffffff'),
    renderText(img.caption, Math.round(short * 0.032), fontfile, '#ffffffe0'),
  ]);
  const centred = (outer: number, inner: number) => Math.max(0, Math.round((outer - inner) / 2));
  return layersJpeg(
    { data: background(img), width: img.width, height: img.height, channels: 3 },
    [
      { input: number.body, left: centred(img.width, number.width), top: centred(img.height, number.height) },
      {
        input: caption.body,
        left: centred(img.width, caption.width),
        top: Math.max(0, img.height - caption.height - Math.round(short * 0.05)),
      },
    ],
    {
      quality: 82,
      exif: {
        IFD0: { Make: 'Convention Photo Service', Model: 'Demo library', Software: 'demo generator' },
        IFD2: { DateTimeOriginal: exifDate(img.takenAt) },
      },
      xmp: demoXmp(img.metadata),
    },
  );
}
