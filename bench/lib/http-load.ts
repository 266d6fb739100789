/**
 * HTTP load with autocannon (worker threads, so the client is not the bottleneck on
 * 30 KB bodies), or with `wrk` when it is installed and WRK=1.
 */
import autocannon from 'autocannon';

export type LoadResult = { rps: number; p50: number; p99: number; errors: number; non2xx: number; bytesPerSec: number };

export async function load(opts: {
  url: string;
  connections?: number;
  durationS?: number;
  workers?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** One request per entry, cycled (e.g. different photo pages). */
  requests?: { path: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> }[];
}): Promise<LoadResult> {
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 50,
    duration: opts.durationS ?? 10,
    workers: opts.workers,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    requests: opts.requests,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    bytesPerSec: result.throughput.average,
  };
}
