/** What the outbox worker sends through. Each transport either delivers the message or throws. */
import type { SendMailOptions } from 'nodemailer';
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

/** The message as nodemailer options (SMTP and .eml files): nodemailer encodes every header. */
export function nodemailerOptions(mail: OutgoingMail): SendMailOptions {
  return {
    from: mail.from,
    to: mail.to,
    cc: mail.cc.length > 0 ? mail.cc : undefined,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    attachments: mail.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
    })),
    // Attachments are Buffers; never let message data make nodemailer read a file or URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
