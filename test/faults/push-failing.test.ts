/**
 * The push service answering 500 to everything, under the real server: each notification
 * is retried (3 attempts, backing off), then given up with one warning, while order
 * submissions and status changes keep answering at once. (The push notifier alone, with
 * 404/410/429 as well: test/services/push/service.test.ts.)
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openStore } from '../../src/services/store/store.js';
import { adminHeaders, tempDir } from '../helpers/build.js';
import { orderLoad } from '../support/fault-orders.js';
import { serverEnv, startServer } from '../support/fault-server.js';
import { writeLibrary } from '../support/orders-fixtures.js';
import { saveSubscriber, startPushService } from '../support/push-service.js';
import { waitUntil } from '../support/wait.js';

test('push service answering 500: retried, then given up, requests unaffected', { timeout: 240_000 }, async (t) => {
  const push = await startPushService(t);
  const dataDir = await tempDir(t);
  await writeLibrary(path.join(dataDir, 'photos'));
  // An admin's browser subscribed earlier. (Its endpoint is on loopback, which the subscribe
  // route refuses, as it should; so it goes into the store directly, and PUSH_ALLOW_HOSTS
  // lets the server send to it, as it would to an on-premises relay.)
  const browser = push.subscriber();
  push.respond(browser.endpoint, [500]);
  // At first the push service doesn't answer at all: a push hangs.
  push.hold();
  const store = await openStore({ engine: 'sqlite', file: path.join(dataDir, 'orders.db') });
  await saveSubscriber(store, browser, 'admin');
  await store.close();
  const ca = path.join(dataDir, 'push-ca.pem');
  await writeFile(ca, push.ca);

  const server = await startServer(t, {
    env: serverEnv(dataDir, { LOG_LEVEL: 'info', PUSH_ALLOW_HOSTS: '127.0.0.1' }),
    // web-push uses Node's TLS defaults: trust the local push service's certificate.
    extraEnv: { NODE_EXTRA_CA_CERTS: ca },
  });

  const load = orderLoad({ urls: [server.url], clients: 2 });
  await push.held(1);
  await load.until((s) => s.acks.length >= 1, 30_000);
  // Push is not on the request's path: orders were acknowledged while the push service had
  // answered nothing (an acknowledgement that waited for it would never come). The hold ends
  // here, well inside a push's own 10 s timeout: released, every push is answered 500.
  expect(push.answered).toBe(0);
  push.release();
  await load.until((s) => s.acks.length >= 6, 30_000);
  const { acks, refusals } = await load.stop();
  expect(refusals).toEqual([]);
  const paid = await fetch(`${server.url}/api/orders/${acks[0]?.orderNumber}/update-status`, {
    method: 'POST',
    headers: { ...adminHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'paid' }),
  });
  expect(paid.status).toBe(200);
  const events = acks.length + 1; // one push per new order, one for the status change

  // Each push: 3 attempts (1 s, then 2 s apart, jittered), then given up.
  // However long the retries take here (waitUntil: the test's timeout, not a shorter one).
  await waitUntil(() => push.to(browser.endpoint).length >= events * 3, 'three attempts per push');
  const gaveUp = () => server.logs.filter((l) => l.msg === 'push not delivered; given up');
  await waitUntil(() => gaveUp().length >= events, 'every push given up');
  expect(gaveUp()).toHaveLength(events);
  expect(gaveUp().every((l) => l.status === 500 && l.attempts === 3)).toBe(true);
  // Every attempt was a real, decryptable push, VAPID-signed.
  expect(push.to(browser.endpoint).every((p) => p.vapid.valid && p.payload !== null)).toBe(true);
  // The subscription is kept (a 500 says nothing about it), and the server still answers.
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  await server.kill('SIGTERM');
  // No attempt after giving up: counted once the server has exited (the event), not after a
  // guess of how long a late retry could take to show.
  expect(push.to(browser.endpoint)).toHaveLength(events * 3);
  const reopened = await openStore({ engine: 'sqlite', file: path.join(dataDir, 'orders.db') });
  t.onTestFinished(() => reopened.close());
  expect(await reopened.pushSubscriptions.list({ scope: 'admin' })).toHaveLength(1);
});
