/**
 * `npm run thumbnails [-- --event CODE] [--kind thumbnail|tile|preview] [--concurrency N]`
 *
 * Fills the server's image disk cache ahead of time, so a fresh event's first visitors don't
 * wait for renders. Same library, image service and configuration as the server; cached
 * images are skipped, so it can be stopped and rerun, also while the server runs.
 * Exit code: 0 done, 1 some images failed, 2 bad usage, 78 bad configuration.
 */

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import pino from 'pino';
import { type Config, ConfigError, loadConfig } from '../config/env.js';
import { PRIVATE_UMASK } from '../lib/data-dir.js';
import type { Logger } from '../lib/logger.js';
import { imageCacheDir } from '../services/images/plugin.js';
import { createImageService } from '../services/images/service.js';
import { type ImageFormat, type ImageKind, PRERENDERED_TILES, tileKind } from '../services/images/types.js';
import { storeOptions } from '../services/store/plugin.js';
import { openStore } from '../services/store/store.js';

/** What a gallery visit asks for first, per photo (`--kind` picks one line); the rest render on demand. */
const REBUILT: Readonly<Record<'thumbnail' | 'tile' | 'preview', readonly { kind: ImageKind; format: ImageFormat }[]>> =
  {
    thumbnail: [
      { kind: 'thumbnail', format: 'jpeg' },
      { kind: 'thumbnail', format: 'webp' },
    ],
    tile: PRERENDERED_TILES.map((width) => ({ kind: tileKind(width), format: 'webp' as const })),
    preview: [{ kind: 'preview', format: 'jpeg' }],
  };
const REBUILT_KINDS = Object.keys(REBUILT) as (keyof typeof REBUILT)[];

import { ensureDemoLibrary } from '../services/photos/demo.js';
import { createPhotoLibrary } from '../services/photos/library.js';
import type { Photo } from '../services/photos/types.js';

export type PregenerateOptions = {
  config: Config;
  event?: string;
  /** Only these kinds (default all). */
  kinds?: readonly (keyof typeof REBUILT)[];
  /** Images worked on at once (default: the number of cores). */
  concurrency?: number;
  log: Logger;
  /** Called after every image, for a progress display. */
  onProgress?: (state: { done: number; total: number; failed: number }) => void;
  /** Called once the work is known. */
  onStart?: (total: number) => void;
};

export type PregenerateSummary = {
  events: number;
  photos: number;
  /** Rendered now (`skipped`: cached already). */
  done: number;
  skipped: number;
  failed: number;
  failures: { event: string; photo: string; kind: ImageKind; error: string }[];
  ms: number;
};

export class UsageError extends Error {
  override name = 'UsageError';
}

export async function pregenerate(opts: PregenerateOptions): Promise<PregenerateSummary> {
  const started = Date.now();
  const { config, log } = opts;
  // The numbers come from the photo catalogue in the system of record, as the server's do.
  const store = await openStore(storeOptions(config, log));
  const library = createPhotoLibrary({
    photosDir: config.photosDir,
    dataDir: config.dataDir,
    catalogue: store.photoCatalogue,
    log,
    rescanIntervalMs: 0,
    watch: false,
  });
  const images = createImageService({
    originalPath: (photo) => library.originalPath(photo),
    cacheDir: imageCacheDir(config.dataDir),
    thumbnailSize: config.THUMBNAIL_SIZE,
    previewSize: config.PREVIEW_SIZE,
    watermarkText: config.WATERMARK_TEXT,
    memoryBytes: 0, // every image is written once and not read back here
    log,
  });
  try {
    if (config.DEMO_LIBRARY === 'auto') {
      await ensureDemoLibrary({ photosDir: config.photosDir, dataDir: config.dataDir, log });
    }
    await library.start();
    const events = opts.event === undefined ? library.listEvents() : [library.getEvent(opts.event)];
    if (events[0] === undefined && opts.event !== undefined) {
      const known = library
        .listEvents()
        .map((e) => e.code)
        .join(', ');
      throw new UsageError(`no event "${opts.event}" in ${config.photosDir} (events: ${known || 'none'})`);
    }
    const kinds = opts.kinds ?? REBUILT_KINDS;
    const jobs: { photo: Photo; kind: ImageKind; format: ImageFormat }[] = [];
    let photoCount = 0;
    for (const event of events) {
      for (const photo of (event && library.photosOf(event.code)) ?? []) {
        photoCount++;
        for (const kind of kinds) for (const job of REBUILT[kind]) jobs.push({ photo, ...job });
      }
    }

    const summary: PregenerateSummary = {
      events: events.length,
      photos: photoCount,
      done: 0,
      skipped: 0,
      failed: 0,
      failures: [],
      ms: 0,
    };
    opts.onStart?.(jobs.length);
    let next = 0;
    let finished = 0;
    const worker = async () => {
      for (let job = jobs[next++]; job; job = jobs[next++]) {
        try {
          const outcome = await images.ensure(job.kind, job.photo, job.format);
          if (outcome === 'skipped') summary.skipped++;
          else summary.done++;
        } catch (err) {
          summary.failed++;
          summary.failures.push({
            event: job.photo.eventCode,
            photo: job.photo.number,
            kind: job.kind,
            error: (err as Error).message,
          });
        }
        finished++;
        opts.onProgress?.({ done: finished, total: jobs.length, failed: summary.failed });
      }
    };
    const concurrency = Math.max(1, opts.concurrency ?? os.availableParallelism());
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
    summary.ms = Date.now() - started;
    return summary;
  } finally {
    await images.close();
    await library.close();
    await store.close();
  }
}

