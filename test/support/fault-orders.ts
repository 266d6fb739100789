/**
 * Order load for fault tests: `clients` loops, each submitting booth orders (admin
 * credentials: no CAPTCHA, no rate limit) over HTTP, one at a time, and recording exactly
 * what came back. A 201 is an acknowledgement: the test later checks each one is stored.
 * Connection errors (the server was killed) are recorded and the loop tries again shortly
 * (RECONNECT_PAUSE_MS).
 *
 *   const load = orderLoad({ urls: [server.url], clients: 8 });
 *   await load.until((s) => s.acks.length >= 100);
 *   await server.kill('SIGKILL');
 *   const result = await load.stop();
 */
import { ADMIN_TOKEN } from '../helpers/build.js';
import { bodyB } from './orders-fixtures.js';
import { waitUntil } from './wait.js';

/**
 * Pause after a request that got no answer. A restart takes seconds: every client asking
 * again each 50 ms made hundreds of refused connections per restart (about 900 in one
 * restart of sigkill-idempotency on a loaded machine), CPU of the test process for nothing;
 * a fifth of that finds the server back as surely, at most this much later.
 */
const RECONNECT_PAUSE_MS = 250;

export type Ack = { orderNumber: string; id: string; customerName: string; url: string; ms: number; key?: string };
export type Refusal = { status: number; code: string; customerName: string; url: string; ms: number };

type LoadState = {
  acks: Ack[];
  /** Answers other than 201 (with their error code). */
  refusals: Refusal[];
  /** Requests that got no HTTP answer (connection refused or reset). */
  connectionErrors: number;
  /** Answers that were not JSON, or not the expected shape. */
  oddities: string[];
  /** With `idempotent`: every Idempotency-Key sent, with the order's customer name (unique per key). */
  keys: Map<string, string>;
};

export type OrderLoad = {
  readonly state: LoadState;
  /** Resolves when `check` holds; ended by the test's timeout (`timeoutMs` only outside a test). */
  until(check: (s: LoadState) => boolean, timeoutMs?: number): Promise<void>;
  /** Stops the loops (waits for requests in flight) and returns what happened. */
  stop(): Promise<LoadState>;
};

export function orderLoad(opts: {
  urls: string[];
  clients: number;
  /** Extra headers for every request (an Idempotency-Key is added per order when `idempotent`). */
  headers?: Record<string, string>;
  /** Gives each order a fresh Idempotency-Key and retries a refused one with the same key. */
  idempotent?: boolean;
  /** Pause between a client's orders. */
  pauseMs?: number;
  /** Per-request timeout (a request into a killed server may hang until reset). */
  timeoutMs?: number;
}): OrderLoad {
  const state: LoadState = { acks: [], refusals: [], connectionErrors: 0, oddities: [], keys: new Map() };
  let stopping = false;

  async function client(c: number): Promise<void> {
    const url = opts.urls[c % opts.urls.length] as string;
    let retryKey: { key: string; name: string } | undefined;
    for (let i = 0; !stopping; i++) {
      const customerName = retryKey?.name ?? `Client ${c} order ${i}`;
      const key = retryKey?.key ?? `load-${c}-${i}-${Math.random().toString(36).slice(2)}`;
      retryKey = undefined;
      if (opts.idempotent) state.keys.set(key, customerName);
      const started = performance.now();
      let res: Response;
      try {
        res = await fetch(`${url}/api/orders`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${ADMIN_TOKEN}`,
            'content-type': 'application/json',
            ...(opts.idempotent ? { 'idempotency-key': key } : {}),
            ...opts.headers,
          },
          body: JSON.stringify(bodyB({ customerName })),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
        });
      } catch {
        state.connectionErrors++;
        if (opts.idempotent) retryKey = { key, name: customerName };
        await new Promise((r) => setTimeout(r, RECONNECT_PAUSE_MS));
        continue;
      }
      const ms = performance.now() - started;
      const text = await res.text();
      let body: { orderNumber?: string; id?: string; code?: string; customerName?: string } = {};
      try {
        body = JSON.parse(text);
      } catch {
        state.oddities.push(`${res.status} not JSON: ${text.slice(0, 200)}`);
        continue;
      }
      if (res.status === 201 && body.orderNumber && body.id) {
        if (body.customerName !== customerName)
          state.oddities.push(`201 for ${customerName} names ${body.customerName}`);
        state.acks.push({ orderNumber: body.orderNumber, id: body.id, customerName, url, ms, key });
      } else {
        state.refusals.push({ status: res.status, code: body.code ?? '', customerName, url, ms });
        if (opts.idempotent) retryKey = { key, name: customerName };
      }
      if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
    }
  }

  const loops = Promise.all(Array.from({ length: opts.clients }, (_, c) => client(c)));
  return {
    state,
    async until(check, timeoutMs = 30_000) {
      // Ended by the test's own timeout (test/support/wait.ts), not by a shorter deadline.
      await waitUntil(
        () => check(state),
        () =>
          `the load to get there: ${state.acks.length} acks, ${state.refusals.length} refusals, ${state.connectionErrors} connection errors`,
        timeoutMs,
      );
    },
    async stop() {
      stopping = true;
      await loops;
      return state;
    },
  };
}

/** Every order the admin lists hold (all statuses), by order number. */
export async function listAllOrders(url: string): Promise<{ id: string; orderNumber: string; customerName: string }[]> {
  const out: { id: string; orderNumber: string; customerName: string }[] = [];
  for (const list of ['pending', 'completed', 'cancelled']) {
    const res = await fetch(`${url}/api/orders/${list}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    if (res.status !== 200) throw new Error(`GET /api/orders/${list}: ${res.status} ${await res.text()}`);
    out.push(...((await res.json()) as { id: string; orderNumber: string; customerName: string }[]));
  }
  return out;
}

/** The sequence part of an order number (`AX26-0042` → 42). */
export const sequenceOf = (orderNumber: string): number => Number(orderNumber.slice(orderNumber.lastIndexOf('-') + 1));
