import pino from 'pino';
import type { TestContext } from 'vitest';
import { describe, expect, test } from 'vitest';
import { createDelivery } from '../../../src/services/notifier/delivery.js';
import { receiptJob } from '../../../src/services/notifier/jobs.js';
import { createRenderer } from '../../../src/services/notifier/render.js';
import { sendgridTransport } from '../../../src/services/notifier/transports/sendgrid.js';
import { smtpTransport } from '../../../src/services/notifier/transports/smtp.js';
import type { MailTransport } from '../../../src/services/notifier/transports/transport.js';
import { OutboxWorker, type SendOutcome } from '../../../src/services/notifier/worker.js';
import type { Store } from '../../../src/services/store/store.js';
import { realLabels, sqliteStore } from '../../support/mail-env.js';
import { startSendgridStub } from '../../support/mail-sendgrid-stub.js';
import { startSmtpServer } from '../../support/mail-smtp-server.js';
import { newOrder } from '../../support/store-fixtures.js';
import { waitUntil as until } from '../../support/wait.js';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function worker(
  t: TestContext,
  store: Store,
  transports: MailTransport[],
  over: { retryBaseMs?: number; retryMaxMs?: number } = {},
) {
  const w = new OutboxWorker({
    store: store.outbox,
    render: createRenderer({
      getOrder: (ref) => store.orders.get(ref),
      business: async () => ({
        businessName: 'Convention Photos',
        mailFrom: 'Convention Photos <photos@example.com>',
        publicBaseUrl: 'https://photos.example.com',
        paymentInstructions: 'Pay at the booth.',
        returnAddress: 'Convention Photos\n1 Main St\nSpringfield, IL 62701',
      }),
      operatorEmail: 'booth@example.com',
    }),
    // Inline here (the plugin runs the same delivery in the mail thread: see plugin.test.ts).
    deliver: createDelivery(realLabels(), transports),
    log: pino({ level: 'silent' }),
    retryBaseMs: over.retryBaseMs ?? 100,
    retryMaxMs: over.retryMaxMs ?? 1000,
  });
  const outcomes: SendOutcome[] = [];
  w.onOutcome((o) => outcomes.push(o));
  t.onTestFinished(() => w.abort());
  return { w, outcomes };
}

