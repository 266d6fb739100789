/**
 * Performance machinery for `npm run bench -- notifier` (mail on adds ≤ 5 ms to order
 * submission's p99): a Deliver that runs in the mail thread, so rendering labels and encoding
 * mail never block the event loop. One thread per process, unref'd while idle; a crash fails
 * the deliveries in flight (retried) and the next delivery starts a new thread.
 * On abort a delivery settles only once the thread has answered, so nothing of it runs
 * afterwards; one that cannot stop within CANCEL_GRACE_MS (a send in progress) is ended by
 * stopping the thread.
 */
import type { Worker } from 'node:worker_threads';
import { CallCancelled, startThread, ThreadCalls } from '../../lib/thread.js';
import type { Deliver } from './delivery.js';
import type { MailThreadReply, MailThreadRequest, MailThreadSetup } from './mail-thread.js';
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

type Thread = { worker: Worker; calls: ThreadCalls<MailThreadRequest, MailThreadReply> };

class MailThread {
  private thread: Thread | null = null;
  private inFlightCount = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  deliver(setup: MailThreadSetup, draft: MailThreadRequest['draft'], signal?: AbortSignal): Promise<TransportName> {
    if (signal?.aborted) return Promise.reject(new DeliveryCancelled('cut off before it started'));
    clearTimeout(this.idleTimer);
    const t = this.current();
    this.inFlightCount++;
    // Keeps the process alive while a delivery is under way (e.g. a script awaiting flush()).
    t.worker.ref();
    let cancelled = false;
    let grace: NodeJS.Timeout | undefined;
    // The call tells the thread to drop or stop the delivery; one that has not answered in
    // CANCEL_GRACE_MS is stopped with the thread, and settles once the thread has exited.
    const onAbort = () => {
      cancelled = true;
      grace = setTimeout(() => {
        if (this.thread === t) this.thread = null;
        void t.worker.terminate();
      }, CANCEL_GRACE_MS);
      grace.unref();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('mail thread did not answer in time')), REQUEST_TIMEOUT_MS);
      timer.unref();
    });
    const answered = t.calls.call({ setup, draft }, { signal }).then((reply) => {
      if (reply.ok) return reply.via;
      throw reply.cancelled ? new DeliveryCancelled(reply.error) : new Error(reply.error);
    });
    return Promise.race([answered, late])
      .catch((err: Error) => {
        if (err instanceof DeliveryCancelled) throw err;
        if (cancelled || err instanceof CallCancelled) throw new DeliveryCancelled(err.message);
        throw err;
      })
      .finally(() => {
        clearTimeout(timer);
        clearTimeout(grace);
        signal?.removeEventListener('abort', onAbort);
        this.settled();
      });
  }

  /** Deliveries still waiting for the thread (tests). */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** The thread, started again if it is not running (never started, idle-stopped, crashed). */
  private current(): Thread {
    if (this.thread && !this.thread.calls.failed) return this.thread;
    const worker = startThread(import.meta.url, 'mail-thread');
    worker.unref();
    this.thread = { worker, calls: new ThreadCalls(worker, 'mail') };
    return this.thread;
  }

  /** Once nothing is under way: the thread no longer holds the process, and stops after IDLE_MS. */
  private settled(): void {
    this.inFlightCount--;
    if (this.inFlightCount > 0) return;
    this.thread?.worker.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.stop(), IDLE_MS);
    this.idleTimer.unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    const t = this.thread;
    if (!t || this.inFlightCount > 0) return;
    this.thread = null;
    await t.worker.terminate();
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
