/**
 * `threadedDelivery(setup)`: a Deliver that runs in the mail thread (mail-thread.ts), so
 * rendering labels and encoding mail never block the event loop that serves requests.
 *
 * One thread per process, shared by every app instance in it (each request carries its
 * own set-up), started on first use and stopped after IDLE_MS without work. While idle it
 * is unref'd: it never keeps the process alive on its own. If it crashes, the deliveries in flight fail (their
 * jobs are retried like any failed send) and the next delivery starts a new thread.
 *
 * Cutting off (the caller's `signal` aborts, at shutdown): the thread is told to drop the
 * delivery or stop it at its next step, and the promise settles only once the thread has
 * answered, so nothing of that delivery runs afterwards. A delivery that cannot stop in
 * CANCEL_GRACE_MS (a network send in progress) is ended by stopping the thread itself; any
 * other delivery in it then fails like after a crash, and is retried.
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../lib/thread.js';
import type { Deliver } from './delivery.js';
import type { MailThreadCancel, MailThreadReply, MailThreadRequest, MailThreadSetup } from './mail-thread.js';
import type { TransportName } from './transports/transport.js';

const IDLE_MS = 30_000;
/** Longer than the slowest transport chain (SendGrid 15 s, SMTP 30 s) plus rendering. */
const REQUEST_TIMEOUT_MS = 120_000;
/** How long a cut-off delivery may take to stop before the thread is stopped under it. */
export const CANCEL_GRACE_MS = 1_000;

/** A delivery cut off before it was done: nothing was (knowingly) sent, and nothing more of it runs. */
export class DeliveryCancelled extends Error {
  override name = 'DeliveryCancelled';
}

type Pending = {
  resolve: (via: TransportName) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
  /** The thread it was posted to (a stopped thread's exit settles only its own). */
  thread: Worker;
  cancelled: boolean;
  unlisten: () => void;
};

class MailThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;

  deliver(setup: MailThreadSetup, draft: MailThreadRequest['draft'], signal?: AbortSignal): Promise<TransportName> {
    if (signal?.aborted) return Promise.reject(new DeliveryCancelled('cut off before it started'));
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    return new Promise<TransportName>((resolve, reject) => {
      const timer = setTimeout(
        () => this.settle(id, new Error('mail thread did not answer in time')),
        REQUEST_TIMEOUT_MS,
      );
      timer.unref();
      const w = this.thread();
      const onAbort = () => this.cancel(id);
      signal?.addEventListener('abort', onAbort, { once: true });
      const unlisten = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, { resolve, reject, timer, thread: w, cancelled: false, unlisten });
      const req: MailThreadRequest = { type: 'deliver', id, setup, draft };
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
    const w = startThread(import.meta.url, 'mail-thread');
    w.unref();
    w.on('message', (reply: MailThreadReply) => {
      if (reply.ok) this.settle(reply.id, reply.via);
      else this.settle(reply.id, reply.cancelled ? new DeliveryCancelled(reply.error) : new Error(reply.error));
    });
    const gone = (err: Error) => {
      if (this.worker === w) this.worker = null;
      for (const [id, p] of [...this.pending]) if (p.thread === w) this.settle(id, err);
    };
    w.on('error', (err) => gone(new Error(`mail thread crashed: ${err.message}`)));
    w.on('exit', (code) => gone(new Error(`mail thread exited (${code})`)));
    this.worker = w;
    return w;
  }

  /** Asks the thread to drop or stop a delivery; stops the thread if it has not answered in time. */
  private cancel(id: number): void {
    const p = this.pending.get(id);
    if (!p || p.cancelled) return;
    p.cancelled = true;
    const msg: MailThreadCancel = { type: 'cancel', id };
    p.thread.postMessage(msg);
    const timer = setTimeout(() => {
      if (this.pending.get(id) === p) void this.terminate(p.thread);
    }, CANCEL_GRACE_MS);
    timer.unref();
  }

  /** Stops `w`; its deliveries settle when it has exited (nothing of them runs after that). */
  private async terminate(w: Worker): Promise<void> {
    if (this.worker === w) this.worker = null;
    await w.terminate();
  }

  private settle(id: number, result: TransportName | Error): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.unlisten();
    if (!(result instanceof Error)) p.resolve(result);
    else if (p.cancelled && !(result instanceof DeliveryCancelled)) p.reject(new DeliveryCancelled(result.message));
    else p.reject(result);
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
  return (draft, signal) => shared.deliver(setup, draft, signal);
}

/** Stops the shared thread if it is idle (benches and scripts that want a clean exit). */
export function stopMailThread(): Promise<void> {
  return shared.stop();
}
