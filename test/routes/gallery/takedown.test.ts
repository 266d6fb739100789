/**
 * Takedown requests through the whole app (docs/contract.md, "Takedown requests"): a request hides
 * the photo everywhere the public looks (hide-first) or not until the owner decides
 * (review-first); "remove" deletes its renders and flags unpaid orders holding it; "restore"
 * lists it again; the requester hears the decision through the real SMTP server.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { photoCodeUrl } from '../../../src/domain/photo-code.js';
import { cacheFiles } from '../../../src/services/images/disk-cache.js';
import { imageCacheDir } from '../../../src/services/images/plugin.js';
import { imageKinds } from '../../../src/services/images/types.js';
import { adminHeaders, build, type TestApp } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { readZip, text } from '../../support/fulfilment-fixtures.js';
import { startSmtpServer } from '../../support/mail-smtp-server.js';
import { solvedCaptcha } from '../../support/orders-fixtures.js';
import { writeEventJson, writePhoto } from '../../support/photos-fixtures.js';
import { withPushService } from '../../support/push-service.js';
import { makeFrame } from '../../support/qr-frames.js';

const CODE = 'K7M2Q9TX';
const EVENT = 'Con';
const at = (hhmmss: string) => `2026:07:03 ${hhmmss}`;
const STAFF = 'staff-token-0123456789abcdefghij';

type T = Parameters<typeof build>[0];

/** A code frame and three photos after it (1, 2, 3), an event on sale. */
async function takedownApp(t: T, env: Record<string, string> = {}): Promise<TestApp> {
  const app = await build(t, {
    env: {
      ADMIN_TOKENS: `test-admin-token-0123456789abcdef,staff:${STAFF}`,
      ALTCHA_MAX_NUMBER: '2000',
      ADDRESS_VERIFIER: 'local',
      RATE_LIMIT_ORDERS_PER_MIN: '1000',
      RATE_LIMIT_LOOKUP_PER_MIN: '1000',
      MAIL_RETRY_BASE_MS: '60000',
      ...env,
    },
  });
  const root = path.join(app.dataDir, 'photos');
  await writeEventJson(root, EVENT, {
    name: 'Con 2026',
    prefix: 'CON',
    prices: { '4x6': 5 },
    defaultSize: '4x6',
    deadline: new Date(Date.now() + 86_400_000).toISOString(),
  });
  await writePhoto(
    root,
    [EVENT, 'Sat', 'Hall', 'IMG_0100.jpg'],
    await makeFrame({
      payload: photoCodeUrl('http://photos.test', CODE),
      width: 1200,
      height: 800,
      qrFraction: 0.35,
      contrast: 0.6,
      takenAt: at('14:00:00'),
      seed: 3,
    }),
  );
  for (const [i, name] of ['IMG_0101.jpg', 'IMG_0102.jpg', 'IMG_0103.jpg'].entries()) {
    await writePhoto(
      root,
      [EVENT, 'Sat', 'Hall', name],
      await makeFrame({ payload: '', qrFraction: 0, width: 600, height: 400, takenAt: at(`14:00:1${i}`), seed: 4 + i }),
    );
  }
  await app.photos.rescan();
  // Only issued codes are answered (docs/contract.md, "Finding one's photos, and intake").
  await app.store.photoCodes.issue([{ code: CODE, issuedVia: 'admin', createdAt: new Date().toISOString() }]);
  return app;
}

const ask = async (app: TestApp, photo: string, over: Record<string, unknown> = {}) =>
  app.inject({
    method: 'POST',
    url: `/api/photos/${EVENT}/${photo}/takedown`,
    payload: {
      reason: 'me',
      email: 'cosplayer@example.com',
      message: 'That is me, please take it down',
      captchaToken: await solvedCaptcha(app),
      ...over,
    },
  });

const listed = async (app: TestApp) =>
  ((await app.inject({ url: `/event/${EVENT}` })).json().photos as { number: string }[]).map((p) => p.number);

const photoId = (app: TestApp, number: string) => app.photos.findPhoto(EVENT, number)?.id as string;

async function boothOrder(app: TestApp, numbers: string[]) {
  return app.inject({
    method: 'POST',
    url: '/api/orders/create',
    headers: adminHeaders,
    payload: {
      eventSlug: EVENT,
      photos: numbers,
      customerInfo: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '555-010-0000' },
    },
  });
}

async function renderFiles(app: TestApp): Promise<string[]> {
  const out: string[] = [];
  for await (const f of cacheFiles(imageCacheDir(app.dataDir), imageKinds)) if (f.type === 'render') out.push(f.file);
  return out.sort();
}

