/**
 * The one module that imports nodemailer: a message sent over SMTP, the same message composed
 * as RFC 822 bytes (the `.eml` files), and a mailbox parsed (`"Name <address>"`). nodemailer
 * encodes every header; it is never let to read a file or a URL named in a message.
 */
import type { SendMailOptions } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';

// Loaded on the first message (in the mail thread): the main thread only parses mailboxes, and
// nodemailer's transports take about half a second to import on a busy machine.
const nodemailer = async () => (await import('nodemailer')).default;

export type MailAddress = { name: string; address: string };

/** A message's content, as every transport sends it. */
export type MailContent = {
  from: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
  /** Stable per outbox job, so a message re-sent after a crash carries the same Message-ID. */
  messageId: string;
};

function options(mail: MailContent): SendMailOptions {
  const { from, to, subject, text, html, messageId, attachments } = mail;
  const cc = mail.cc.length > 0 ? mail.cc : undefined;
  // Attachments are Buffers; never let message data make nodemailer read a file or URL.
  return { from, to, cc, subject, text, html, messageId, attachments, disableFileAccess: true, disableUrlAccess: true };
}

/** SMTP (`smtp://` or `smtps://` URL) with bounded timeouts; options in the URL win over these. */
export function smtpSender(url: string, timeoutMs: number) {
  const short = Math.min(timeoutMs, 15_000);
  const transporter = nodemailer().then((n) =>
    n.createTransport({
      url,
      connectionTimeout: short,
      greetingTimeout: short,
      socketTimeout: timeoutMs,
      dnsTimeout: short,
    }),
  );
  return {
    send: async (mail: MailContent): Promise<void> => void (await (await transporter).sendMail(options(mail))),
    close: async () => (await transporter).close(),
  };
}

/** The message as RFC 822 bytes (CRLF line ends), exactly as SMTP would carry it. */
export async function composeRfc822(mail: MailContent): Promise<Buffer> {
  const composer = (await nodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await composer.sendMail(options(mail));
  return info.message as Buffer;
}

/** `"Convention Photos <photos@example.com>"` (MAIL_FROM) → name and address. */
export function parseMailbox(text: string): MailAddress {
  const [first] = addressparser(text, { flatten: true });
  if (!first?.address) throw new Error(`not a mailbox: ${text}`);
  return { name: first.name ?? '', address: first.address };
}
