/**
 * Reads the files of session folders for the scanner: one readdir each, then every image is
 * stat'ed and, when new or changed and settled (intake-gate.ts), its header read: by the
 * event loop in short synchronous slices (or through the thread pool on slow storage) and,
 * in a big scan, by header threads taking chunks from the other end (header-reader.ts).
 * Unchanged files keep their record (from memory, or the photo catalogue's row: photo-index.ts).
 */
import fs, { type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { promisify } from 'node:util';
import type pLimit from 'p-limit';
import type { Logger } from '../../lib/logger.js';
import type { PhotoFacts } from '../store/ports/photo-catalogue.js';
import { currentSidecar, currentSidecarNow, knownSidecar, readFileVersion, type SidecarRef } from './file-version.js';
import { HEADER_CHUNK_BYTES } from './header.js';
import { type HeaderResult, HeaderThread } from './header-reader.js';
import type { IntakeGate } from './intake-gate.js';
import { findSidecar, isSidecarName, type ReadMetadata } from './metadata.js';
import { isImageFileName, relativeKey } from './naming.js';
import { type Entry, type EventState, entryFromRow, type SessionFiles, sameVersion } from './photo-index.js';

const statAsync = promisify(fs.stat);

/** How long a scan reads files synchronously before it lets the event loop run. */
export const SCAN_SLICE_MS = 2;
/**
 * Slow storage: a slice averaging more than this per file sends the rest of the scan through
 * the thread pool (a page-cached file takes under 0.1 ms; one GC pause doesn't reach this).
 */
const SLOW_AVERAGE_MS = 0.5;
/** Slow slices in a row that make a scan go through the thread pool. */
const SLOW_SLICES = 3;
const WARM_UP_FILES = 200;
/** Files per message to a header thread: big enough that a hand-off costs little per file. */
const THREAD_CHUNK_FILES = 256;

export type ReaderContext = {
  photosDir: string;
  log: Logger;
  gate: IntakeGate;
  ioLimit: ReturnType<typeof pLimit>;
  buffers: Buffer[];
  workers: number;
  scanSliceMs: number;
  headerThreads: number;
  threadMinFiles: number;
  /** Read the photographer's metadata (metadata.ts) with each header, and sidecars beside the files. */
  readMetadata: boolean;
  isClosed(): boolean;
  /** A file that is not settled yet: its session is to be read again at `retryAt`. */
  onPending(st: EventState, day: string, session: string, retryAt: number): void;
};

export type SessionJob = {
  day: string;
  session: string;
  prev: SessionFiles | undefined;
  files: SessionFiles;
  changed: boolean;
};
/** A file to look at (in `dir`), with what the index knew of it (looked up once, when listed). */
type ScanTask = {
  job: SessionJob;
  dir: string;
  name: string;
  known: Entry | undefined;
  sidecar: SidecarRef | undefined;
};

/** Re-reads the given session folders (the module's opening says how). */
export async function readSessionFiles(ctx: ReaderContext, st: EventState, jobs: SessionJob[]): Promise<void> {
  const { photosDir, log, gate, buffers, workers, scanSliceMs, headerThreads, threadMinFiles, readMetadata } = ctx;
  const closed = () => ctx.isClosed();
  const tasks: ScanTask[] = [];
  /** Files the index has no record of: only their headers must be read. */
  let unknown = 0;
  await Promise.all(
    jobs.map(async (job) => {
      const dir = path.join(photosDir, st.code, job.day, job.session);
      let dirents: Dirent[];
      try {
        dirents = await ctx.ioLimit(() => readdir(dir, { withFileTypes: true }));
      } catch (err) {
        log.warn({ err, dir }, 'cannot read a session folder');
        if (job.prev) for (const [name, rec] of job.prev) job.files.set(name, rec);
        return;
      }
      /** The folder's XMP sidecars: lower-cased name → name. */
      const sidecars = new Map<string, string>();
      if (readMetadata) {
        for (const d of dirents) if (isSidecarName(d.name)) sidecars.set(d.name.toLowerCase(), d.name);
      }
      for (const d of dirents) {
        if (!(d.isFile() || d.isSymbolicLink()) || !isImageFileName(d.name)) continue;
        let known = job.prev?.get(d.name);
        if (!known) {
          const row = st.rows.get(relativeKey(job.day, job.session, d.name));
          if (row?.facts) known = entryFromRow(row, row.facts);
          else unknown++;
        }
        const sidecarName = findSidecar(d.name, sidecars);
        tasks.push({ job, dir, name: d.name, known, sidecar: sidecarName ? { dir, name: sidecarName } : undefined });
      }
    }),
  );
  // `dir` is joined already and a listed name holds no separator: what path.join would give, without its cost per file.
  const fileOf = ({ dir, name }: ScanTask) => dir + path.sep + name;
  /** Unchanged since the index saw it: the record stays, no header read. */
  const keep = ({ job, name }: ScanTask, known: Entry) => {
    job.files.set(name, known);
    if (!job.prev?.has(name)) {
      job.changed = true;
      // Back in the folder: the record learns it is there again.
      if (!known.row?.present) known.sighted = true;
    }
  };
  const stored = (task: ScanTask, facts: PhotoFacts, meta: ReadMetadata | undefined) => {
    const entry: Entry = { facts, sighted: true };
    if (meta) entry.meta = meta;
    const row = st.rows.get(relativeKey(task.job.day, task.job.session, task.name));
    if (row) {
      entry.row = row;
      // Inspected already (by another process) in this very version.
      if (row.inspected && row.facts && sameVersion(row.facts, facts)) entry.code = row.photoCode;
    }
    task.job.files.set(task.name, entry);
    gate.clear(fileOf(task));
  };
  /** Not settled yet: left out of this scan, and its session read again when it may have settled. */
  const unsettled = (task: ScanTask, size: number, mtimeMs: number): boolean => {
    const verdict = gate.settled(fileOf(task), size, mtimeMs);
    if (verdict.ok) return false;
    ctx.onPending(st, task.job.day, task.job.session, verdict.retryAt);
    return true;
  };
  /**
   * A read that failed. A file whose size and time are still what its record says was read
   * only for its metadata (rows from before the photographer's metadata, or a changed sidecar):
   * its recorded facts stand, as an upgrade's imported ones do, and it stays listed.
   */
  const failed = (task: ScanTask, size: number, mtimeMs: number, reason: string) => {
    const { known } = task;
    if (known && known.facts.size === size && known.facts.mtimeMs === mtimeMs) keep(task, known);
    else unreadable(task, size, mtimeMs, reason);
  };
  const unreadable = (task: ScanTask, size: number, mtimeMs: number, reason: string) => {
    const file = fileOf(task);
    const entry = {
      event: st.code,
      path: relativeKey(task.job.day, task.job.session, task.name),
      reason,
      size,
      mtimeMs,
      since: new Date().toISOString(),
    };
    // Once per version of the file, one line without a stack: it is not the server's fault.
    if (gate.broken(file, entry)) log.warn({ file, reason }, 'skipping an image that cannot be read');
  };
  const changedFile = ({ job }: ScanTask) => {
    job.changed = true;
    st.unsaved = true;
  };

  /** `stat`: the file's stat when the caller has it (the synchronous slices below). */
  const scanFile = async (task: ScanTask, buffer: Buffer, blocking: boolean, stat?: fs.Stats) => {
    const file = fileOf(task);
    let s: fs.Stats;
    if (stat) s = stat;
    else {
      try {
        s = blocking ? fs.statSync(file) : await statAsync(file);
      } catch {
        return; // removed between readdir and stat
      }
    }
    if (!s.isFile()) return;
    const { known } = task;
    if (
      known &&
      sameVersion(known.facts, s) &&
      // Its metadata read, with the sidecar as it is now (a new rating in Lightroom touches only that).
      (!readMetadata || knownSidecar(known) === (await currentSidecar(task.sidecar, blocking)))
    ) {
      return keep(task, known);
    }
    changedFile(task);
    if (unsettled(task, s.size, s.mtimeMs)) return;
    try {
      const version = await readFileVersion(file, buffer, s.size, blocking, readMetadata, task.sidecar);
      const { width, height, takenAtMs, meta } = version;
      stored(task, { size: s.size, mtimeMs: s.mtimeMs, width, height, takenAtMs }, meta);
    } catch (err) {
      // A settled file cut off for good (an interrupted copy) is as broken as a corrupt one.
      failed(task, s.size, s.mtimeMs, (err as Error).message);
    }
  };

  // The event loop takes files from the front of `tasks`, the header thread (when there is
  // one) chunks from the back; they meet somewhere in between.
  let next = 0;
  let end = tasks.length;

  // Files with no record need their header read; a rescan of known files only stats them,
  // which a thread doesn't speed up enough to be worth starting.
  const threadCount = unknown >= threadMinFiles ? headerThreads : 0;
  const threads: HeaderThread[] = [];
  for (let i = 0; i < threadCount; i++) {
    try {
      threads.push(HeaderThread.start());
    } catch (err) {
      log.warn({ err }, 'cannot start a header thread; the scan runs on the event loop alone');
      break;
    }
  }
  /** Hands chunks to a thread until none is left; two feeders per thread keep it busy while results travel. */
  const feed = async (thread: HeaderThread) => {
    let fallback: Buffer | undefined;
    while (next < end && !closed()) {
      const from = Math.max(next, end - THREAD_CHUNK_FILES);
      const chunk = tasks.slice(from, end);
      end = from;
      let results: HeaderResult[];
      try {
        results = await thread.read(
          chunk.map((task) => ({
            file: fileOf(task),
            knownSize: task.known?.facts.size ?? -1,
            knownMtimeMs: task.known?.facts.mtimeMs ?? -1,
            withMetadata: readMetadata,
            ...(task.sidecar ? { sidecar: task.sidecar } : {}),
            knownSidecar: knownSidecar(task.known),
          })),
        );
      } catch (err) {
        // The thread died (or the scan is closing): this chunk is read here, the rest of
        // the scan by the event loop.
        if (!closed()) log.warn({ err }, 'the header thread failed; the scan goes on without it');
        fallback ??= Buffer.allocUnsafe(HEADER_CHUNK_BYTES);
        for (const task of chunk) if (!closed()) await scanFile(task, fallback, false);
        return;
      }
      for (const [i, task] of chunk.entries()) {
        const r = results[i];
        if (!r) {
          // Not answered (can't happen with header-thread.ts): read here rather than lose it.
          fallback ??= Buffer.allocUnsafe(HEADER_CHUNK_BYTES);
          await scanFile(task, fallback, false);
          continue;
        }
        if (r.kind === 'gone') continue;
        if (r.kind === 'same') {
          keep(task, task.known as Entry);
          continue;
        }
        changedFile(task);
        if (unsettled(task, r.size, r.mtimeMs)) continue;
        if (r.kind === 'read') {
          const { size, mtimeMs, width, height, takenAtMs } = r;
          stored(task, { size, mtimeMs, width, height, takenAtMs }, r.meta);
        } else {
          failed(task, r.size, r.mtimeMs, r.error);
        }
      }
    }
  };
  const helpers = threads
    .flatMap((t) => [feed(t), feed(t)])
    .map((p) =>
      p.catch((err: unknown) => log.error({ err }, 'a header thread feeder failed; the scan goes on without it')),
    );

  try {
    // Synchronous calls first, a slice at a time between yields: through the thread pool each
    // stat/open/read/close costs a hand-off several times dearer than the call. On slow storage
    // that would stall the loop, so from there on the rest goes through the pool, many at a time.
    let sliceStart = performance.now();
    let inSlice = 0;
    let longest = 0;
    let slowSlices = 0;
    const own = buffers[0] as Buffer;
    while (next < end && scanSliceMs > 0) {
      if (closed()) return; // shutting down: leave the rest
      const fileStart = performance.now();
      const task = tasks[next++] as ScanTask;
      // An unchanged file (every file of a restart) is kept here, without a promise per file.
      let s: fs.Stats | undefined;
      try {
        s = fs.statSync(fileOf(task));
      } catch {
        // removed between readdir and stat
      }
      const unchanged =
        s?.isFile() &&
        task.known &&
        sameVersion(task.known.facts, s) &&
        (!readMetadata || knownSidecar(task.known) === currentSidecarNow(task.sidecar));
      if (unchanged) keep(task, task.known as Entry);
      else if (s) await scanFile(task, own, true, s);
      inSlice++;
      const now = performance.now();
      longest = Math.max(longest, now - fileStart);
      if (now - sliceStart >= scanSliceMs) {
        // Judged after the first files (parsers warming up are slow too), without the
        // slice's slowest file (a garbage collection lands in one file and would make a
        // slice of fast files look slow), on SLOW_SLICES slow slices in a row.
        const typical = inSlice > 1 ? (now - sliceStart - longest) / (inSlice - 1) : now - sliceStart;
        const slow = next > WARM_UP_FILES && typical > SLOW_AVERAGE_MS;
        slowSlices = slow ? slowSlices + 1 : 0;
        if (slowSlices >= SLOW_SLICES) break;
        await yieldToLoop();
        sliceStart = performance.now();
        inSlice = 0;
        longest = 0;
      }
    }
    if (next < end && scanSliceMs > 0) {
      log.debug(
        { event: st.code, read: next, left: end - next },
        'slow storage: reading the rest of the scan through the thread pool',
      );
    }
    await Promise.all(
      Array.from({ length: Math.max(0, Math.min(workers, end - next)) }, async (_, w) => {
        while (next < end && !closed()) await scanFile(tasks[next++] as ScanTask, buffers[w] as Buffer, false);
      }),
    );
    await Promise.all(helpers);
  } finally {
    // Stopped first: a closing scan doesn't wait for chunks in flight (their reads are
    // refused, and the feeders skip them once closed).
    if (closed()) await Promise.all(threads.map((t) => t.stop()));
    await Promise.all(helpers);
    if (!closed()) await Promise.all(threads.map((t) => t.stop()));
  }
  if (closed()) return;
  for (const job of jobs) {
    if (!job.prev) continue;
    for (const name of job.prev.keys()) {
      if (!job.files.has(name)) {
        job.changed = true;
        st.unsaved = true;
        st.gone.add(relativeKey(job.day, job.session, name));
        gate.clear(path.join(photosDir, st.code, job.day, job.session, name));
      }
    }
  }
}
