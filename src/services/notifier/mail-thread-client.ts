/**
 * `threadedDelivery(setup)`: a Deliver that runs in the mail thread (mail-thread.ts), so
 * rendering labels and encoding mail never block the event loop that serves requests.
 *
 * One thread per process, shared by every app instance in it (each request carries its
 * own set-up), started on first use and stopped after IDLE_MS without work. While idle it
 * is unref'd: it never keeps the process alive on its own. If it crashes, the deliveries in flight fail (their
 * jobs are retried like any failed send) and the next delivery starts a new thread.
 */
import { Worker } from 'node:worker_threads';
import type { Deliver } from './delivery.js';
import type { MailThreadReply, MailThreadRequest, MailThreadSetup } from './mail-thread.js';
import type { TransportName } from './transports/transport.js';

const IDLE_MS = 30_000;
/** Longer than the slowest transport chain (SendGrid 15 s, SMTP 30 s) plus rendering. */
const REQUEST_TIMEOUT_MS = 120_000;

type Pending = { resolve: (via: TransportName) => void; reject: (err: Error) => void; timer: NodeJS.Timeout };

/**
 * Starts the thread: `mail-thread.js` once built; when the sources run as `.ts` (tsx,
 * vitest), a one-line bootstrap registers tsx in the thread first.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./mail-thread.js', import.meta.url));
  }
  const entry = new URL('./mail-thread.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { eval: true });
}

class MailThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;

  deliver(setup: MailThreadSetup, draft: MailThreadRequest['draft']): Promise<TransportName> {
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    return new Promise<TransportName>((resolve, reject) => {
      const timer = setTimeout(
        () => this.settle(id, new Error('mail thread did not answer in time')),
        REQUEST_TIMEOUT_MS,
      );
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      const req: MailThreadRequest = { id, setup, draft };
      const w = this.thread();
      // Keeps the process alive while a delivery is under way (e.g. a script awaiting flush()).
      w.ref();
      w.postMessage(req);
    });
  }

  /** Deliveries still waiting for the thread (tests). */
  get inFlight(): number {
    return this.pending.size;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = startWorker();
    w.unref();
    w.on('message', (reply: MailThreadReply) => {
      this.settle(reply.id, reply.ok ? reply.via : new Error(reply.error));
    });
    const gone = (err: Error) => {
      if (this.worker !== w) return;
      this.worker = null;
      for (const id of [...this.pending.keys()]) this.settle(id, err);
    };
    w.on('error', (err) => gone(new Error(`mail thread crashed: ${err.message}`)));
    w.on('exit', (code) => gone(new Error(`mail thread exited (${code})`)));
    this.worker = w;
    return w;
  }

  private settle(id: number, result: TransportName | Error): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (result instanceof Error) p.reject(result);
    else p.resolve(result);
    if (this.pending.size === 0) {
      this.worker?.unref();
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.stop(), IDLE_MS);
      this.idleTimer.unref();
    }
  }

  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    const w = this.worker;
    if (!w || this.pending.size > 0) return;
    this.worker = null;
    await w.terminate();
  }
}

const shared = new MailThread();

export function threadedDelivery(setup: MailThreadSetup): Deliver {
  return (draft) => shared.deliver(setup, draft);
}

/** Stops the shared thread if it is idle (benches and scripts that want a clean exit). */
export function stopMailThread(): Promise<void> {
  return shared.stop();
}
