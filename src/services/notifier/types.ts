/**
 * Mail (docs/contract.md, "Notifications"), decorated as `fastify.notifier`. Messages are queued in the order store's
 * outbox (atomically with the change that causes them, via the store's `mail` option) and
 * sent by a worker: SendGrid, then SMTP, else .eml files. Nothing is dropped.
 */
import type { MailJobInput } from '../store/ports/mail-outbox.js';

export interface Notifier {
  /** Mail jobs for a new order: the receipt, or the confirmation link for a held order. */
  jobsForNewOrder(order: { id: string; held: boolean }, verifyUrl?: string): MailJobInput[];
  /** Wakes the worker after jobs were enqueued (it also polls). */
  kick(): void;
  /** Sends everything due now; resolves when done (tests, shutdown). */
  flush(): Promise<void>;
}
