/**
 * The inspection of new photos, beside the scans (library.ts composes it): each settled photo
 * goes once to the inspector (the intake plugin: its photo code and thumbnails). Meanwhile a
 * photo that arrived with the server running is `held`, never listed (a code frame must never
 * show); one that can't be decoded stays held, reported as broken. Inspected photos go back
 * in batches, at most every INSPECTED_COMMIT_MS, to be numbered and published.
 */
import path from 'node:path';
import type { Logger } from '../../lib/logger.js';
import type { SessionJob } from './file-reader.js';
import type { IntakeGate } from './intake-gate.js';
import { photoId, photoVersion, relativeKey } from './naming.js';
import type { Entry, EventState } from './photo-index.js';

/** What an inspector is given: the original, and the identity its renders are cached under. */
export type InspectTarget = { file: string; eventCode: string; id: string; version: string };
/** Looks at one new photo: the photo code it shows (null for none). Rejects when it cannot be decoded. */
export type Inspector = (target: InspectTarget) => Promise<{ code: string | null }>;

/** Inspected photos are published in batches, at most this often. */
const INSPECTED_COMMIT_MS = 150;

export type InspectionOptions = {
  photosDir: string;
  log: Logger;
  gate: IntakeGate;
  isClosed: () => boolean;
  /**
   * Commits and publishes the events whose photos were inspected, as `take()` gives them
   * when the commit runs (serialised with the scans).
   */
  commitInspected: (take: () => readonly EventState[]) => Promise<void>;
};

export class Inspection {
  private inspector: Inspector | undefined;
  /** Inspections under way. */
  private running = 0;
  private readonly touched = new Set<EventState>();
  private commitTimer: NodeJS.Timeout | undefined;
  /** Batches handed to `commitInspected` and not committed yet. */
  private committing = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly opts: InspectionOptions) {}

  get inspecting(): number {
    return this.running;
  }

  setInspector(inspector: Inspector): void {
    this.inspector = inspector;
  }

  /**
   * Photos of these sessions without an inspection yet go to the inspector; `hold` (for all,
   * or per file) keeps them unlisted meanwhile.
   */
  inspectNew(st: EventState, jobs: Iterable<SessionJob>, hold: boolean | ((file: string) => boolean)): void {
    if (!this.inspector) return;
    for (const job of jobs) {
      for (const [name, rec] of job.files) {
        if (rec.code !== undefined || rec.inspecting) continue;
        rec.inspecting = true;
        rec.held =
          typeof hold === 'boolean' ? hold : hold(path.join(this.opts.photosDir, st.code, job.day, job.session, name));
        this.inspect(st, job.day, job.session, name, rec);
      }
    }
  }

  /** Resolves once every inspection under way has finished and its photos are published. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops the batching timer and releases whoever waits for `idle()`. */
  close(): void {
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    this.releaseIdle();
  }

  private isIdle(): boolean {
    return this.running === 0 && this.touched.size === 0 && !this.commitTimer && this.committing === 0;
  }

  private releaseIdle(): void {
    const waiting = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiting) resolve();
  }

  private inspect(st: EventState, day: string, session: string, name: string, rec: Entry): void {
    const run = this.inspector;
    if (!run) return;
    const { photosDir, log, gate, isClosed } = this.opts;
    const rel = relativeKey(day, session, name);
    const file = path.join(photosDir, st.code, day, session, name);
    this.running++;
    run({
      file,
      eventCode: st.code,
      id: photoId(st.code, rel),
      version: photoVersion(rec.facts.size, rec.facts.mtimeMs),
    })
      .then(
        ({ code }) => {
          rec.code = code;
          rec.held = false;
        },
        (err: unknown) => {
          if (isClosed()) return;
          // Decodes no further than its header: broken, held back, reported.
          rec.held = true;
          const entry = {
            event: st.code,
            path: rel,
            reason: (err as Error).message,
            size: rec.facts.size,
            mtimeMs: rec.facts.mtimeMs,
            since: new Date().toISOString(),
          };
          if (gate.broken(file, entry))
            log.warn({ file, reason: entry.reason }, 'skipping an image that cannot be decoded');
        },
      )
      .finally(() => {
        rec.inspecting = false;
        this.running--;
        st.unsaved = true;
        this.touched.add(st);
        if (!this.commitTimer && !isClosed()) {
          this.commitTimer = setTimeout(() => this.flush(), this.running === 0 ? 0 : INSPECTED_COMMIT_MS);
          this.commitTimer.unref();
        }
      });
  }

  private flush(): void {
    this.commitTimer = undefined;
    if (this.opts.isClosed()) return;
    // The events are taken when the commit runs (after a scan under way), so that what was
    // inspected meanwhile is published in the same batch.
    const take = () => {
      const list = [...this.touched];
      this.touched.clear();
      return list;
    };
    this.committing++;
    void this.opts.commitInspected(take).then(() => {
      this.committing--;
      if (this.isIdle()) this.releaseIdle();
    });
  }
}
