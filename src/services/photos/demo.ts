/**
 * The demo library: with DEMO_LIBRARY=auto and an empty or missing PHOTOS_DIR, the first
 * start draws two small events (2 days, 2–3 sessions a day, 60 photos) so that
 * `npm install && npm start` shows a working gallery and shop.
 *
 * Each image shows the photo number the index will give it: numbers are assigned in
 * display order (day, session, capture time), which is exactly the order drawn here.
 * Text is rendered with the font shipped in node_modules (no system fonts needed).
 *
 * A little of the photographer's metadata (docs/contract.md, "The photographer's metadata"),
 * as Lightroom embeds it on export, so a new user sees it work: two photographers (Jo Lens
 * shot Harbor Comic Con's first day, Sam Shutter the rest), cosplay keywords to search for,
 * a few 4- and 5-star picks (the featured row), and one reject: an extra last frame of
 * Spring Matsuri (number 31, never listed unless the event shows rejects).
 */

import { mkdir, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { layersJpeg, textPng } from '../../adapters/sharp.js';
import { escapeHtml } from '../../lib/escape.js';
import { FONT_FAMILY, FONT_FILES } from '../../lib/font.js';
import type { Logger } from '../../lib/logger.js';
import { compareNames, isHidden } from './naming.js';

const DAY_MS = 86_400_000;

type DemoSession = { name: string; photos: number };
type DemoEvent = {
  folder: string;
  name: string;
  prefix: string;
  /** The event's first day, relative to the day of generation. */
  startsInDays: number;
  /** Ordering deadline relative to generation, or null for none. */
  deadlineInDays: number | null;
  prices: Record<string, number>;
  shippingFee: number;
  hue: number;
  days: { name: string; sessions: DemoSession[] }[];
};

/** 60 photos: 30 per event. */
const DEMO_EVENTS: readonly DemoEvent[] = [
  {
    folder: 'Harbor Comic Con',
    name: 'Harbor Comic Con',
    prefix: 'HCC',
    startsInDays: -3,
    deadlineInDays: 30,
    prices: { '4x6': 5, '5x7': 10, '8x10': 20 },
    shippingFee: 5,
    hue: 205,
    days: [
      {
        name: 'Day 1',
        sessions: [
          { name: 'Cosplay Stage', photos: 6 },
          { name: 'Main Hall', photos: 5 },
          { name: 'Photo Booth', photos: 5 },
        ],
      },
      {
        name: 'Day 2',
        sessions: [
          { name: 'Cosplay Stage', photos: 7 },
          { name: 'Masquerade', photos: 7 },
        ],
      },
    ],
  },
  {
    folder: 'Spring Matsuri',
    name: 'Spring Matsuri',
    prefix: 'SPM',
    startsInDays: -45,
    deadlineInDays: null,
    prices: { '4x6': 6, '5x7': 12, '8x10': 22, '11x14': 35 },
    shippingFee: 4.5,
    hue: 330,
    days: [
      {
        name: 'Day 1',
        sessions: [
          { name: 'Garden Walk', photos: 8 },
          { name: 'Lantern Parade', photos: 7 },
        ],
      },
      {
        name: 'Day 2',
        sessions: [
          { name: 'Dance Stage', photos: 5 },
          { name: 'Photo Booth', photos: 5 },
          // The sixth is the reject (a blink): numbered 31, never listed.
          { name: 'Tea House', photos: 6 },
        ],
      },
    ],
  },
];

/** Images drawn (the reject included). */
export const DEMO_PHOTO_COUNT = DEMO_EVENTS.reduce(
  (n, e) => n + e.days.reduce((m, d) => m + d.sessions.reduce((k, s) => k + s.photos, 0), 0),
  0,
);

/** Frames the demo's photographer rejected: drawn, numbered, never listed. */
export const DEMO_REJECTED = 1;

/** What Lightroom would have embedded in a demo photo. */
export type DemoMetadata = { rating?: number; keywords?: string[]; photographer: string; caption?: string };

const COSPLAY = [
  ['Nezuko', 'Demon Slayer'],
  ['Pikachu', 'Pokémon'],
  ['Sailor Moon', 'Sailor Moon'],
  ['Link', 'Zelda'],
  ['Raiden Shogun', 'Genshin Impact'],
] as const;

/** The demo's metadata of the n-th photo of an event. */
function demoMetadata(event: DemoEvent, day: string, number: number, last: boolean): DemoMetadata {
  const photographer = event.folder === 'Harbor Comic Con' && day === 'Day 1' ? 'Jo Lens' : 'Sam Shutter';
  if (last && event.folder === 'Spring Matsuri') return { photographer, rating: -1, keywords: ['_blink'] };
  const [character, series] = COSPLAY[number % COSPLAY.length] as readonly [string, string];
  const meta: DemoMetadata = { photographer, keywords: [character, series, 'Cosplay'] };
  if (number % 7 === 3) meta.rating = 5;
  else if (number % 7 === 5) meta.rating = 4;
  else if (number % 3 === 0) meta.rating = 2;
  if (number % 10 === 1) meta.caption = `${character} (${series}) at ${event.name}`;
  return meta;
}

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

/** One image to draw: where it goes and what it shows. */
export type DemoImage = {
  event: string;
  day: string;
  session: string;
  fileName: string;
  number: number;
  takenAt: Date;
  width: number;
  height: number;
  hue: number;
  caption: string;
  metadata: DemoMetadata;
};

/** The plan, in display order: the n-th image of an event carries number n. */
export function planDemoLibrary(now: Date): { events: DemoEvent[]; images: DemoImage[] } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const images: DemoImage[] = [];
  for (const event of DEMO_EVENTS) {
    const start = today + event.startsInDays * DAY_MS;
    let number = 0;
    const days = [...event.days].sort((a, b) => compareNames(a.name, b.name));
    const total = event.days.reduce((n, d) => n + d.sessions.reduce((m, x) => m + x.photos, 0), 0);
    days.forEach((day, dayIndex) => {
      const sessions = [...day.sessions].sort((a, b) => compareNames(a.name, b.name));
      sessions.forEach((session, sessionIndex) => {
        for (let i = 0; i < session.photos; i++) {
          number++;
          // Sessions of a day run in folder order, photos a few minutes apart.
          const takenAt = new Date(start + dayIndex * DAY_MS + (10 + sessionIndex * 2) * 3_600_000 + i * 197_000);
          const portrait = number % 5 === 0;
          images.push({
            event: event.folder,
            day: day.name,
            session: session.name,
            fileName: `IMG_${String(number).padStart(4, '0')}.jpg`,
            number,
            takenAt,
            width: portrait ? 1067 : 1600,
            height: portrait ? 1600 : 1067,
            hue: (event.hue + number * 23) % 360,
            caption: `${event.name} · ${day.name} · ${session.name}`,
            metadata: demoMetadata(event, day.name, number, number === total),
          });
        }
      });
    });
  }
  return { events: [...DEMO_EVENTS], images };
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
          // Dated an hour back: the drawing is complete when it is moved into place, so the
          // first scan takes every image at once rather than holding the last ones back for
          // the intake's settling time (and then for their inspection): the library's
          // "indexed" count is the 60 drawn, not the part older than INTAKE_SETTLE_MS.
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
