/**
 * SendGrid and SMTP both down while orders come in over HTTP, then a restart, then both
 * back: every order is acknowledged at once (mail never holds a request up), the receipts
 * wait in the outbox across the restart, and each acknowledged order's receipt is delivered
 * exactly once when the transports return. (The notifier alone: test/services/notifier/.)
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/build.js';
import { orderLoad } from '../support/fault-orders.js';
import { serverEnv, startServer } from '../support/fault-server.js';
import { startSendgridStub } from '../support/mail-sendgrid-stub.js';
import { startSmtpServer } from '../support/mail-smtp-server.js';
import { writeLibrary } from '../support/orders-fixtures.js';
import { waitUntil } from '../support/wait.js';

test('SendGrid and SMTP down: orders acknowledged at once, receipts delivered once they are back, across a restart', {
  timeout: 240_000,
}, async (t) => {
  const sendgrid = await startSendgridStub(t);
  sendgrid.respond([503]);
  // At first SendGrid doesn't answer at all: a send hangs (until its own timeout).
  sendgrid.hold();
  const smtp = await startSmtpServer(t, { listen: false });
  const dataDir = await tempDir(t);
  await writeLibrary(path.join(dataDir, 'photos'));
  const env = serverEnv(dataDir, {
    SENDGRID_API_KEY: 'SG.fault-test',
    SENDGRID_BASE_URL: sendgrid.url,
    SMTP_URL: smtp.url,
    MAIL_RETRY_BASE_MS: '200',
    MAIL_RETRY_MAX_MS: '1000',
  });
  const first = await startServer(t, { env });

  const load = orderLoad({ urls: [first.url], clients: 4 });
  await load.until((s) => s.acks.length >= 24, 60_000);
  const { acks, refusals } = await load.stop();
  expect(refusals).toEqual([]);
  // Mail is not on the request's path: every order was acknowledged while SendGrid, tried,
  // had answered nothing (an acknowledgement that waited for a transport would never come).
  await sendgrid.held(1);
  expect(sendgrid.answered).toBe(0);
  // From now on SendGrid fails fast: 503, the held sends too.
  sendgrid.release();

  // The worker has tried (and failed) meanwhile.
  await waitUntil(() => sendgrid.requests.length > 0, 'a failed attempt');
  const ready = (await (await fetch(`${first.url}/readyz`)).json()) as {
    checks: { mail: { details: { pending: number } } };
  };
  expect(ready.checks.mail.details.pending).toBeGreaterThan(0);
  expect(smtp.received).toHaveLength(0);

  // A graceful restart with every transport still down: the shutdown flush fails too, and
  // the receipts stay queued.
  await first.kill('SIGTERM');
  const second = await startServer(t, { env, port: first.port });

  // Both come back. What SendGrid gets from now on is answered 202: a delivery.
  await smtp.start();
  const failedAttempts = sendgrid.requests.length;
  sendgrid.respond([202]);
  const delivered = () => [
    ...sendgrid.requests.slice(failedAttempts).map((r) => r.body.subject),
    ...smtp.received.map((m) => m.parsed.subject ?? ''),
  ];
  const wanted = acks.map((a) => `Your order ${a.orderNumber}: receipt`);
  await expect
    .poll(() => wanted.filter((w) => !delivered().includes(w)), { timeout: 180_000, interval: 250 })
    .toEqual([]);
  // Nothing left waiting, and once each: counted once the server has exited (the event after
  // which nothing more can be sent), not after a guess of how long a duplicate could take.
  const ready2 = (await (await fetch(`${second.url}/readyz`)).json()) as {
    checks: { mail: { details: { pending: number } } };
  };
  expect(ready2.checks.mail.details.pending).toBe(0);
  await second.kill('SIGTERM');
  expect(wanted.filter((w) => delivered().filter((d) => d === w).length !== 1)).toEqual([]);
});
