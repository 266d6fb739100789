/** What the outbox worker sends through. Each transport either delivers the message or throws. */
import type { OutgoingMail } from '../message.js';

export type TransportName = 'sendgrid' | 'smtp' | 'file';

export interface MailTransport {
  readonly name: TransportName;
  /**
   * Delivers, or throws. `signal` (shutdown cutting deliveries off) is honoured before
   * anything is written; a network send already under way runs to its end or its timeout.
   */
  send(mail: OutgoingMail, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}
