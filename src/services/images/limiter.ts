/**
 * The render queue: at most `concurrency` renders at once (a 24 MP decode takes a core and
 * tens of MB; more renders than cores only adds memory and latency, and starves the libuv
 * pool file reads share). Lane `now` gives up with 503 BUSY after `timeoutMs`, so an
 * overloaded server answers instead of holding connections (docs/contract.md, "Finding one's
 * photos, and intake"); lane `background` starts only while no visitor's render waits.
 * Built on p-limit, the codebase's one limiter.
 */
import { setTimeout as delay } from 'node:timers/promises';
import pLimit from 'p-limit';
import { appError } from '../../errors/catalogue.js';

export type RenderQueue = {
  now<T>(task: () => Promise<T>): Promise<T>;
  background<T>(task: () => Promise<T>): Promise<T>;
  /** Renders running, and visitors' renders waiting. */
  readonly activeCount: number;
  readonly pendingCount: number;
};

/** How long a background render waits before it looks again whether visitors' renders are waiting. */
const BACKGROUND_POLL_MS = 10;
/** Seconds a client is told to wait after 503 BUSY. */
const BUSY_RETRY_AFTER_S = 5;

export function renderQueue(concurrency: number, opts: { timeoutMs?: number } = {}): RenderQueue {
  const limit = pLimit(concurrency);
  const backgroundLimit = pLimit(concurrency);
  const timeoutMs = opts.timeoutMs ?? 0;

  function now<T>(task: () => Promise<T>): Promise<T> {
    if (timeoutMs <= 0) return limit(task);
    return new Promise<T>((resolve, reject) => {
      let gaveUp = false;
      const timer = setTimeout(() => {
        gaveUp = true;
        reject(
          appError('BUSY', {
            details: `no render could start within ${timeoutMs} ms`,
            headers: { 'Retry-After': String(BUSY_RETRY_AFTER_S) },
          }),
        );
      }, timeoutMs);
      timer.unref();
      void limit(async () => {
        if (gaveUp) return; // its slot passes on at once
        clearTimeout(timer);
        try {
          resolve(await task());
        } catch (err) {
          reject(err);
        }
      });
    });
  }

  function background<T>(task: () => Promise<T>): Promise<T> {
    return backgroundLimit(async () => {
      while (limit.pendingCount > 0 || limit.activeCount >= concurrency) await delay(BACKGROUND_POLL_MS);
      return limit(task);
    });
  }

  return {
    now,
    background,
    get activeCount() {
      return limit.activeCount;
    },
    get pendingCount() {
      return limit.pendingCount;
    },
  };
}
