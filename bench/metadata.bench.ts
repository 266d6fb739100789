/**
 * `npm run bench -- metadata`: the photographer's metadata (docs/contract.md, "The
 * photographer's metadata").
 *
 * (a) Intake with metadata reading against intake without: 1,000 photos (1600×1067 JPEGs
 *     with camera EXIF and the XMP Lightroom embeds on export, a third of them with an
 *     `IMG_0001.xmp` sidecar too) arrive in the folder of a running library (a fresh SQLite
 *     catalogue) with the real inspector and image service (src/services/intake/inspect.ts:
 *     one decode, the photo-code search, both thumbnails cached), as in the server; measured
 *     until every one is inspected and the index is current. `readMetadata` on and off,
 *     alternately; the median of each. Target: ≤ 1.05×.
 * (a′) The scan alone (headers, sidecars, the catalogue write: a restart on a new DATA_DIR,
 *     nothing inspected), where metadata reading is all the difference: a figure, no target.
 * (b) Search p99 at 50,000 photos with 5 keywords each (and a caption and a photographer),
 *     1,000 queries of one to three words (prefixes of keywords, whole words, a number),
 *     through the index (src/services/photos/search-index.ts). Target: ≤ 10 ms. Baseline in
 *     the same run: the same queries answered by scanning every photo's words.
 */
