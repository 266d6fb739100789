/**
 * Retrying Sheets API calls: 429 and 5xx (and answers that never came) are retried with
 * exponential backoff and full jitter, honouring `Retry-After`. Only calls that are safe to
 * repeat go through `withRetry`; appends have their own loop in `order-sheet.ts` that looks
 * the rows up before writing again.
 */

export type RetryPolicy = {
  /** Tries in all, the first included. */
  attempts: number;
  /** First backoff ceiling; doubles each retry. */
  baseMs: number;
  /** Largest backoff. */
  maxMs: number;
};

/** About 8 s of retrying at worst (0.25 + 0.5 + 1 + 2 + 4 s ceilings, jittered). */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseMs: 250, maxMs: 8_000 };

const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

type HttpishError = {
  status?: number;
  code?: string | number;
  config?: unknown;
  response?: { status?: number; headers?: unknown };
};

/** The HTTP status of a gaxios error, if an answer came. */
export function statusOf(err: unknown): number | undefined {
  const e = err as HttpishError | undefined;
  const s = e?.status ?? e?.response?.status;
  return typeof s === 'number' ? s : undefined;
}

/** Worth another try: a quota or server error, or a request that got no answer. */
export function isRetryable(err: unknown): boolean {
  const status = statusOf(err);
  if (status !== undefined) return RETRY_STATUSES.has(status);
  const e = err as HttpishError & { name?: string };
  // gaxios errors carry their request config; no status means the answer never came
  // (reset, refused, timed out). Anything else is a bug or a signing failure: not retried.
  return Boolean(e && (e.config !== undefined || e.name === 'AbortError' || e.name === 'TimeoutError'));
}

/** `Retry-After` in ms, when the server sent one in seconds. */
function retryAfterMs(err: unknown): number | undefined {
  const headers = (err as HttpishError | undefined)?.response?.headers as
    | { get?: (k: string) => string | null }
    | Record<string, string>
    | undefined;
  if (!headers) return undefined;
  const raw =
    typeof (headers as { get?: unknown }).get === 'function'
      ? (headers as { get: (k: string) => string | null }).get('retry-after')
      : (headers as Record<string, string>)['retry-after'];
  const seconds = Number(raw);
  return raw && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** Full jitter: uniformly random up to the exponential ceiling; never less than Retry-After. */
export function backoffMs(
  retry: number,
  policy: RetryPolicy,
  err?: unknown,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** retry);
  const jittered = Math.round(random() * ceiling);
  const after = err === undefined ? undefined : retryAfterMs(err);
  return after === undefined ? jittered : Math.min(Math.max(jittered, after), policy.maxMs * 4);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `op` until it succeeds, fails with something not worth retrying, or the attempts
 * run out; the last error is thrown. `onRetry` sees each error that is retried.
 */
export async function withRetry<T>(
  op: () => Promise<T>,
  policy: RetryPolicy,
  onRetry?: (err: unknown, retry: number, delayMs: number) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (attempt >= policy.attempts || !isRetryable(err)) throw err;
      const delay = backoffMs(attempt - 1, policy, err);
      onRetry?.(err, attempt, delay);
      await sleep(delay);
    }
  }
}
