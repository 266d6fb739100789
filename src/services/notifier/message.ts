/**
 * A rendered message, independent of the transport that sends it. Transports translate it
 * (nodemailer options, a SendGrid request); nothing here is MIME yet.
 */
import addressparser from 'nodemailer/lib/addressparser';
import type { OrderRecord } from '../../domain/order.js';

export type MailAddress = { name: string; address: string };

type MailAttachment = { filename: string; contentType: string; content: Buffer };

export type OutgoingMail = {
  from: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
  /** Stable per outbox job, so a message re-sent after a crash carries the same Message-ID. */
  messageId: string;
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

/** `"Convention Photos <photos@example.com>"` (MAIL_FROM) → name and address. */
export function parseMailbox(text: string): MailAddress {
  const [first] = addressparser(text, { flatten: true });
  if (!first?.address) throw new Error(`not a mailbox: ${text}`);
  return { name: first.name ?? '', address: first.address };
}

/** The domain of an address, for Message-IDs. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1) || 'localhost';
}
