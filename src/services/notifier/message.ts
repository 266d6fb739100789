/**
 * A rendered message, independent of the transport that sends it. Transports translate it
 * (nodemailer options, a SendGrid request); nothing here is MIME yet.
 */
import type { MailAddress, MailContent } from '../../adapters/mail.js';
import type { OrderRecord } from '../../domain/order.js';

export type { MailAddress };

export type OutgoingMail = MailContent & {
  /** For file names and logs: which job this is. */
  meta: { jobId: string; kind: string; orderNumber: string | null; createdAt: string };
};

/**
 * A message as the main thread renders it: everything but the attachment bytes. For a
 * receipt, `labelsOf` is the order whose PNG and DOCX labels are attached at delivery
 * (rendering them is the expensive part, done off the main thread), with `returnAddress` on
 * them (the business settings' when the draft was rendered; absent: the delivery's own).
 */
export type MailDraft = Omit<OutgoingMail, 'attachments'> & { labelsOf: OrderRecord | null; returnAddress?: string };

/** The domain of an address, for Message-IDs. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1) || 'localhost';
}