describe('POST /api/photos/{event}/{photo}/takedown, hide-first (the default)', () => {
  test('the photo leaves listings, counts, the finder, thumbnails, images and new orders at once', async (t) => {
    const app = await takedownApp(t);
    const id2 = photoId(app, '2');
    expect(await listed(app)).toEqual(['1', '2', '3']);

    const res = await ask(app, '2');
    expect(res.statusCode, res.body).toBe(202);
    expectMatchesOpenApi('POST', '/api/photos/{event}/{photo}/takedown', res);
    expect(res.json().requestId).toMatch(/^[0-9a-f-]{36}$/);

    expect(await listed(app)).toEqual(['1', '3']);
    const event = (await app.inject({ url: `/event/${EVENT}` })).json();
    expect(event.totalCount).toBe(2);
    const events = (await app.inject({ url: '/event' })).json() as {
      code: string;
      photoCount: number;
      thumbnails: string[];
    }[];
    const con = events.find((e) => e.code === EVENT) as { photoCount: number; thumbnails: string[] };
    expect(con.photoCount).toBe(2);
    expect(JSON.stringify(con.thumbnails)).not.toContain(id2);
    const found = (await app.inject({ url: `/api/finder/${CODE}` })).json();
    expect(found.photos.map((p: { number: string }) => p.number)).toEqual(['1', '3']);
    for (const url of [`/api/proxy-image/${EVENT}/${id2}`, `/api/preview/${EVENT}/${id2}`, `/api/photos/${EVENT}/2`]) {
      const r = await app.inject({ url });
      expect(r.statusCode, url).toBe(404);
      expect(r.json().code).toBe('PHOTO_NOT_FOUND');
    }
    const order = await boothOrder(app, ['1', '2']);
    expect(order.statusCode).toBe(400);
    expect(order.json().code).toBe('UNKNOWN_PHOTO');
    // The others keep their numbers.
    expect((await app.inject({ url: `/api/photos/${EVENT}/3` })).json().photo.number).toBe('3');
  });

  test('refused: no CAPTCHA, a bad body, an unknown photo or event; rate limited like feedback', async (t) => {
    const app = await takedownApp(t, { RATE_LIMIT_FEEDBACK_PER_MIN: '3' });
    const none = await ask(app, '1', { captchaToken: undefined });
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('CAPTCHA_REQUIRED');
    const bad = await ask(app, '1', { reason: 'because', email: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_FAILED');
    expect((await ask(app, '99')).json().code).toBe('PHOTO_NOT_FOUND');
    const limited = await ask(app, '1'); // the 4th within the minute
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(await listed(app)).toEqual(['1', '2', '3']);
  });

  test('unknown photo 404; admin credentials stand in for the CAPTCHA; a second request for a hidden photo is taken', async (t) => {
    const app = await takedownApp(t);
    expect((await ask(app, '99')).json().code).toBe('PHOTO_NOT_FOUND');
    const admin = await app.inject({
      method: 'POST',
      url: `/api/photos/${EVENT}/1/takedown`,
      headers: adminHeaders,
      payload: { reason: 'copyright', email: 'owner@example.com' },
    });
    expect(admin.statusCode).toBe(202);
    expect((await ask(app, photoId(app, '3') ?? '3')).statusCode).toBe(202);
    expect((await ask(app, '1', { email: 'second@example.com' })).statusCode).toBe(202);
    const open = (await app.inject({ url: '/api/takedowns?status=open', headers: adminHeaders })).json().takedowns;
    expect(open.map((r: { photo: { number: string } }) => r.photo.number).sort()).toEqual(['1', '1', '3']);
  });
});

describe('the photographer hears of a request', () => {
  test("with OPERATOR_EMAIL, each request mails a notice: the photo, the request, whether it is hidden, the queue's link", async (t) => {
    const smtp = await startSmtpServer(t);
    const app = await takedownApp(t, {
      SMTP_URL: smtp.url,
      MAIL_RETRY_BASE_MS: '100',
      OPERATOR_EMAIL: 'photographer@example.com',
      PUBLIC_BASE_URL: 'https://photos.example.com',
    });
    expect((await ask(app, '2', { message: 'That is me <b>please</b>' })).statusCode).toBe(202);
    const [mail] = await smtp.waitFor(1, 15_000);
    expect(mail?.envelope.to).toEqual(['photographer@example.com']);
    expect(mail?.parsed.subject).toBe('Takedown request: photo #2 of Con 2026');
    expect(mail?.parsed.text).toContain('From: cosplayer@example.com');
    expect(mail?.parsed.text).toContain('Message: That is me <b>please</b>');
    expect(mail?.parsed.text).toContain('hidden from the gallery until you decide');
    expect(mail?.parsed.text).toContain('https://photos.example.com/admin/takedowns');
    expect(mail?.parsed.html).toContain('That is me &lt;b&gt;please&lt;/b&gt;');
  });

  test('each request pushes to the browsers subscribed as admin: the photo, the event, the reason; a tap opens the queue', async (t) => {
    const app = await takedownApp(t, { PUBLIC_BASE_URL: 'https://photos.example.com' });
    const push = await withPushService(t, app);
    const res = await ask(app, '2');
    expect(res.statusCode).toBe(202);
    await app.push.drain();
    expect(push.received).toHaveLength(1);
    expect(push.received[0]?.payload).toEqual({
      title: 'Takedown request: photo #2',
      body: 'Con 2026 · the person in the photo · hidden until you decide',
      url: 'https://photos.example.com/admin/takedowns',
      tag: `takedown-${(await app.takedowns.list())[0]?.id}`,
      event: 'takedown',
    });
  });

  test('without OPERATOR_EMAIL no notice is queued', async (t) => {
    const app = await takedownApp(t);
    expect((await ask(app, '2')).statusCode).toBe(202);
    await app.notifier.flush();
    // Mail goes to files in DATA_DIR/outbox without SMTP: none was written.
    const written = await readdir(path.join(app.dataDir, 'outbox')).catch(() => [] as string[]);
    expect(written.filter((f) => f.endsWith('.eml'))).toEqual([]);
    expect(await app.store.outbox.pendingCount()).toBe(0);
  });
});

describe('the owner decides', () => {
  test('review-first keeps the photo up; remove hides it for good, deletes its renders, flags unpaid orders, mails the requester', async (t) => {
    const smtp = await startSmtpServer(t);
    const app = await takedownApp(t, { TAKEDOWN_MODE: 'review-first', SMTP_URL: smtp.url, MAIL_RETRY_BASE_MS: '100' });
    const id2 = photoId(app, '2');
    const pending = await boothOrder(app, ['1', '2']);
    expect(pending.statusCode, pending.body).toBe(201);
    const paid = await boothOrder(app, ['2']);
    await app.inject({
      method: 'POST',
      url: `/api/orders/${paid.json().orderNumber}/update-status`,
      headers: adminHeaders,
      payload: { status: 'paid' },
    });

    const res = await ask(app, '2');
    expect(res.statusCode).toBe(202);
    const requestId = res.json().requestId as string;
    expect(await listed(app)).toEqual(['1', '2', '3']);
    for (const url of [`/api/proxy-image/${EVENT}/${id2}`, `/api/preview/${EVENT}/${id2}`]) {
      expect((await app.inject({ url })).statusCode).toBe(200);
    }
    await app.images.forget(app.photos.findPhoto(EVENT, '1') as never); // only photo 2's renders below are ours
    const before = await renderFiles(app);

    const queue = (await app.inject({ url: '/api/takedowns?status=open', headers: adminHeaders })).json().takedowns;
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({
      id: requestId,
      eventSlug: EVENT,
      eventName: 'Con 2026',
      photo: { id: id2, number: '2' },
      reason: 'me',
      email: 'cosplayer@example.com',
      message: 'That is me, please take it down',
      hidden: false,
      status: 'open',
      decision: null,
    });
    const thumb = await app.inject({ url: `/api/takedowns/${requestId}/photo`, headers: adminHeaders });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');

    const staff = await app.inject({
      method: 'POST',
      url: `/api/takedowns/${requestId}`,
      headers: { authorization: `Bearer ${STAFF}` },
      payload: { decision: 'remove' },
    });
    expect(staff.statusCode).toBe(403);
    expect(staff.json().code).toBe('FORBIDDEN');

    const decided = await app.inject({
      method: 'POST',
      url: `/api/takedowns/${requestId}`,
      headers: adminHeaders,
      payload: { decision: 'remove' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expectMatchesOpenApi('POST', '/api/takedowns/{id}', decided);
    expect(decided.json()).toMatchObject({
      changed: true,
      flaggedOrders: [pending.json().orderNumber],
      takedowns: [{ id: requestId, status: 'decided', decision: 'remove', hidden: true, photo: { thumbnail: null } }],
    });

    expect(await listed(app)).toEqual(['1', '3']);
    expect((await app.inject({ url: `/api/preview/${EVENT}/${id2}` })).statusCode).toBe(404);
    const after = await renderFiles(app);
    const deleted = before.filter((f) => !after.includes(f));
    expect(deleted.length).toBeGreaterThanOrEqual(2); // at least its thumbnail and preview
    expect(after.every((f) => before.includes(f) || !deleted.includes(f))).toBe(true);
    expect((await app.inject({ url: `/api/takedowns/${requestId}/photo`, headers: adminHeaders })).statusCode).toBe(
      404,
    );

    const flagged = (
      await app.inject({ url: `/api/orders/${pending.json().orderNumber}`, headers: adminHeaders })
    ).json();
    expect(flagged.removedPhotos).toEqual(['2']);
    expect(flagged.history.at(-1)).toMatchObject({ action: 'photo-removed', field: 'photo', to: '2' });
    const paidView = (
      await app.inject({ url: `/api/orders/${paid.json().orderNumber}`, headers: adminHeaders })
    ).json();
    expect(paidView.removedPhotos).toEqual([]);

    // A removed photo never reaches a print file: the paid order's ZIP names it in errors.txt only
    // (docs/contract.md, "Takedown requests").
    const zip = await app.inject({ url: `/api/orders/${paid.json().orderNumber}/print-files`, headers: adminHeaders });
    expect(zip.statusCode).toBe(200);
    const { names, files } = readZip(zip.rawPayload);
    expect(names).toEqual(['errors.txt']);
    expect(text(files['errors.txt'])).toContain('photo #2 is no longer in the photo library');
    // The print queue still shows the paid line (the customer is owed it), without its photo.
    const printQueue = (await app.inject({ url: `/api/print-queue?eventSlug=${EVENT}`, headers: adminHeaders })).json();
    expect(printQueue.items).toMatchObject([{ orderNumber: paid.json().orderNumber, photoNumber: '2', photo: null }]);

    await app.notifier.flush();
    // The booth orders' receipts go out too: two of them, then the decision.
    const mails = await smtp.waitFor(3, 15_000);
    const mail = mails.find((m) => m.envelope.to.includes('cosplayer@example.com'));
    expect(mail?.parsed.subject).toMatch(/photo #2 of Con 2026 was removed/);
    expect(mail?.parsed.text).toMatch(/no longer shown in the gallery/);

    // Deciding again the same way changes nothing; the other way is refused.
    const same = await app.inject({
      method: 'POST',
      url: `/api/takedowns/${requestId}`,
      headers: adminHeaders,
      payload: { decision: 'remove' },
    });
    expect(same.json().changed).toBe(false);
    const other = await app.inject({
      method: 'POST',
      url: `/api/takedowns/${requestId}`,
      headers: adminHeaders,
      payload: { decision: 'restore' },
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('TAKEDOWN_DECIDED');
    const decidedList = (await app.inject({ url: '/api/takedowns?status=decided', headers: adminHeaders })).json();
    expect(decidedList.takedowns).toHaveLength(1);
    expect(
      (
        await app.inject({
          url: '/api/takedowns/nope',
          method: 'POST',
          headers: adminHeaders,
          payload: { decision: 'remove' },
        })
      ).json().code,
    ).toBe('TAKEDOWN_NOT_FOUND');
  });

  test('restore lists a hidden photo again and tells the requester; a restart keeps what is hidden', async (t) => {
    const smtp = await startSmtpServer(t);
    const env = { SMTP_URL: smtp.url, MAIL_RETRY_BASE_MS: '100' };
    const app = await takedownApp(t, env);
    const first = (await ask(app, '1')).json().requestId as string;
    await ask(app, '3');
    expect(await listed(app)).toEqual(['2']);

    const restored = await app.inject({
      method: 'POST',
      url: `/api/takedowns/${first}`,
      headers: adminHeaders,
      payload: { decision: 'restore' },
    });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().takedowns[0].hidden).toBe(false);
    expect(await listed(app)).toEqual(['1', '2']);
    const found = (await app.inject({ url: `/api/finder/${CODE}` })).json();
    expect(found.photos.map((p: { number: string }) => p.number)).toEqual(['1', '2']);
    await app.notifier.flush();
    const [mail] = await smtp.waitFor(1, 15_000);
    expect(mail?.parsed.subject).toBe('Your removal request: photo #1 of Con 2026');
    expect(mail?.parsed.text).toMatch(/decided to keep the photo/);

    await app.close();
    const again = await build(t, { dataDir: app.dataDir, env });
    await again.photos.ready();
    await again.photos.rescan();
    const numbers = ((await again.inject({ url: `/event/${EVENT}` })).json().photos as { number: string }[]).map(
      (p) => p.number,
    );
    expect(numbers).toEqual(['1', '2']);
  });
});
