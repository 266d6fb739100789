/**
 * The outbox worker. Mail jobs live in the store (enqueued atomically with their change);
 * the worker claims due jobs with a lease, renders each from the current order, hands it to
 * `deliver` and marks it sent, or failed with backoff. A job is never dropped.
 * Runs are serialised: `kick()` asks for one soon (coalescing), `flush()` for one that starts
 * after the call. Failed jobs are due later, so a run ends.
 * `abort()` (shutdown) cuts off deliveries under way and resolves when nothing of this worker
 * runs, so nothing touches the store or DATA_DIR afterwards. A job cut off stays due at once:
 * it may go out twice; for mail, twice is acceptable and lost is not.
 */
import type { Logger } from '../../lib/logger.js';
import type { MailJob, MailOutboxPort } from '../store/ports/mail-outbox.js';
import { retryDelayMs } from './backoff.js';
import { describeError } from './chain.js';
import type { Deliver } from './delivery.js';
import type { RenderJob } from './render.js';

type OutboxStore = Pick<MailOutboxPort, 'claimDue' | 'markSent' | 'markFailed'>;

export type OutboxWorkerOptions = {
  store: OutboxStore;
  render: RenderJob;
  deliver: Deliver;
  log: Logger;
  retryBaseMs: number;
  retryMaxMs: number;
  /** How often to look for due jobs besides kicks and scheduled retries (default min(5 s, retryBaseMs)). */
  pollIntervalMs?: number;
  /** How long a claimed job is reserved for this worker (default 2 min, longer than any send). */
  leaseMs?: number;
  /** Jobs claimed (one store write) and sent at once (default 8). */
  batchSize?: number;
  now?: () => number;
  random?: () => number;
};

export type SendOutcome = { jobId: string; kind: string; result: 'sent' | 'skipped' | 'failed'; detail: string };

export class OutboxWorker {
  private readonly o: Required<Omit<OutboxWorkerOptions, 'pollIntervalMs'>> & { pollIntervalMs: number };
  private tail: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  private pollTimer: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeAt = Number.POSITIVE_INFINITY;
  private stopped = false;
  private aborted = false;
  /** Aborted by abort(): cuts off the deliveries under way. */
  private readonly cutOff = new AbortController();
  /** Observers of each job's outcome (tests, the bench). */
  private readonly listeners = new Set<(o: SendOutcome) => void>();

  constructor(opts: OutboxWorkerOptions) {
    this.o = {
      leaseMs: 120_000,
      batchSize: 8,
      now: Date.now,
      random: Math.random,
      ...opts,
      pollIntervalMs: opts.pollIntervalMs ?? Math.min(5_000, opts.retryBaseMs),
    };
  }

  /** Starts polling and sends whatever is due (e.g. left over from before a restart). */
  start(): void {
    if (this.stopped || this.pollTimer) return;
    this.pollTimer = setInterval(() => this.kick(), this.o.pollIntervalMs);
    this.pollTimer.unref();
    this.kick();
  }

