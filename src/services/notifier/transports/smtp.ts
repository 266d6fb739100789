/** SMTP (`SMTP_URL`, smtp:// or smtps://) through the mail adapter, with bounded timeouts. */
import { smtpSender } from '../../../adapters/mail.js';
import type { OutgoingMail } from '../message.js';
import type { MailTransport } from './transport.js';

export function smtpTransport(url: string, opts: { timeoutMs?: number } = {}): MailTransport {
  const sender = smtpSender(url, opts.timeoutMs ?? 30_000);
  return {
    name: 'smtp',
    async send(mail: OutgoingMail, signal?: AbortSignal) {
      signal?.throwIfAborted();
      await sender.send(mail);
    },
    close: () => sender.close(),
  };
}
