/** SMTP through nodemailer (`SMTP_URL`, smtp:// or smtps://), with bounded timeouts. */
import nodemailer from 'nodemailer';
import type { OutgoingMail } from '../message.js';
import { type MailTransport, nodemailerOptions } from './transport.js';

export function smtpTransport(url: string, opts: { timeoutMs?: number } = {}): MailTransport {
  const timeout = opts.timeoutMs ?? 30_000;
  // Options in the URL (?connectionTimeout=...) win over these defaults.
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: Math.min(timeout, 15_000),
    greetingTimeout: Math.min(timeout, 15_000),
    socketTimeout: timeout,
    dnsTimeout: Math.min(timeout, 15_000),
  });
  return {
    name: 'smtp',
    async send(mail: OutgoingMail, signal?: AbortSignal) {
      signal?.throwIfAborted();
      await transporter.sendMail(nodemailerOptions(mail));
    },
    async close() {
      transporter.close();
    },
  };
}
