/**
 * A thin HTTP/1.1 keep-alive load client for a mixed workload, with latency per route.
 *
 * Why not autocannon: on 2 cores its full response parser tops out near 2,000 req/s on
 * 30 KB bodies (NOTES.md), so it, not the server, would be measured. Why not wrk: it can't
 * report latency per route of a mix (and is not on a fresh machine; when it is, the load
 * bench also runs it for a throughput cross-check). This client frames responses by
 * Content-Length (or chunked encoding) and never looks at body bytes, as the image bench's
 * client does; each connection picks its next request by weight.
 *
 * Closed loop (each connection sends its next request when the previous answer is in),
 * optionally paced to a total rate (the soak).
 */
import net from 'node:net';

export type RouteSpec = {
  name: string;
  /** Share of requests (weights are normalised). */
  weight: number;
  /** Raw requests of this route, one picked at random each time. */
  requests: Buffer[];
  /** The status every answer should have (200; 201 for a created order). */
  expect: number;
};

export type RouteStats = {
  name: string;
  count: number;
  /** Answers with another status than expected, by status. */
  unexpected: Record<number, number>;
  latenciesMs: number[];
  bytes: number;
};

export type LoadRun = {
  durationS: number;
  routes: RouteStats[];
  /** Connection errors, resets and timeouts. */
  socketErrors: number;
  timeouts: number;
};

export type LoadOptions = {
  host?: string;
  port: number;
  connections: number;
  durationS: number;
  routes: RouteSpec[];
  /** Total requests per second across all connections (closed loop at full speed when absent). */
  rate?: number;
  /** A request unanswered for this long counts as a timeout and its connection is replaced. */
  timeoutMs?: number;
  /** Called every second with the requests completed so far (progress). */
  onTick?: (completed: number, elapsedS: number) => void;
};

/** Header lines, each ending in CRLF. */
function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
}

