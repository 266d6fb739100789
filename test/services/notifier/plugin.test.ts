/**
 * The notifier as the app runs it: `fastify.notifier` over the real SQLite store, delivery in
 * the mail thread (real labels, nodemailer, SendGrid client), transports from the env.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { simpleParser } from 'mailparser';
import { describe, expect, test } from 'vitest';
import { OUTBOX_DIR } from '../../../src/services/notifier/transports/specs.js';
import { build, type TestApp } from '../../helpers/build.js';
import { startSendgridStub } from '../../support/mail-sendgrid-stub.js';
import { startSmtpServer, startStallingSmtpServer } from '../../support/mail-smtp-server.js';
import { newOrder } from '../../support/store-fixtures.js';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

async function orderWithReceipt(app: TestApp) {
  const order = await app.store.orders.create(newOrder(), {
    by: 'customer',
    mail: app.notifier.jobsForNewOrder({ id: '', held: false }),
  });
  app.notifier.kick();
  return order;
}

async function emlFiles(dataDir: string) {
  const dir = path.join(dataDir, OUTBOX_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(
    names.map(async (n) => ({ name: n, parsed: await simpleParser(await readFile(path.join(dir, n))) })),
  );
}

/** The outbox as stored, read straight from the SQLite file (the app may be closed). */
function storedJobs(dataDir: string) {
  const db = new Database(path.join(dataDir, 'orders.db'), { readonly: true });
  try {
    return db.prepare('SELECT id, kind, sent_at, last_error FROM mail_jobs ORDER BY created_at').all() as {
      id: string;
      kind: string;
      sent_at: string | null;
      last_error: string | null;
    }[];
  } finally {
    db.close();
  }
}

