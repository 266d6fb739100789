/**
 * Photo-library fixtures: small real images drawn with sharp (with EXIF where asked), a
 * helper that lays them out as PHOTOS_DIR/<event>/<day>/<session>/<file>, the photo
 * catalogue a library numbers its photos in (a real SQLite store), a logger that records
 * what the library reports, and `waitFor`.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { TestContext } from 'vitest';
import type { PhotoCataloguePort } from '../../src/services/store/ports/photo-catalogue.js';
import { sqliteStore } from './store-engines.js';
import { waitUntil } from './wait.js';

export type ImageSpec = {
  width?: number;
  height?: number;
  /** EXIF DateTimeOriginal, "YYYY:MM:DD HH:MM:SS". */
  takenAt?: string;
  /** EXIF orientation 1–8. */
  orientation?: number;
  format?: 'jpeg' | 'png' | 'webp';
  /** Background colour, so that replaced files really differ. */
  color?: string;
};

export async function makeImage(spec: ImageSpec = {}): Promise<Buffer> {
  let img = sharp({
    create: {
      width: spec.width ?? 48,
      height: spec.height ?? 32,
      channels: 3,
      background: spec.color ?? '#3366aa',
    },
  });
  const format = spec.format ?? 'jpeg';
  img = format === 'png' ? img.png() : format === 'webp' ? img.webp() : img.jpeg({ quality: 60 });
  if (spec.orientation) img = img.withMetadata({ orientation: spec.orientation });
  if (spec.takenAt) img = img.withExifMerge({ IFD2: { DateTimeOriginal: spec.takenAt } });
  return img.toBuffer();
}

/** Writes `data` to root/<event>/<day>/<session>/<file> and returns its path. */
export async function writePhoto(
  root: string,
  [event, day, session, file]: [string, string, string, string],
  data: Buffer | string,
): Promise<string> {
  const dir = path.join(root, event, day, session);
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, file);
  // Written beside the library and moved in whole, as a card reader's copy lands: the library
  // watches its folders, and a half-written file is held back and numbered after the files
  // that follow it (tests that want a file arriving in pieces write it themselves).
  const staging = await mkdtemp(path.join(root, '..', '.incoming-'));
  try {
    await writeFile(path.join(staging, file), data);
    await rename(path.join(staging, file), target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return target;
}

export async function writeEventJson(root: string, event: string, json: unknown): Promise<void> {
  await mkdir(path.join(root, event), { recursive: true });
  await writeFile(path.join(root, event, 'event.json'), typeof json === 'string' ? json : JSON.stringify(json));
}

export { recordingLogger } from './recording-logger.js';

/**
 * The photo catalogue of a library whose DATA_DIR is `dataDir`: the system of record's
 * SQLite file there (`orders.db`), as the server opens it; a library started again on the
 * same `dataDir` finds its numbers. Closed when the test ends (after the library, if the
 * library's close was registered later).
 */
export async function sqliteCatalogue(t: TestContext, dataDir: string): Promise<PhotoCataloguePort> {
  return (await sqliteStore(t, path.join(dataDir, 'orders.db'))).photoCatalogue;
}

/**
 * Polls `check` until it returns true. In a test only the test's own timeout ends the wait
 * (test/support/wait.ts); `timeoutMs` bounds it only when called from a hook.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<void> {
  await waitUntil(check, what, timeoutMs);
}