export function formatSummary(s: PregenerateSummary): string {
  const lines = [
    `${s.photos} photos in ${s.events} event${s.events === 1 ? '' : 's'}: ` +
      `done ${s.done}, skipped ${s.skipped} (already cached), failed ${s.failed}, ` +
      `time ${(s.ms / 1000).toFixed(1)} s`,
  ];
  for (const f of s.failures.slice(0, 20)) lines.push(`  failed: ${f.event} #${f.photo} ${f.kind}: ${f.error}`);
  if (s.failures.length > 20) lines.push(`  ... and ${s.failures.length - 20} more`);
  return `${lines.join('\n')}\n`;
}

function parseCli(argv: string[]): Pick<PregenerateOptions, 'event' | 'kinds' | 'concurrency'> {
  const { values } = parseArgs({
    args: argv,
    options: {
      event: { type: 'string', short: 'e' },
      kind: { type: 'string', short: 'k' },
      concurrency: { type: 'string', short: 'c' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run thumbnails [-- --event CODE] [--kind thumbnail|tile|preview] [--concurrency N]\n' +
        '   or: node dist/cli/thumbnails.js [--event CODE] ... (in the Docker image: docker exec <container> node dist/cli/thumbnails.js)\n',
    );
    process.exit(0);
  }
  const kind = values.kind;
  if (kind !== undefined && !REBUILT_KINDS.includes(kind as keyof typeof REBUILT)) {
    throw new UsageError(`--kind must be thumbnail, tile or preview, not "${kind}"`);
  }
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 64)) {
    throw new UsageError('--concurrency must be an integer from 1 to 64');
  }
  return { event: values.event, kinds: kind ? [kind as keyof typeof REBUILT] : undefined, concurrency };
}

async function main(): Promise<number> {
  // The disk cache is under DATA_DIR, which is private (lib/data-dir.ts).
  process.umask(process.umask() | PRIVATE_UMASK);
  let config: Config;
  let args: ReturnType<typeof parseCli>;
  try {
    args = parseCli(process.argv.slice(2));
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return err instanceof ConfigError ? 78 : 2;
  }
  // Warnings and errors on stderr; the progress bar and the summary are the output.
  const level = ['debug', 'trace', 'silent', 'error', 'fatal'].includes(config.LOG_LEVEL) ? config.LOG_LEVEL : 'warn';
  const log = pino({ level }, pino.destination(2));
  const bar = new cliProgress.SingleBar(
    {
      format: 'images {bar} {percentage}% | {value}/{total} | {failed} failed | ETA {eta_formatted}',
      hideCursor: true,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  process.stdout.write(`Pre-generating images from ${config.photosDir} into ${imageCacheDir(config.dataDir)}\n`);
  try {
    const summary = await pregenerate({
      config,
      ...args,
      log,
      onStart: (total) => bar.start(total, 0, { failed: 0 }),
      onProgress: ({ done, failed }) => bar.update(done, { failed }),
    });
    bar.stop();
    process.stdout.write(formatSummary(summary));
    return summary.failed > 0 ? 1 : 0;
  } catch (err) {
    bar.stop();
    process.stderr.write(`${(err as Error).message}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
