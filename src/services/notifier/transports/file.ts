/**
 * The embedded default: each message as an RFC 822 `.eml` file in `DATA_DIR/outbox`,
 * composed by the mail adapter (src/adapters/mail.ts), written atomically. The file name is fixed
 * per outbox job, so a message re-sent after a crash replaces its file instead of doubling it.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { composeRfc822 } from '../../../adapters/mail.js';
import type { OutgoingMail } from '../message.js';
import type { MailTransport } from './transport.js';

export { composeRfc822 };

export function emlFileName(mail: OutgoingMail): string {
  const stamp = mail.meta.createdAt.replace(/[-:]/g, '').replace(/\.\d+/, '');
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
  const parts = [stamp, mail.meta.kind, mail.meta.orderNumber ?? 'none', mail.meta.jobId].map(safe);
  return `${parts.join('-')}.eml`;
}

export function fileTransport(dir: string): MailTransport {
  return {
    name: 'file',
    async send(mail: OutgoingMail, signal?: AbortSignal) {
      const bytes = await composeRfc822(mail);
      // Cut off (shutdown): nothing is written, and a half-written temp file is removed, so
      // DATA_DIR is left alone once the cut-off delivery has answered.
      signal?.throwIfAborted();
      await mkdir(dir, { recursive: true });
      const target = path.join(dir, emlFileName(mail));
      const temp = `${target}.${process.pid}.tmp`;
      try {
        await writeFile(temp, bytes, { mode: 0o600, signal });
        signal?.throwIfAborted();
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      await rename(temp, target);
    },
    async close() {},
  };
}
