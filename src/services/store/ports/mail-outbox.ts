/**
 * The mail outbox port (docs/contract.md, "Notifications"): messages waiting to be sent.
 * Jobs are enqueued with the order change that causes them (in its transaction, through
 * the orders port's `mail` option) or alone; the notifier's worker claims and sends them.
 * A job is never dropped: it stays until marked sent.
 */
import { z } from 'zod';

const MailKind = z.enum([
  'receipt',
  'shipped',
  'ready',
  'verification',
  'operator',
  'photos',
  // A photo code's email subscription asks its owner to confirm it (docs/contract.md, "Hardening, round 2").
  'code-confirm',
  'takedown',
]);

/** What to send (e.g. `{ orderId }` in the payload); the notifier renders it at send time. */
export const MailJob = z.object({
  id: z.string().min(1),
  kind: MailKind,
  orderId: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  /** Failed attempts so far: `markFailed` adds one (a claim does not). */
  attempts: z.number().int().min(0),
  /** Not before this time; also the lease end while a worker holds it. */
  nextAttemptAt: z.iso.datetime({ offset: true }),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  sentAt: z.iso.datetime({ offset: true }).nullable(),
  /** Which transport delivered it (sendgrid, smtp, file), or why it was skipped. */
  sentVia: z.string().nullable(),
});
export type MailJob = z.infer<typeof MailJob>;
export type MailJobInput = Pick<MailJob, 'kind' | 'orderId' | 'payload'>;

export interface MailOutboxPort {
  enqueue(jobs: readonly MailJobInput[]): Promise<MailJob[]>;
  /**
   * Jobs due by `now`, leased for `leaseMs` (their nextAttemptAt moves to now + leaseMs), so
   * no other worker (in any process) claims them meanwhile.
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<MailJob[]>;
  markSent(id: string, via: string, at: Date): Promise<void>;
  markFailed(id: string, error: string, nextAttemptAt: Date): Promise<void>;
  /** Unsent jobs (for /readyz and tests). */
  pendingCount(): Promise<number>;
}