  /** Stops polling and kicks; `flush()` still works (shutdown flushes after stopping). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.wakeTimer);
    this.pollTimer = undefined;
    this.wakeTimer = undefined;
  }

  /**
   * Stops claiming, cuts off the deliveries under way and resolves once the current run has
   * ended (every job of it marked sent or left queued), or after `waitMs` at the most.
   */
  async abort(waitMs = 5_000): Promise<void> {
    this.stop();
    this.aborted = true;
    this.cutOff.abort();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), waitMs);
    });
    try {
      if ((await Promise.race([this.tail.then(() => 'done' as const), late])) === 'late') {
        this.o.log.warn({ waitMs }, 'mail outbox: a run did not end after being cut off');
      }
    } finally {
      clearTimeout(timer);
    }
  }

  kick(): void {
    if (this.stopped) return;
    this.schedule().catch((err) => this.o.log.error({ err }, 'mail outbox run failed'));
  }

  flush(): Promise<void> {
    return this.schedule();
  }

  onOutcome(listener: (o: SendOutcome) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A run that starts after this call; concurrent requests share the one not yet started. */
  private schedule(): Promise<void> {
    if (this.queued) return this.queued;
    const run = this.tail.then(() => {
      this.queued = null;
      return this.run();
    });
    this.queued = run;
    this.tail = run.catch(() => {});
    return run;
  }

  private async run(): Promise<void> {
    const startedAt = new Date(this.o.now());
    while (!this.aborted) {
      let jobs: MailJob[];
      try {
        jobs = await this.o.store.claimDue(startedAt, this.o.batchSize, this.o.leaseMs);
      } catch (err) {
        // The store is down: the jobs are safe in it; the next poll tries again.
        this.o.log.warn({ err: describeError(err) }, 'mail outbox: cannot claim jobs');
        return;
      }
      if (jobs.length === 0) return;
      await Promise.all(jobs.map((job) => this.process(job)));
    }
  }

  private async process(job: MailJob): Promise<void> {
    const log = this.o.log;
    let outcome: SendOutcome;
    try {
      const rendered = await this.o.render(job);
      if ('skip' in rendered) {
        await this.o.store.markSent(job.id, `skipped: ${rendered.skip}`.slice(0, 200), new Date(this.o.now()));
        log.info({ jobId: job.id, kind: job.kind, orderId: job.orderId, reason: rendered.skip }, 'mail skipped');
        outcome = { jobId: job.id, kind: job.kind, result: 'skipped', detail: rendered.skip };
      } else {
        const via = await this.o.deliver(rendered.draft, this.cutOff.signal);
        try {
          await this.o.store.markSent(job.id, via, new Date(this.o.now()));
        } catch (err) {
          // Delivered but not recorded: the lease runs out and it is sent again (at least once).
          log.error({ jobId: job.id, err: describeError(err) }, 'mail sent but not marked sent');
        }
        log.info(
          {
            jobId: job.id,
            kind: job.kind,
            orderNumber: rendered.draft.meta.orderNumber,
            via,
            attempt: job.attempts + 1,
          },
          'mail sent',
        );
        outcome = { jobId: job.id, kind: job.kind, result: 'sent', detail: via };
      }
    } catch (err) {
      outcome = this.aborted ? await this.leaveQueued(job, err) : await this.retryLater(job, err);
    }
    for (const listener of this.listeners) listener(outcome);
  }

  /** A failed send: retried with backoff (the worker wakes itself for it). */
  private async retryLater(job: MailJob, err: unknown): Promise<SendOutcome> {
    const log = this.o.log;
    const error = describeError(err);
    const next = this.o.now() + retryDelayMs(job.attempts + 1, this.o.retryBaseMs, this.o.retryMaxMs, this.o.random);
    try {
      await this.o.store.markFailed(job.id, error, new Date(next));
    } catch (markErr) {
      // Not recorded: the lease runs out and the job is tried again then.
      log.error({ jobId: job.id, err: describeError(markErr) }, 'mail failed and could not be rescheduled');
    }
    this.scheduleWake(next);
    const level = job.attempts + 1 >= 5 ? 'error' : 'warn';
    log[level](
      {
        jobId: job.id,
        kind: job.kind,
        orderId: job.orderId,
        attempt: job.attempts + 1,
        error,
        retryAt: new Date(next),
      },
      'mail not sent; will retry',
    );
    return { jobId: job.id, kind: job.kind, result: 'failed', detail: error };
  }

  /** A job cut off by shutdown: due again at once, so the next start sends it without waiting for its lease. */
  private async leaveQueued(job: MailJob, err: unknown): Promise<SendOutcome> {
    const detail = `cut off by shutdown: ${describeError(err)}`;
    try {
      await this.o.store.markFailed(job.id, detail, new Date(this.o.now()));
    } catch (markErr) {
      // Not recorded: its lease runs out and it is sent then.
      this.o.log.warn({ jobId: job.id, err: describeError(markErr) }, 'mail cut off; it goes out when its lease ends');
    }
    this.o.log.info({ jobId: job.id, kind: job.kind, orderId: job.orderId }, 'mail cut off by shutdown; left queued');
    return { jobId: job.id, kind: job.kind, result: 'failed', detail };
  }

  /** Wakes the worker when a retry it scheduled comes due (sooner than the next poll). */
  private scheduleWake(at: number): void {
    if (this.stopped || at >= this.wakeAt) return;
    clearTimeout(this.wakeTimer);
    this.wakeAt = at;
    this.wakeTimer = setTimeout(
      () => {
        this.wakeAt = Number.POSITIVE_INFINITY;
        this.kick();
      },
      Math.max(0, at - this.o.now() + 5),
    );
    this.wakeTimer.unref();
  }
}
