/**
 * Photographed-QR-like frames for the finder's benches and tests: a busy "scene" (noise,
 * gradients, blobs) with a phone screen or a printed card holding a QR code, placed at a
 * given size, turned, sheared (a rough perspective), blurred, dimmed (screen glare lowers
 * contrast), then saved as a camera-like JPEG. Deterministic for a given seed.
 */
import QRCode from 'qrcode';
import sharp, { type Sharp } from 'sharp';

export type FrameSpec = {
  /** The text the QR holds. */
  payload: string;
  width?: number;
  height?: number;
  /** The QR's side as a fraction of the frame's short side (0 = no QR in the frame). */
  qrFraction: number;
  /** Degrees. */
  rotate?: number;
  /** Horizontal shear (a tilted phone), e.g. 0.15. */
  shear?: number;
  /** Gaussian blur sigma in the frame's pixels (a missed focus, camera shake). */
  blur?: number;
  /** 0..1: 1 = black on white, 0.5 = dark grey on light grey (glare on a screen). */
  contrast?: number;
  seed?: number;
  quality?: number;
  /** EXIF DateTimeOriginal, "YYYY:MM:DD HH:MM:SS". */
  takenAt?: string;
};

/** A deterministic generator of numbers in [0, 1) (xorshift). */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 1_000_000) / 1_000_000;
  };
}

/** A scene without a QR: the photos that follow a code frame. */
async function scene(width: number, height: number, seed: number): Promise<Sharp> {
  const rand = rng(seed);
  // Small noise image scaled up: soft blobs of colour, like an out-of-focus background.
  const sw = 48;
  const sh = Math.round((48 * height) / width);
  const small = Buffer.alloc(sw * sh * 3);
  for (let i = 0; i < small.length; i++) small[i] = Math.floor(40 + rand() * 180);
  const base = await sharp(small, { raw: { width: sw, height: sh, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  // Fine grain on top (sensor noise), so JPEG has something to code.
  for (let i = 0; i < base.length; i += 7) base[i] = Math.min(255, (base[i] as number) + Math.floor(rand() * 24));
  return sharp(base, { raw: { width, height, channels: 3 } });
}

export async function makeFrame(spec: FrameSpec): Promise<Buffer> {
  const width = spec.width ?? 6000;
  const height = spec.height ?? 4000;
  const seed = spec.seed ?? 1;
  const img = await scene(width, height, seed);
  const finish = (pipeline: Sharp) =>
    (spec.takenAt ? pipeline.withExifMerge({ IFD2: { DateTimeOriginal: spec.takenAt } }) : pipeline)
      .jpeg({ quality: spec.quality ?? 88 })
      .toBuffer();
  if (spec.qrFraction <= 0) return finish(img);

  const side = Math.round(Math.min(width, height) * spec.qrFraction);
  const contrast = spec.contrast ?? 1;
  const dark = Math.round(127 * (1 - contrast));
  const light = 255 - dark;
  const hex = (v: number) => v.toString(16).padStart(2, '0').repeat(3);
  const qrPng = await QRCode.toBuffer(spec.payload, {
    errorCorrectionLevel: 'M',
    margin: 2,
    width: side,
    color: { dark: `#${hex(dark)}ff`, light: `#${hex(light)}ff` },
  });
  // The phone around the code: a dark bezel.
  const bezel = Math.round(side * 0.12);
  let card = sharp(qrPng).extend({
    top: bezel * 2,
    bottom: bezel * 2,
    left: bezel,
    right: bezel,
    background: '#111111',
  });
  const shear = spec.shear ?? 0;
  if (shear !== 0) {
    card = sharp(await card.png().toBuffer()).affine(
      [
        [1, shear],
        [0, 1],
      ],
      { background: { r: 0, g: 0, b: 0, alpha: 0 } },
    );
  }
  if (spec.rotate) {
    card = sharp(await card.png().toBuffer()).rotate(spec.rotate, { background: { r: 0, g: 0, b: 0, alpha: 0 } });
  }
  const cardBuf = await card.png().toBuffer();
  const meta = await sharp(cardBuf).metadata();
  const rand = rng(seed * 7 + 3);
  const left = Math.floor(rand() * Math.max(1, width - (meta.width ?? side)));
  const top = Math.floor(rand() * Math.max(1, height - (meta.height ?? side)));
  let out = sharp(
    await img
      .composite([{ input: cardBuf, left, top }])
      .jpeg({ quality: 95 })
      .toBuffer(),
  );
  if (spec.blur && spec.blur >= 0.3) out = out.blur(spec.blur);
  return finish(out);
}
