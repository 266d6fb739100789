/**
 * A test library of real faces for face search, built from the six group photos that
 * @vladmandic/face-api ships in `demo/` (a devDependency, for these photos only): whole photos,
 * crops and composites, some showing one attendee (the middle woman of sample3, "the attendee")
 * and some not, and a mirrored, brightened close crop of her face as her "selfie".
 *
 * Face boxes of the originals (1920 px wide), as the face engine finds them:
 *   sample3: left 518,298 354², the attendee 998,188 368², right 1358,251 409²
 *   sample6: 176,456 | 587,308 | 1084,283 | 1401,236 (about 370² each)
 *   sample4: 171,191 | 613,54 | 919,159 | 1215,131 (about 300² each)
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import { writePhoto } from './photos-fixtures.js';
import { makeFrame } from './qr-frames.js';

const DEMO_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api')), '..', 'demo');

export const demoPhoto = (n: number) => path.join(DEMO_DIR, `sample${n}.jpg`);

type Region = { left: number; top: number; width: number; height: number };

/** The attendee alone: her face and hair, none of her neighbours'. */
const ATTENDEE: Region = { left: 930, top: 110, width: 415, height: 600 };

const crop = (n: number, region: Region) => sharp(demoPhoto(n)).extract(region);

async function piece(n: number, region: Region, height: number): Promise<{ input: Buffer; width: number }> {
  const { data, info } = await crop(n, region)
    .resize({ height })
    .jpeg({ quality: 92 })
    .toBuffer({ resolveWithObject: true });
  return { input: data, width: info.width };
}

/** Pieces side by side on one canvas of `height`, as a JPEG. */
async function composite(height: number, parts: { input: Buffer; width: number }[]): Promise<Buffer> {
  const width = parts.reduce((sum, p) => sum + p.width, 0);
  let left = 0;
  const layers: OverlayOptions[] = parts.map((p) => {
    const layer = { input: p.input, left, top: 0 };
    left += p.width;
    return layer;
  });
  return sharp({ create: { width, height, channels: 3, background: '#404040' } })
    .composite(layers)
    .jpeg({ quality: 90 })
    .toBuffer();
}

const jpeg = (img: Sharp) => img.jpeg({ quality: 90 }).toBuffer();

export type FaceFrame = { file: string; withAttendee: boolean; build: () => Promise<Buffer> };

/** The frames of the test event, in file-name order (their numbers follow it). */
export const FACE_FRAMES: readonly FaceFrame[] = [
  { file: 'F01.jpg', withAttendee: true, build: () => jpeg(sharp(demoPhoto(3)).resize({ width: 1600 })) },
  {
    file: 'F02.jpg',
    withAttendee: true,
    build: () => jpeg(crop(3, { left: 900, top: 0, width: 1020, height: 1350 }).resize({ width: 1020 })),
  },
  {
    file: 'F03.jpg',
    withAttendee: true,
    build: async () =>
      composite(900, [
        await piece(3, ATTENDEE, 900),
        await piece(6, { left: 1040, top: 180, width: 840, height: 620 }, 900),
      ]),
  },
  { file: 'F04.jpg', withAttendee: false, build: () => jpeg(sharp(demoPhoto(1)).resize({ width: 1600 })) },
  { file: 'F05.jpg', withAttendee: false, build: () => jpeg(sharp(demoPhoto(5)).resize({ width: 1600 })) },
  {
    file: 'F06.jpg',
    withAttendee: false,
    build: () => jpeg(crop(3, { left: 300, top: 150, width: 600, height: 700 })),
  },
  {
    file: 'F07.jpg',
    withAttendee: false,
    build: async () =>
      composite(800, [
        await piece(4, { left: 100, top: 0, width: 850, height: 600 }, 800),
        await piece(6, { left: 120, top: 250, width: 880, height: 620 }, 800),
      ]),
  },
  {
    file: 'F08.jpg',
    withAttendee: false,
    // No face at all: a soft gradient.
    build: () => makeFrame({ payload: '', qrFraction: 0, width: 1200, height: 800, seed: 8 }),
  },
];

/** The attendee's "selfie": a close crop of her face, mirrored, a little brighter, phone-sized. */
export function attendeeSelfie(format: 'jpeg' | 'png' | 'webp' = 'jpeg'): Promise<Buffer> {
  const img = crop(3, { left: 960, top: 150, width: 380, height: 470 })
    .flop()
    .modulate({ brightness: 1.1 })
    .resize({ width: 400 });
  return (format === 'png' ? img.png() : format === 'webp' ? img.webp() : img.jpeg({ quality: 88 })).toBuffer();
}

/** A photo-code frame that also shows the attendee: never listed, so never found by her face. */
export async function codeFrameWithAttendee(qrPayload: string): Promise<Buffer> {
  const qr = await makeFrame({ payload: qrPayload, width: 800, height: 800, qrFraction: 0.35, contrast: 0.8, seed: 5 });
  return composite(800, [await piece(3, ATTENDEE, 800), { input: qr, width: 800 }]);
}

/** Writes the frames as `<event>/Day 1/Main/<file>`; resolves with their files and whether each shows the attendee. */
export async function writeFaceEvent(photosDir: string, event: string): Promise<readonly FaceFrame[]> {
  for (const frame of FACE_FRAMES)
    await writePhoto(photosDir, [event, 'Day 1', 'Main', frame.file], await frame.build());
  return FACE_FRAMES;
}