import { cp, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import { createImageService } from '../src/services/images/service.js';
import { createInspector } from '../src/services/intake/inspect.js';
import { createPhotoLibrary } from '../src/services/photos/library.js';
import { SearchIndex, searchWords } from '../src/services/photos/search-index.js';
import type { Photo } from '../src/services/photos/types.js';
import { openStore } from '../src/services/store/store.js';
import { lightroomSidecar, lightroomXmp } from '../test/support/xmp-fixtures.js';
import { type BenchRow, median, percentile, printReport } from './lib/report.js';

const PHOTOS = Number(process.env.METADATA_BENCH_PHOTOS ?? 1000);
const ROUNDS = Number(process.env.METADATA_BENCH_ROUNDS ?? 3);
const INTAKE_ROUNDS = Number(process.env.METADATA_BENCH_INTAKE_ROUNDS ?? 2);
const SEARCH_PHOTOS = 50_000;
const QUERIES = 1000;

const SERIES = ['Demon Slayer', 'Pokémon', 'Sailor Moon', 'Genshin Impact', 'One Piece', 'Zelda', 'Naruto', 'Jujutsu'];
/** A deterministic generator (the same photos and queries every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  // mulberry32: integer arithmetic only (a float LCG loses bits and falls into short cycles).
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const SYLLABLES = [
  'ka',
  'ne',
  'zu',
  'ko',
  'ta',
  'n',
  'ji',
  'ro',
  'pi',
  'chu',
  'sa',
  'mi',
  'ra',
  'to',
  'shi',
  'ma',
  'ru',
  'yu',
];
function vocabulary(n: number, rand: () => number): string[] {
  const words = new Set<string>();
  while (words.size < n) {
    const len = 2 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < len; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    words.add(w.charAt(0).toUpperCase() + w.slice(1));
  }
  return [...words];
}

/** Writes the photos into `<root>/Meta Con/Day 1/Hall`. */
async function writeLibrary(root: string): Promise<void> {
  const rand = rng(7);
  const names = vocabulary(300, rand);
  const dir = path.join(root, 'Meta Con', 'Day 1', 'Hall');
  await mkdir(dir, { recursive: true });
  // Noise, so that the decode costs what a photo's does (a flat colour decodes in no time).
  const noise = Buffer.alloc(1600 * 1067 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(rand() * 256);
  const base = await sharp(noise, { raw: { width: 1600, height: 1067, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
  for (let i = 1; i <= PHOTOS; i++) {
    const name = `IMG_${String(i).padStart(4, '0')}`;
    const keywords = [names[i % names.length] as string, SERIES[i % SERIES.length] as string, 'Cosplay'];
    const xmp = lightroomXmp({
      rating: (i % 7) - 1,
      keywords,
      hierarchical: keywords.map((k) => `Characters|${k}`),
      creator: i % 2 ? 'Jo Lens' : 'Sam Shutter',
      caption: `${keywords[0]} at the ${SERIES[i % SERIES.length]} meetup`,
    });
    const jpeg = await sharp(base)
      .withExif({
        IFD0: { Make: 'Canon', Model: 'EOS R6', Artist: 'Jo Lens' },
        IFD2: { DateTimeOriginal: '2026:07:03 10:00:00' },
      })
      .withXmp(xmp)
      .jpeg({ quality: 80 })
      .toBuffer();
    await writeFile(path.join(dir, `${name}.jpg`), jpeg);
    if (i % 3 === 0)
      await writeFile(path.join(dir, `${name}.xmp`), lightroomSidecar({ rating: 3, keywords: ['Sidecar'] }));
  }
}

/**
 * The intake: a running library on an empty folder, with the server's inspector; the photos
 * (written beside it) are moved in at once. ms until all are inspected and the index is current.
 */
async function intakeOnce(staged: string, work: string, readMetadata: boolean): Promise<number> {
  const dataDir = await mkdtemp(path.join(work, 'data-'));
  const photosDir = path.join(dataDir, 'photos');
  await mkdir(photosDir, { recursive: true });
  const log = pino({ level: 'silent' });
  const store = await openStore({ engine: 'sqlite', file: path.join(dataDir, 'orders.db') });
  const lib = createPhotoLibrary({
    photosDir,
    dataDir,
    catalogue: store.photoCatalogue,
    log,
    rescanIntervalMs: 0,
    watch: false,
    syncIntervalMs: 0,
    readMetadata,
  });
  const images = createImageService({
    originalPath: (photo) => lib.originalPath(photo),
    cacheDir: path.join(dataDir, 'cache'),
    thumbnailSize: 400,
    previewSize: 1600,
    watermarkText: 'bench',
    memoryBytes: 32 * 1024 * 1024,
    log,
  });
  const inspector = createInspector({ images, thumbnailSize: 400 });
  lib.setInspector(inspector.inspect);
  await lib.start();
  const copy = path.join(dataDir, 'staging');
  await cpDir(staged, copy);
  const started = performance.now();
  await rename(path.join(copy, 'Meta Con'), path.join(photosDir, 'Meta Con'));
  await lib.rescan();
  const ms = performance.now() - started;
  const listed = lib.photosOf('Meta Con')?.length ?? 0;
  await lib.close();
  await inspector.close();
  await images.close();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
  if (listed === 0) throw new Error('nothing was listed');
  return ms;
}

async function cpDir(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true });
}

/** Indexes the library into a fresh catalogue; ms until ready. */
async function indexOnce(root: string, work: string, readMetadata: boolean): Promise<number> {
  const dataDir = await mkdtemp(path.join(work, 'data-'));
  const store = await openStore({ engine: 'sqlite', file: path.join(dataDir, 'orders.db') });
  const lib = createPhotoLibrary({
    photosDir: root,
    dataDir,
    catalogue: store.photoCatalogue,
    log: pino({ level: 'silent' }),
    rescanIntervalMs: 0,
    watch: false,
    syncIntervalMs: 0,
    readMetadata,
  });
  const started = performance.now();
  await lib.start();
  const ms = performance.now() - started;
  const listed = lib.photosOf('Meta Con')?.length ?? 0;
  await lib.close();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
  if (listed === 0) throw new Error('nothing was listed');
  return ms;
}

function searchPhotos(): Photo[] {
  const rand = rng(11);
  const names = vocabulary(3000, rand);
  const photographers = ['Jo Lens', 'Sam Shutter', 'Ana Café', 'Kai Focus'];
  return Array.from({ length: SEARCH_PHOTOS }, (_, i) => {
    const keywords = Array.from({ length: 5 }, () => names[Math.floor(rand() * names.length)] as string);
    keywords[4] = SERIES[i % SERIES.length] as string;
    return {
      id: `id${i}`,
      number: String(i + 1),
      eventCode: 'Big Con',
      day: 'Day 1',
      session: 'Hall',
      fileName: `IMG_${i}.jpg`,
      width: 6000,
      height: 4000,
      takenAt: null,
      version: '1',
      rating: i % 6,
      metadata: {
        keywords,
        caption: `${keywords[0]} and ${keywords[1]} by the fountain`,
        photographer: photographers[i % photographers.length] as string,
      },
    };
  });
}

function queries(photos: Photo[]): string[] {
  const rand = rng(13);
  return Array.from({ length: QUERIES }, (_, i) => {
    if (i % 10 === 0) return String(1 + Math.floor(rand() * photos.length));
    const words = 1 + Math.floor(rand() * 3);
    const parts: string[] = [];
    for (let w = 0; w < words; w++) {
      const p = photos[Math.floor(rand() * photos.length)] as Photo;
      const k = p.metadata?.keywords?.[Math.floor(rand() * 5)] ?? 'x';
      parts.push(k.slice(0, 2 + Math.floor(rand() * Math.max(1, k.length - 1))).toLowerCase());
    }
    return parts.join(' ');
  });
}

/** The ordinary path: every photo's words checked against every query word. */
function scanSearch(photos: Photo[], words: string[][], query: string): Photo[] {
  const terms = searchWords(query);
  const out: Photo[] = [];
  for (let i = 0; i < photos.length; i++) {
    const p = photos[i] as Photo;
    const own = words[i] as string[];
    if (terms.every((t) => p.number === t || own.some((w) => w.startsWith(t)))) out.push(p);
  }
  return out;
}

export default async function metadataBench(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'metadata-bench-'));
  try {
    const root = path.join(work, 'photos');
    await writeLibrary(root);
    await indexOnce(root, work, true); // warm-up: page cache, parsers
    const withMeta: number[] = [];
    const without: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      without.push(await indexOnce(root, work, false));
      withMeta.push(await indexOnce(root, work, true));
    }
    const intakeWith: number[] = [];
    const intakeWithout: number[] = [];
    for (let r = 0; r < INTAKE_ROUNDS; r++) {
      intakeWithout.push(await intakeOnce(root, work, false));
      intakeWith.push(await intakeOnce(root, work, true));
    }
    const ia = median(intakeWith);
    const ib = median(intakeWithout);
    const a = median(withMeta);
    const b = median(without);
    const rows: BenchRow[] = [
      {
        name: `intake of ${PHOTOS} photos with XMP, reading metadata (median of ${INTAKE_ROUNDS})`,
        value: ia,
        unit: 'ms',
        baseline: ib,
        target: '<= 1.05x',
        pass: ia / ib <= 1.05,
      },
      {
        name: `scan alone of ${PHOTOS} photos, reading metadata (median of ${ROUNDS})`,
        value: a,
        unit: 'ms',
        baseline: b,
      },
      { name: 'metadata reading per photo (scan difference)', value: (a - b) / PHOTOS, unit: 'ms' },
    ];

    const photos = searchPhotos();
    const buildStart = performance.now();
    const index = new SearchIndex(photos);
    const buildMs = performance.now() - buildStart;
    const qs = queries(photos);
    const words = photos.map((p) =>
      searchWords(
        [...(p.metadata?.keywords ?? []), p.metadata?.caption ?? '', p.metadata?.photographer ?? ''].join(' '),
      ),
    );
    for (const q of qs.slice(0, 50)) index.search(q); // warm-up
    const indexed: number[] = [];
    const scanned: number[] = [];
    let mismatches = 0;
    for (const q of qs) {
      let t = performance.now();
      const hit = index.search(q);
      indexed.push(performance.now() - t);
      t = performance.now();
      const scan = scanSearch(photos, words, q);
      scanned.push(performance.now() - t);
      if (hit.length !== scan.length) mismatches++;
    }
    if (mismatches > 0) throw new Error(`${mismatches} queries answered differently by the index and the scan`);
    const p99 = percentile(indexed, 99);
    rows.push(
      { name: `build the search index of ${SEARCH_PHOTOS} photos`, value: buildMs, unit: 'ms' },
      {
        name: `search p99, ${SEARCH_PHOTOS} photos × 5 keywords (${QUERIES} queries)`,
        value: p99,
        unit: 'ms',
        baseline: percentile(scanned, 99),
        target: '<= 10 ms',
        pass: p99 <= 10,
      },
      { name: 'search median', value: median(indexed), unit: 'ms', baseline: median(scanned) },
    );
    printReport('photographer’s metadata', rows);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
