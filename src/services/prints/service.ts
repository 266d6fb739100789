/**
 * The PrintFiles behind `fastify.prints` (types.ts), without Fastify for tests and the bench.
 * Renders share one p-limit (default: the cores) however many ZIPs download at once: a 24 MP
 * decode takes a core and tens of MB, and more than cores only adds memory and latency.
 * Each ZIP renders at most `window` files ahead (zip.ts), spooled to disk, not held in memory.
 */
import os from 'node:os';
import pLimit from 'p-limit';
import { type PrintSizes, printFileName, printInches } from '../../domain/prints.js';
import type { Logger } from '../../lib/logger.js';
import type { Photo } from '../photos/types.js';
import { PRINT_JPEG_QUALITY, renderPrint, renderPrintFile } from './render.js';
import type { PrintSpool } from './spool.js';
import type { PrintFiles, PrintJob, PrintPlan, PrintProblem } from './types.js';
import { streamZip } from './zip.js';

export type PrintServiceDeps = {
  /** By id or number within the event. */
  findPhoto(eventSlug: string, photoNumber: string): Photo | undefined;
  originalPath(photo: Photo): string;
  /** The event's `printSizes` setting (empty when none, or when the event is gone). */
  printSizes(eventSlug: string): Promise<PrintSizes>;
  /** Where a ZIP's files wait for the writer; without one, they wait in memory. */
  spool: PrintSpool | undefined;
  concurrency?: number;
  quality?: number;
  log: Logger;
};

/** Names made unique within one ZIP: a second `A_12_4x6_x1.jpg` becomes `A_12_4x6_x1-2.jpg`. */
function uniqueNames(): (name: string) => string {
  const seen = new Map<string, number>();
  return (name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : name.replace(/\.jpg$/, `-${n}.jpg`);
  };
}

export function createPrintService(deps: PrintServiceDeps): PrintFiles {
  const concurrency = Math.max(1, deps.concurrency ?? os.availableParallelism());
  const quality = deps.quality ?? PRINT_JPEG_QUALITY;
  const limit = pLimit(concurrency);
  const counters = { rendered: 0, failed: 0 };

  /** Counts a render's outcome for `stats()`. */
  async function counted<T>(rendering: Promise<T>): Promise<T> {
    try {
      const result = await rendering;
      counters.rendered++;
      return result;
    } catch (err) {
      counters.failed++;
      throw err;
    }
  }

  const render = (job: PrintJob) =>
    counted(renderPrint(deps.originalPath(job.photo), job.inches, job.line.crop, quality));

  /** A ZIP entry: the job rendered into the spool, taken out of it as a stream (or in memory). */
  async function entry(job: PrintJob) {
    const { spool } = deps;
    if (!spool) return (await render(job)).body;
    const file = spool.newFile();
    try {
      await counted(renderPrintFile(deps.originalPath(job.photo), job.inches, job.line.crop, file, quality));
      return await spool.take(file);
    } catch (err) {
      await spool.remove(file);
      throw err;
    }
  }

  return {
    async plan(lines) {
      const sizesOf = new Map<string, Promise<PrintSizes>>();
      const name = uniqueNames();
      const jobs: PrintJob[] = [];
      const problems: PrintProblem[] = [];
      for (const line of lines) {
        const fileName = name(printFileName(line));
        const photo = deps.findPhoto(line.eventSlug, line.photoNumber);
        if (!photo) {
          problems.push({ line, fileName, reason: `photo #${line.photoNumber} is no longer in the photo library` });
          continue;
        }
        if (!sizesOf.has(line.eventSlug)) sizesOf.set(line.eventSlug, deps.printSizes(line.eventSlug));
        const inches = printInches(line.size, await sizesOf.get(line.eventSlug));
        if (!inches) {
          problems.push({
            line,
            fileName,
            reason: `the print size "${line.size}" has no known dimensions: add it to printSizes in the event's event.json`,
          });
          continue;
        }
        jobs.push({ line, photo, inches, fileName });
      }
      return { jobs, problems };
    },

    render: (job) => limit(() => render(job)),

    zip(plan: PrintPlan) {
      return streamZip(
        {
          count: plan.jobs.length,
          name: (i) => (plan.jobs[i] as PrintJob).fileName,
          // A render still queued when its ZIP is abandoned never starts.
          body: (i, signal) =>
            limit(async () => {
              signal.throwIfAborted();
              return entry(plan.jobs[i] as PrintJob);
            }),
        },
        {
          window: 2 * concurrency,
          known: plan.problems.map((p) => ({ name: p.fileName, reason: p.reason })),
          onFailure: (fileName, err) => deps.log.warn({ err, fileName }, 'a print file could not be rendered'),
        },
      );
    },

    stats: () => ({ rendered: counters.rendered, failed: counters.failed, active: limit.activeCount }),
  };
}
