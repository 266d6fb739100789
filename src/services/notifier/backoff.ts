/**
 * Retry delay for mail that every transport refused: exponential from `baseMs`, doubling per
 * failed attempt, capped at `maxMs`, with "equal jitter" (half fixed, half random) so jobs
 * that failed together do not all come back at the same instant.
 */
export function retryDelayMs(failedAttempts: number, baseMs: number, maxMs: number, random = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(failedAttempts - 1, 40)));
  const half = exp / 2;
  return Math.round(half + random() * half);
}