/** Records every call to the outbox's store methods made after `closed()` is true. */
function storeCallsAfter(app: TestApp, closed: () => boolean): string[] {
  const late: string[] = [];
  const watch = (port: object, names: string[]) => {
    const methods = port as Record<string, (...args: unknown[]) => unknown>;
    for (const name of names) {
      const original = methods[name];
      if (typeof original !== 'function') throw new Error(`no method ${name} to watch`);
      methods[name] = (...args: unknown[]) => {
        if (closed()) late.push(name);
        return original.apply(port, args);
      };
    }
  };
  watch(app.store.outbox, ['claimDue', 'markSent', 'markFailed']);
  watch(app.store.orders, ['get']);
  return late;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('notifier plugin', () => {
  test('with no transport configured, the receipt is an .eml file with both labels', async (t) => {
    const app = await build(t, { env: { OPERATOR_EMAIL: 'booth@example.com' } });
    const order = await orderWithReceipt(app);
    await app.notifier.flush();

    const files = await emlFiles(app.dataDir);
    expect(files).toHaveLength(1);
    const { name, parsed } = files[0]!;
    expect(name).toContain(`-receipt-${order.orderNumber}-`);
    expect(parsed.subject).toBe(`Your order ${order.orderNumber}: receipt`);
    expect(parsed.from?.value[0]).toMatchObject({ name: 'Convention Photos', address: 'photos@localhost' });
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value.map((a) => a.address) : []).toEqual([
      'ada@example.com',
    ]);
    expect(parsed.cc && !Array.isArray(parsed.cc) ? parsed.cc.value.map((a) => a.address) : []).toEqual([
      'booth@example.com',
    ]);
    expect(parsed.text).toContain('http://photos.test/?feedback=');
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`label-${order.orderNumber}.png`, 'image/png'],
      [`label-${order.orderNumber}.docx`, DOCX_TYPE],
    ]);
    expect(parsed.attachments[0]!.content.subarray(1, 4).toString()).toBe('PNG');
    expect(await app.store.outbox.pendingCount()).toBe(0);

    const ready = await app.inject({ url: '/readyz' });
    expect(ready.json().checks.mail).toEqual({ ok: true, details: { transports: ['file'], pending: 0 } });
  });

  test('SendGrid gets the receipt with the rendered labels base64-encoded', async (t) => {
    const stub = await startSendgridStub(t);
    const app = await build(t, { env: { SENDGRID_API_KEY: 'SG.app-key', SENDGRID_BASE_URL: stub.url } });
    const order = await orderWithReceipt(app);
    await app.notifier.flush();

    expect(stub.requests).toHaveLength(1);
    const req = stub.requests[0]!;
    expect(req.path).toBe('/v3/mail/send');
    expect(req.headers.authorization).toBe('Bearer SG.app-key');
    expect(req.body.personalizations[0]?.to).toEqual([{ email: 'ada@example.com', name: 'Ada Lovelace' }]);
    expect(req.body.attachments?.map((a) => [a.filename, a.type])).toEqual([
      [`label-${order.orderNumber}.png`, 'image/png'],
      [`label-${order.orderNumber}.docx`, DOCX_TYPE],
    ]);
    const png = Buffer.from(req.body.attachments![0]!.content, 'base64');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const docx = Buffer.from(req.body.attachments![1]!.content, 'base64');
    expect(docx.subarray(0, 2).toString()).toBe('PK');
    expect(await emlFiles(app.dataDir)).toEqual([]);
  });

  test('every transport down: the mail waits, survives a restart, and goes out when SMTP is back', async (t) => {
    const stub = await startSendgridStub(t);
    stub.respond([503]);
    const smtp = await startSmtpServer(t, { listen: false });
    const env = {
      SENDGRID_API_KEY: 'SG.k',
      SENDGRID_BASE_URL: stub.url,
      SMTP_URL: smtp.url,
      MAIL_RETRY_BASE_MS: '100',
      MAIL_RETRY_MAX_MS: '1000',
    };
    const first = await build(t, { env });
    const order = await orderWithReceipt(first);
    await first.notifier.flush();
    expect(await first.store.outbox.pendingCount()).toBe(1);
    await first.close();
    expect(stub.requests.length).toBeGreaterThanOrEqual(1);

    // Back up: SMTP answers now (SendGrid still refuses).
    await smtp.start();
    const second = await build(t, { env, dataDir: first.dataDir });
    const [mail] = await smtp.waitFor(1, 15_000);
    expect(mail?.parsed.subject).toBe(`Your order ${order.orderNumber}: receipt`);
    expect(mail?.parsed.attachments).toHaveLength(2);
    await second.notifier.flush();
    expect(await second.store.outbox.pendingCount()).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  test('closing the app (SIGTERM) sends what is queued first', async (t) => {
    // A generous grace period: the flush may have to start the mail thread on a busy machine.
    const app = await build(t, { env: { SHUTDOWN_GRACE_MS: '60000' } });
    const order = await app.store.orders.create(newOrder(), {
      by: 'customer',
      mail: app.notifier.jobsForNewOrder({ id: '', held: false }),
    });
    // No kick, no flush: only the shutdown flush can send it.
    await app.close();
    const files = await emlFiles(app.dataDir);
    expect(files.map((f) => f.parsed.subject)).toEqual([`Your order ${order.orderNumber}: receipt`]);
  });

  test('the verification mail carries the link a held order was created with', async (t) => {
    const app = await build(t);
    const verifyUrl = 'http://photos.test/api/orders/verify?token=signed.token';
    const order = await app.store.orders.create(
      newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 48 * 3600_000).toISOString() }),
      { by: 'customer', mail: app.notifier.jobsForNewOrder({ id: '', held: true }, verifyUrl) },
    );
    await app.notifier.flush();
    const [file] = await emlFiles(app.dataDir);
    expect(file?.parsed.subject).toBe(`Please confirm your order ${order.orderNumber}`);
    expect(file?.parsed.text).toContain(verifyUrl);
    expect(file?.parsed.attachments).toEqual([]);
  });

  test('closing while SMTP stalls mid-delivery: close ends within its bound, nothing runs after it, the mail goes out after a restart', async (t) => {
    const smtp = await startSmtpServer(t, { listen: false });
    const stalling = await startStallingSmtpServer(t, smtp.port);
    const env = { SMTP_URL: smtp.url, SHUTDOWN_GRACE_MS: '1000' };
    const first = await build(t, { env });
    let closed = false;
    const late = storeCallsAfter(first, () => closed);
    const order = await orderWithReceipt(first);
    await stalling.stuck(); // the receipt is in the middle of its SMTP conversation

    const started = Date.now();
    await first.close();
    closed = true;
    const took = Date.now() - started;
    // The flush's half of SHUTDOWN_GRACE_MS at least. The upper bound is the event itself: close()
    // returned while the SMTP server still stalls (it never answers; unbounded, close would wait
    // for the 30 s socket timeout and fail on the test's timeout). No clock bound: a loaded
    // machine would break one.
    expect(took).toBeGreaterThanOrEqual(500);

    // The stalled server gives up; nothing of the cut-off delivery may react to that.
    await stalling.close();
    await pause(300);
    expect(late).toEqual([]);
    const [job] = storedJobs(first.dataDir);
    expect(job).toMatchObject({
      kind: 'receipt',
      sent_at: null,
      last_error: expect.stringMatching(/cut off by shutdown/),
    });

    // Restarted with SMTP answering: due at once, sent.
    await smtp.start();
    const second = await build(t, { env, dataDir: first.dataDir });
    const [mail] = await smtp.waitFor(1, 15_000);
    expect(mail?.parsed.subject).toBe(`Your order ${order.orderNumber}: receipt`);
    await second.notifier.flush();
    expect(await second.store.outbox.pendingCount()).toBe(0);
  });

  test('a close that cuts deliveries off leaves DATA_DIR alone afterwards; every job is sent or still queued', async (t) => {
    const first = await build(t, { env: { SHUTDOWN_GRACE_MS: '0' } });
    const orders = [];
    for (let i = 0; i < 6; i++) {
      orders.push(
        await first.store.orders.create(newOrder(), {
          by: 'customer',
          mail: first.notifier.jobsForNewOrder({ id: '', held: false }),
        }),
      );
    }
    first.notifier.kick();
    await pause(150); // let a delivery get under way
    await first.close();
    const outbox = path.join(first.dataDir, OUTBOX_DIR);
    const list = async () => (await readdir(outbox).catch(() => [] as string[])).sort();
    const atClose = await list();
    await pause(500);
    expect(await list()).toEqual(atClose); // nothing written after close
    expect(atClose.filter((n) => !n.endsWith('.eml'))).toEqual([]); // no temp file left behind
    const jobs = storedJobs(first.dataDir);
    expect(jobs).toHaveLength(6);
    expect(jobs.filter((j) => j.sent_at !== null)).toHaveLength(atClose.length);
    expect(jobs.filter((j) => j.sent_at === null).length).toBeGreaterThan(0);

    // After a restart, each receipt is there once.
    const second = await build(t, { dataDir: first.dataDir });
    await second.notifier.flush();
    expect(await second.store.outbox.pendingCount()).toBe(0);
    const files = await list();
    expect(files).toHaveLength(6);
    for (const o of orders) expect(files.filter((f) => f.includes(`-receipt-${o.orderNumber}-`))).toHaveLength(1);
  });
});
