/**
 * Pictures decoded for the face engine: auto-oriented RGB, the long edge at most SCAN_SIZE.
 * The detector looks at 256 px whatever it is given; the larger copy serves the alignment and
 * the description of each face, for which 666 px found every face of the packaged group photos
 * as well as 1,024 px did (bench/RESULTS.md). A 24 MP original decodes at 1/8 for this size
 * (libvips shrinks a JPEG while decoding it: the reasoning of the intake's SCAN_SIZE).
 */
import sharp from 'sharp';
import type { FaceTask } from './face-thread.js';

export const SCAN_SIZE = 666;

/** A selfie larger than this is refused before decoding (a phone's 200 MP photo is 200 M). */
const MAX_INPUT_PIXELS = 250_000_000;

/** Throws when the input is not an image sharp can read. */
export async function decodeForFaces(input: string | Buffer): Promise<FaceTask> {
  const { data, info } = await sharp(input, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
    .autoOrient()
    .resize({ width: SCAN_SIZE, height: SCAN_SIZE, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
  return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}
