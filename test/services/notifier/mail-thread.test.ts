import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { DeliveryCancelled, threadedDelivery } from '../../../src/services/notifier/mail-thread-client.js';
import type { MailDraft } from '../../../src/services/notifier/message.js';
import { tempDir } from '../../helpers/build.js';
import { orderRecord, outgoingMail } from '../../support/mail-fixtures.js';
import { startSmtpServer } from '../../support/mail-smtp-server.js';

function draft(): MailDraft {
  const { attachments: _none, ...rest } = outgoingMail();
  return { ...rest, labelsOf: orderRecord() };
}

test('the mail thread renders the labels and delivers; its failures come back as errors', async (t) => {
  const dir = path.join(await tempDir(t), 'outbox');
  const toFile = threadedDelivery({
    returnAddress: 'Convention Photos\n1 Main St',
    transports: [{ kind: 'file', dir }],
  });
  // Several at once: the thread takes them one after another and answers each.
  const vias = await Promise.all([toFile(draft()), toFile(draft()), toFile(draft())]);
  expect(vias).toEqual(['file', 'file', 'file']);
  expect(await readdir(dir)).toHaveLength(3);

  const smtp = await startSmtpServer(t, { listen: false });
  const down = threadedDelivery({ returnAddress: 'x', transports: [{ kind: 'smtp', url: smtp.url }] });
  await expect(down(draft())).rejects.toThrow(/^smtp: .*ECONNREFUSED/);

  await smtp.start();
  expect(await down(draft())).toBe('smtp');
  const [mail] = await smtp.waitFor(1);
  expect(mail?.parsed.attachments.map((a) => a.filename)).toEqual(['label-AX25-0001.png', 'label-AX25-0001.docx']);
});

test('cut off: queued deliveries are dropped, the one under way stops before writing; each answers first', async (t) => {
  const dir = path.join(await tempDir(t), 'outbox');
  const toFile = threadedDelivery({
    returnAddress: 'Convention Photos\n1 Main St',
    transports: [{ kind: 'file', dir }],
  });
  await expect(toFile(draft(), AbortSignal.abort())).rejects.toBeInstanceOf(DeliveryCancelled);

  const cutOff = new AbortController();
  const results = Promise.allSettled(Array.from({ length: 5 }, () => toFile(draft(), cutOff.signal)));
  cutOff.abort();
  const settled = await results;
  const files = async () => readdir(dir).catch(() => [] as string[]);
  const written = await files();
  // Whatever was delivered answered 'file'; the rest were cut off; nothing is written afterwards.
  expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(written.length);
  for (const r of settled) {
    if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DeliveryCancelled);
  }
  expect(settled.filter((r) => r.status === 'rejected').length).toBeGreaterThanOrEqual(4);
  // The thread still works for everyone else. It takes calls one after another, so once this
  // later one is answered, anything left of the cut-off ones would have run: nothing did, the
  // only new file is the later one's.
  expect(await toFile(draft())).toBe('file');
  const after = await files();
  expect(after).toHaveLength(written.length + 1);
  expect(after).toEqual(expect.arrayContaining(written));
});
