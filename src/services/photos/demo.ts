/**
 * The demo library: with DEMO_LIBRARY=auto and an empty or missing PHOTOS_DIR, the first start
 * draws two small events so that `npm install && npm start` shows a working gallery and shop.
 * Each image shows the number the index will give it (drawn in display order), in the font
 * shipped in node_modules. A little of the photographer's metadata shows it working: two
 * photographers, keywords, a few 4- and 5-star picks, and one reject (Spring Matsuri's 31).
 */

import { mkdir, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { FONT_FILES } from '../../lib/font.js';
import type { Logger } from '../../lib/logger.js';
import { renderDemoImage } from './demo-drawing.js';
import { DAY_MS, planDemoLibrary } from './demo-plan.js';
import { isHidden } from './naming.js';

export { renderDemoImage } from './demo-drawing.js';
export {
  DEMO_PHOTO_COUNT,
  DEMO_REJECTED,
  type DemoImage,
  type DemoMetadata,
  planDemoLibrary,
} from './demo-plan.js';

/** PHOTOS_DIR is missing, or holds nothing but hidden entries. */
async function isLibraryEmpty(photosDir: string): Promise<boolean> {
  try {
    return (await readdir(photosDir)).every(isHidden);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

export function demoMarkerFile(dataDir: string): string {
  return path.join(dataDir, 'demo-library.json');
}

/**
 * Writes the demo library into `photosDir`. Images are drawn in a hidden staging folder
 * (ignored by the index) and moved into place at the end, so an interrupted run leaves
 * PHOTOS_DIR empty and the next start tries again.
 */
async function generateDemoLibrary(opts: {
  photosDir: string;
  log: Logger;
  now?: Date;
}): Promise<{ events: number; photos: number }> {
  const now = opts.now ?? new Date();
  const { events, images } = planDemoLibrary(now);
  const staging = path.join(opts.photosDir, `.demo-staging-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const started = Date.now();
  const written = new Date(now.getTime() - 3_600_000);
  opts.log.info({ photosDir: opts.photosDir, images: images.length }, 'generating the demo photo library');
  try {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    for (const event of events) {
      const date = new Date(today + event.startsInDays * DAY_MS).toISOString().slice(0, 10);
      await mkdir(path.join(staging, event.folder), { recursive: true });
      const json = {
        name: `${event.name} ${date.slice(0, 4)}`,
        date,
        prefix: event.prefix,
        prices: event.prices,
        defaultSize: Object.keys(event.prices)[0],
        shippingFee: event.shippingFee,
        isArchived: false,
        orderingEnabled: true,
        deadline: event.deadlineInDays === null ? null : new Date(today + event.deadlineInDays * DAY_MS).toISOString(),
      };
      await writeFile(path.join(staging, event.folder, 'event.json'), `${JSON.stringify(json, null, 2)}\n`);
    }
    const fontfile = FONT_FILES.regular;
    const limit = pLimit(4);
    let done = 0;
    await Promise.all(
      images.map((img) =>
        limit(async () => {
          const dir = path.join(staging, img.event, img.day, img.session);
          await mkdir(dir, { recursive: true });
          const file = path.join(dir, img.fileName);
          await writeFile(file, await renderDemoImage(img, fontfile));
          // Dated an hour back: the drawing is complete when moved into place, so the first scan
          // takes every image at once instead of holding the last back for INTAKE_SETTLE_MS.
          await utimes(file, written, written);
          done++;
          if (done % 15 === 0 || done === images.length) {
            opts.log.info(`demo photo library: ${done}/${images.length} images`);
          }
        }),
      ),
    );
    for (const event of events) {
      await rename(path.join(staging, event.folder), path.join(opts.photosDir, event.folder));
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  opts.log.info({ ms: Date.now() - started }, 'demo photo library ready');
  return { events: events.length, photos: images.length };
}

/**
 * DEMO_LIBRARY=auto: generates the demo library when PHOTOS_DIR is missing or empty and no
 * demo was generated for this DATA_DIR before (an operator who emptied the folder to start
 * with real photos does not get the demo back on the next restart).
 */
export async function ensureDemoLibrary(opts: {
  photosDir: string;
  dataDir: string;
  log: Logger;
  now?: Date;
}): Promise<boolean> {
  if (!(await isLibraryEmpty(opts.photosDir))) return false;
  const marker = demoMarkerFile(opts.dataDir);
  const previous = await readFile(marker, 'utf8').catch(() => undefined);
  if (previous !== undefined) {
    opts.log.info(
      { photosDir: opts.photosDir, marker },
      'PHOTOS_DIR is empty; the demo library was generated before and is not generated again (delete the marker file to get it back)',
    );
    return false;
  }
  const result = await generateDemoLibrary(opts);
  await mkdir(opts.dataDir, { recursive: true });
  await writeFile(
    marker,
    `${JSON.stringify({ generatedAt: new Date().toISOString(), photosDir: opts.photosDir, ...result }, null, 2)}\n`,
  );
  return true;
}