describe('outbox worker', () => {
  test('receipt received over SMTP with both labels, the job marked sent', async (t) => {
    const store = await sqliteStore(t);
    const smtp = await startSmtpServer(t);
    const { w, outcomes } = worker(t, store, [smtpTransport(smtp.url)]);
    const order = await store.orders.create(newOrder(), { by: 'customer', mail: [receiptJob('')] });
    expect(await store.outbox.pendingCount()).toBe(1);

    await w.flush();
    expect(outcomes).toEqual([expect.objectContaining({ kind: 'receipt', result: 'sent', detail: 'smtp' })]);
    expect(await store.outbox.pendingCount()).toBe(0);
    const [mail] = await smtp.waitFor(1);
    expect(mail?.envelope.to.sort()).toEqual(['ada@example.com', 'booth@example.com']);
    expect(mail?.parsed.subject).toBe(`Your order ${order.orderNumber}: receipt`);
    expect(mail?.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`label-${order.orderNumber}.png`, 'image/png'],
      [`label-${order.orderNumber}.docx`, DOCX_TYPE],
    ]);
    const [png, docx] = mail!.parsed.attachments;
    expect(png!.content.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(png!.size).toBeGreaterThan(1000);
    expect(docx!.content.subarray(0, 4).toString('binary')).toBe('PK\u0003\u0004');
    expect(docx!.content.includes(Buffer.from('word/document.xml'))).toBe(true);
  });

  test('kick() sends without anyone waiting', async (t) => {
    const store = await sqliteStore(t);
    const smtp = await startSmtpServer(t);
    const { w } = worker(t, store, [smtpTransport(smtp.url)], { retryBaseMs: 60_000 });
    await store.orders.create(newOrder(), { by: 'customer', mail: [receiptJob('')] });
    w.kick();
    await smtp.waitFor(1);
    await until(async () => (await store.outbox.pendingCount()) === 0);
  });

  test('SendGrid failing: SMTP delivers, and the job records smtp', async (t) => {
    const store = await sqliteStore(t);
    const stub = await startSendgridStub(t);
    stub.respond([500]);
    const smtp = await startSmtpServer(t);
    const { w, outcomes } = worker(t, store, [
      sendgridTransport('SG.k', { baseUrl: stub.url }),
      smtpTransport(smtp.url),
    ]);
    await store.orders.create(newOrder(), { by: 'customer', mail: [receiptJob('')] });
    await w.flush();
    expect(stub.requests).toHaveLength(1);
    expect(outcomes.map((o) => o.detail)).toEqual(['smtp']);
    expect(await smtp.waitFor(1)).toHaveLength(1);
  });

  test('both failing: retried with backoff and delivered once they are back', async (t) => {
    const store = await sqliteStore(t);
    const stub = await startSendgridStub(t);
    stub.respond([500]);
    const smtp = await startSmtpServer(t, { listen: false });
    const { w, outcomes } = worker(t, store, [
      sendgridTransport('SG.k', { baseUrl: stub.url }),
      smtpTransport(smtp.url),
    ]);
    w.start();
    await store.orders.create(newOrder(), { by: 'customer', mail: [receiptJob('')] });
    w.kick();
    await until(() => outcomes.filter((o) => o.result === 'failed').length >= 2);
    expect(await store.outbox.pendingCount()).toBe(1);
    expect(outcomes.every((o) => o.result === 'failed')).toBe(true);
    expect(outcomes[0]?.detail).toMatch(/sendgrid: .*; smtp: /);

    // SendGrid comes back: the next retry goes through it.
    stub.respond([202]);
    await until(() => outcomes.some((o) => o.result === 'sent'));
    expect(outcomes.at(-1)).toMatchObject({ result: 'sent', detail: 'sendgrid' });
    expect(await store.outbox.pendingCount()).toBe(0);
    const sent = stub.requests.at(-1)!;
    expect(sent.body.attachments).toHaveLength(2);
    expect(smtp.received).toHaveLength(0);
  });

  test('each failure is recorded with its attempt count and pushes the next attempt out', async (t) => {
    const store = await sqliteStore(t);
    const smtp = await startSmtpServer(t, { listen: false });
    const { w } = worker(t, store, [smtpTransport(smtp.url)], { retryBaseMs: 60_000, retryMaxMs: 3_600_000 });
    const order = await store.orders.create(newOrder(), { by: 'customer', mail: [receiptJob('')] });
    const before = Date.now();
    await w.flush();
    // The attempt failed between `before` and `after`, however long the flush took.
    const after = Date.now();
    // Not due again for at least half the base delay: a second flush sends nothing.
    await w.flush();
    expect(await store.outbox.claimDue(new Date(before + 29_000), 10, 1000)).toEqual([]);
    const [job] = await store.outbox.claimDue(new Date(after + 61_000), 10, 1000);
    expect(job).toMatchObject({ orderId: order.id, attempts: 1, sentAt: null });
    expect(job?.lastError).toMatch(/smtp: /);
  });

  test('many jobs at once are all sent, none twice', async (t) => {
    const store = await sqliteStore(t);
    const smtp = await startSmtpServer(t);
    const { w, outcomes } = worker(t, store, [smtpTransport(smtp.url)]);
    for (let i = 0; i < 9; i++) await store.orders.create(newOrder(), { by: 'customer', mail: [receiptJob('')] });
    await Promise.all([w.flush(), w.flush(), w.flush()]);
    w.kick();
    await w.flush();
    expect(outcomes.filter((o) => o.result === 'sent')).toHaveLength(9);
    expect(new Set(outcomes.map((o) => o.jobId)).size).toBe(9);
    expect(await smtp.waitFor(9)).toHaveLength(9);
  });
});
