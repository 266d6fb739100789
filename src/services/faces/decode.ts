/**
 * Pictures decoded for the face engine: auto-oriented RGB, the long edge at most SCAN_SIZE.
 * The detector looks at 256 px whatever it is given; the larger copy serves the alignment and
 * the description of each face, for which 666 px found every face of the packaged group photos
 * as well as 1,024 px did (bench/RESULTS.md). A 24 MP original decodes at 1/8 for this size
 * (libvips shrinks a JPEG while decoding it: the reasoning of the intake's SCAN_SIZE).
 */
import { decodeFitted } from '../../adapters/sharp.js';
import type { FaceTask } from './face-thread.js';

const SCAN_SIZE = 666;

/**
 * The detector squeezes what it is given into a square: up to 1.6:1 (a camera's 3:2 frame) faces
 * are still found, wider ones lose theirs (a 2:1 composite of the test library: none of three).
 * Wider pictures get grey bands to this shape instead; a full square (human's `square` option)
 * shrank the faces of 3:2 frames so much that a third of the small ones were lost.
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
