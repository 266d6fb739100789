/**
 * Pictures decoded for the face engine: auto-oriented RGB, the long edge at most SCAN_SIZE (the
 * detector looks at 256 px; the alignment and description found as many faces at 666 px as at
 * 1,024: bench/RESULTS.md). libvips shrinks a JPEG while decoding it.
 */
import { decodeFitted } from '../../adapters/sharp.js';
import type { FaceTask } from './face-thread.js';

const SCAN_SIZE = 666;

/**
 * The detector squeezes what it is given into a square: faces survive up to 1.6:1 (a camera's
 * 3:2), not wider. Wider pictures get grey bands to this shape (a full square shrank the faces
 * of 3:2 frames so much that a third of the small ones were lost).
 */
const MAX_ASPECT = 1.6;

/** A selfie larger than this is refused before decoding (a phone's 200 MP photo is 200 M). */
const MAX_INPUT_PIXELS = 250_000_000;

/** Throws when the input is not an image the image library can read. */
export async function decodeForFaces(input: string | Buffer): Promise<FaceTask> {
  const { data, width, height, channels } = await decodeFitted(input, {
    size: SCAN_SIZE,
    pixels: 'rgb',
    maxInputPixels: MAX_INPUT_PIXELS,
  });
  if (channels !== 3) throw new Error(`expected 3 channels, got ${channels}`);
  return letterbox(new Uint8Array(data.buffer, data.byteOffset, data.length), width, height);
}

/** Grey bands above and below (or left and right of) a picture wider (or taller) than MAX_ASPECT. */
function letterbox(rgb: Uint8Array, width: number, height: number): FaceTask {
  const outWidth = Math.max(width, Math.ceil(height / MAX_ASPECT));
  const outHeight = Math.max(height, Math.ceil(width / MAX_ASPECT));
  if (outWidth === width && outHeight === height) return { rgb, width, height };
  const out = new Uint8Array(outWidth * outHeight * 3).fill(128);
  const left = Math.floor((outWidth - width) / 2);
  const top = Math.floor((outHeight - height) / 2);
  for (let y = 0; y < height; y++) {
    out.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), ((top + y) * outWidth + left) * 3);
  }
  return { rgb: out, width: outWidth, height: outHeight };
}