/** `GET path` as raw bytes. */
export function rawGet(host: string, path: string, headers: Record<string, string> = {}): Buffer {
  return Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAccept: */*\r\n${headerLines(headers)}\r\n`, 'latin1');
}

/** `POST path` with a JSON body as raw bytes. */
export function rawPostJson(host: string, path: string, body: unknown, headers: Record<string, string> = {}): Buffer {
  const json = Buffer.from(JSON.stringify(body), 'utf8');
  return Buffer.concat([
    Buffer.from(
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n${headerLines(headers)}\r\n`,
      'latin1',
    ),
    json,
  ]);
}

type Parse =
  | { state: 'head'; head: Buffer | undefined }
  | { state: 'body'; left: number }
  | { state: 'chunk-size'; line: string }
  | { state: 'chunk-data'; left: number }
  | { state: 'chunk-end'; need: number; last: boolean };

export async function runLoad(opts: LoadOptions): Promise<LoadRun> {
  const host = opts.host ?? '127.0.0.1';
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const stats: RouteStats[] = opts.routes.map((r) => ({
    name: r.name,
    count: 0,
    unexpected: {},
    latenciesMs: [],
    bytes: 0,
  }));
  const total = opts.routes.reduce((s, r) => s + r.weight, 0);
  const cumulative: number[] = [];
  let acc = 0;
  for (const r of opts.routes) {
    acc += r.weight / total;
    cumulative.push(acc);
  }
  const pick = (): number => {
    const x = Math.random();
    for (let i = 0; i < cumulative.length; i++) if (x < (cumulative[i] as number)) return i;
    return cumulative.length - 1;
  };

  let socketErrors = 0;
  let timeouts = 0;
  let completed = 0;
  let stopping = false;
  const started = performance.now();
  const endAt = started + opts.durationS * 1000;
  // Pacing: the next free send slot across all connections.
  let nextSlot = started;
  const interval = opts.rate ? 1000 / opts.rate : 0;
  const sockets = new Set<net.Socket>();

  const connection = (): void => {
    if (stopping) return;
    const socket = net.connect(opts.port, host);
    socket.setNoDelay(true);
    sockets.add(socket);
    let route = 0;
    let sentAt = 0;
    let inFlight = false;
    let status = 0;
    let bytes = 0;
    let p: Parse = { state: 'head', head: undefined };
    let timer: NodeJS.Timeout | undefined;
    let dead = false;

    const replace = () => {
      if (dead) return;
      dead = true;
      clearTimeout(timer);
      sockets.delete(socket);
      socket.destroy();
      if (!stopping) setTimeout(connection, 10);
    };

    const send = () => {
      if (stopping || dead) return;
      if (interval > 0) {
        const now = performance.now();
        const slot = Math.max(now, nextSlot);
        nextSlot = slot + interval;
        if (slot > now + 1) {
          setTimeout(sendNow, slot - now);
          return;
        }
      }
      sendNow();
    };

    const sendNow = () => {
      if (stopping || dead) return;
      route = pick();
      const spec = opts.routes[route] as RouteSpec;
      const req = spec.requests[Math.floor(Math.random() * spec.requests.length)] as Buffer;
      p = { state: 'head', head: undefined };
      status = 0;
      bytes = 0;
      inFlight = true;
      sentAt = performance.now();
      timer = setTimeout(() => {
        timeouts++;
        replace();
      }, timeoutMs);
      socket.write(req);
    };

    const done = () => {
      clearTimeout(timer);
      inFlight = false;
      const now = performance.now();
      if (now <= endAt) {
        const s = stats[route] as RouteStats;
        s.count++;
        s.bytes += bytes;
        s.latenciesMs.push(now - sentAt);
        if (status !== (opts.routes[route] as RouteSpec).expect) s.unexpected[status] = (s.unexpected[status] ?? 0) + 1;
        completed++;
      }
      if (now >= endAt) {
        stopping = true;
        return;
      }
      send();
    };

    socket.on('connect', send);
    socket.on('data', (chunk: Buffer) => {
      let buf = chunk;
      bytes += chunk.length;
      while (buf.length > 0 && inFlight) {
        switch (p.state) {
          case 'head': {
            const data: Buffer = p.head ? Buffer.concat([p.head, buf]) : buf;
            const end = data.indexOf('\r\n\r\n');
            if (end < 0) {
              p = { state: 'head', head: Buffer.from(data) };
              return;
            }
            const text = data.toString('latin1', 0, end);
            status = Number(text.slice(9, 12));
            buf = data.subarray(end + 4);
            const length = /\r\ncontent-length:\s*(\d+)/i.exec(text)?.[1];
            if (length !== undefined) {
              p = { state: 'body', left: Number(length) };
              if (p.left === 0) done();
            } else if (/\r\ntransfer-encoding:\s*chunked/i.test(text)) {
              p = { state: 'chunk-size', line: '' };
            } else {
              done(); // no body (e.g. 204/304)
            }
            break;
          }
          case 'body': {
            const n = Math.min(p.left, buf.length);
            p.left -= n;
            buf = buf.subarray(n);
            if (p.left === 0) done();
            break;
          }
          case 'chunk-size': {
            const nl = buf.indexOf('\n');
            if (nl < 0) {
              p.line += buf.toString('latin1');
              return;
            }
            const size = Number.parseInt((p.line + buf.toString('latin1', 0, nl)).trim(), 16);
            buf = buf.subarray(nl + 1);
            p = size === 0 ? { state: 'chunk-end', need: 2, last: true } : { state: 'chunk-data', left: size };
            break;
          }
          case 'chunk-data': {
            const n = Math.min(p.left, buf.length);
            p.left -= n;
            buf = buf.subarray(n);
            if (p.left === 0) p = { state: 'chunk-end', need: 2, last: false };
            break;
          }
          case 'chunk-end': {
            const n = Math.min(p.need, buf.length);
            p.need -= n;
            buf = buf.subarray(n);
            if (p.need === 0) {
              if (p.last) done();
              else p = { state: 'chunk-size', line: '' };
            }
            break;
          }
        }
      }
    });
    socket.on('error', () => {
      socketErrors++;
      replace();
    });
    socket.on('close', () => {
      if (!dead && inFlight && !stopping) socketErrors++;
      replace();
    });
  };

  for (let i = 0; i < opts.connections; i++) connection();
  const ticker = opts.onTick
    ? setInterval(() => opts.onTick?.(completed, (performance.now() - started) / 1000), 1000)
    : undefined;
  await new Promise((r) => setTimeout(r, Math.max(0, endAt - performance.now())));
  stopping = true;
  clearInterval(ticker);
  // Answers due after the end are not counted; give the ones in flight a moment, then close.
  await new Promise((r) => setTimeout(r, 200));
  for (const s of sockets) s.destroy();
  return { durationS: opts.durationS, routes: stats, socketErrors, timeouts };
}

export function percentileOf(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
