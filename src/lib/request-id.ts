/**
 * Request ids (echoed as `X-Request-Id`, bound to every log line of the request): a random
 * prefix drawn once per process and a counter. Unique across instances and restarts (the
 * prefix), sortable within a process (the counter), and about a tenth of the cost of a
 * UUID per request, which the gallery's hot path pays on every page.
 */
import { randomBytes } from 'node:crypto';

export function requestIdGenerator(): () => string {
  const prefix = randomBytes(6).toString('base64url');
  let n = 0;
  return () => `${prefix}-${(++n).toString(36)}`;
}
