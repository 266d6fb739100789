/**
 * POST /api/finder/{code}/subscribe, and the notices that follow when a photo code's frames
 * arrive: a push decrypted by a local push service, an email received by a real SMTP server,
 * once per arrival batch, through the whole app. An email address is double opt-in (round 2):
 * its first mail asks to confirm, through a page whose button POSTs, and no photo mail goes to
 * it before that.
 */
import { createECDH, randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { photoCodeUrl } from '../../../src/domain/photo-code.js';
import { adminHeaders, build, type TestApp } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { startSmtpServer } from '../../support/mail-smtp-server.js';
import { writeEventJson, writePhoto } from '../../support/photos-fixtures.js';
import { withPushService } from '../../support/push-service.js';
import { makeFrame } from '../../support/qr-frames.js';
import { waitUntil } from '../../support/wait.js';

const at = (hhmmss: string) => `2026:07:03 ${hhmmss}`;

async function issue(app: TestApp): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/finder', headers: adminHeaders });
  expect(res.statusCode).toBe(201);
  return res.json().code;
}

function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

/** Waits until `check` holds; the test's own timeout ends a wait that never does. */
const until = (what: string, check: () => boolean | Promise<boolean>) => waitUntil(check, what);

/** The confirmation link in a mail's text, as the path and query to inject. */
function confirmLinkIn(text: string): string {
  const link = /http:\/\/photos\.test(\/api\/finder\/confirm-email\?token=[A-Za-z0-9_-]{43})/.exec(text)?.[1];
  if (!link) throw new Error(`no confirmation link in: ${text}`);
  return link;
}

/** Presses the page's button: the form POST with the link's token; the page's outcome. */
async function press(app: TestApp, link: string) {
  const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
  const res = await app.inject({
    method: 'POST',
    url: '/api/finder/confirm-email',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token }).toString(),
  });
  expectMatchesOpenApi('POST', '/api/finder/confirm-email', res);
  return { status: res.statusCode, code: /<main data-code="([A-Z_]+)">/.exec(res.body)?.[1], html: res.body };
}

const confirmedEmails = async (app: TestApp, code: string) =>
  (await app.store.photoCodes.subscriptions(code)).flatMap((s) =>
    s.channel === 'email' && s.confirmed ? [s.email] : [],
  );

describe('POST /api/finder/{code}/subscribe', () => {
  test('validation: push subscriptions checked as the push routes check them, or a valid email; unknown code 404', async (t) => {
    const app = await build(t, { env: { RATE_LIMIT_LOOKUP_PER_MIN: '1000' } });
    const code = await issue(app);
    const post = (payload: unknown, c = code) =>
      app.inject({ method: 'POST', url: `/api/finder/${c}/subscribe`, payload: payload as object });
    const endpoint = 'https://fcm.googleapis.com/fcm/send/abc';
    const offCurve = Buffer.alloc(65, 7);
    offCurve[0] = 4;
    const refused: [string, unknown][] = [
      ['http endpoint', { endpoint: 'http://fcm.googleapis.com/x', keys: browserKeys() }],
      ['local name', { endpoint: 'https://localhost/push', keys: browserKeys() }],
      ['an IP address', { endpoint: 'https://10.0.0.1/push', keys: browserKeys() }],
      ['p256dh not on the curve', { endpoint, keys: { ...browserKeys(), p256dh: offCurve.toString('base64url') } }],
      ['auth of the wrong size', { endpoint, keys: { ...browserKeys(), auth: 'AAAA' } }],
      ['endpoint without keys', { endpoint }],
      ['both push and email', { endpoint, keys: browserKeys(), email: 'ann@example.com' }],
      ['neither', {}],
      ['a bad email', { email: 'not an address' }],
    ];
    for (const [why, payload] of refused) {
      const res = await post(payload);
      expect(res.statusCode, why).toBe(400);
      expect(res.json().code, why).toBe('VALIDATION_FAILED');
    }
    expectMatchesOpenApi('POST', '/api/finder/{code}/subscribe', await post({}));

    const unknown = await post({ email: 'ann@example.com' }, 'ZZZZ2222');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('CODE_NOT_FOUND');
    expectMatchesOpenApi('POST', '/api/finder/{code}/subscribe', unknown);
    expect((await post({ email: 'ann@example.com' }, 'not-a-code!')).statusCode).toBe(400);

    const created = await post({ email: 'Ann@Example.com' }, code.toLowerCase());
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ success: true, channel: 'email', confirmed: false });
    expect(created.json().message).toContain('Check your email');
    expectMatchesOpenApi('POST', '/api/finder/{code}/subscribe', created);
    expect((await post({ email: 'ann@example.COM' })).statusCode).toBe(200);
    const push = await post({ endpoint, expirationTime: null, keys: browserKeys() });
    expect(push.statusCode).toBe(201);
    expect(push.json()).toMatchObject({ channel: 'push', confirmed: true });
    expect((await post({ endpoint, keys: browserKeys() })).statusCode).toBe(200);

    // Ten per code, then 409.
    for (let i = 0; i < 7; i++) expect((await post({ email: `p${i}@example.com` })).statusCode).toBe(201);
    // Round 2: a push endpoint must be on port 443 here too.
    const port = await post({ endpoint: 'https://fcm.googleapis.com:8443/fcm/send/x', keys: browserKeys() });
    expect(port.statusCode).toBe(400);
    expect((await post({ email: 'p7@example.com' })).statusCode).toBe(201);
    const full = await post({ email: 'one-more@example.com' });
    expect(full.statusCode).toBe(409);
    expect(full.json().code).toBe('SUBSCRIPTION_LIMIT');
    expectMatchesOpenApi('POST', '/api/finder/{code}/subscribe', full);
  });

  test('round 2: email is double opt-in: one mail asks, a GET confirms nothing, the button does, once', async (t) => {
    const smtp = await startSmtpServer(t);
    const app = await build(t, { env: { SMTP_URL: smtp.url, RATE_LIMIT_LOOKUP_PER_MIN: '1000' } });
    const code = await issue(app);
    const post = () =>
      app.inject({ method: 'POST', url: `/api/finder/${code}/subscribe`, payload: { email: 'victim@example.com' } });
    expect((await post()).statusCode).toBe(201);
    // Asking again (an attacker filling someone's inbox) sends nothing more.
    for (let i = 0; i < 3; i++) expect((await post()).json()).toMatchObject({ confirmed: false });
    const [ask] = await smtp.waitFor(1, 20_000);
    expect(ask?.envelope.to).toEqual(['victim@example.com']);
    expect(ask?.parsed.text).toContain('If not, ignore this mail');
    const link = confirmLinkIn(ask?.parsed.text ?? '');

    // Opening the link (a mail scanner does) shows the button and changes nothing.
    for (let i = 0; i < 2; i++) {
      const shown = await app.inject({ url: link });
      expectMatchesOpenApi('GET', '/api/finder/confirm-email', shown);
      expect(shown.statusCode).toBe(200);
      expect(shown.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(shown.headers['content-security-policy']).toContain("default-src 'none'");
      expect(shown.body).toContain('data-code="AWAITING_CONFIRMATION"');
      expect(shown.body).toContain('<form method="post" action="/api/finder/confirm-email">');
    }
    expect(await confirmedEmails(app, code)).toEqual([]);
    // An altered token confirms nothing.
    const forged = await press(
      app,
      link.replace(/token=./, (m) => (m.endsWith('A') ? `${m.slice(0, -1)}B` : `${m.slice(0, -1)}A`)),
    );
    expect(forged).toMatchObject({ status: 403, code: 'VERIFICATION_FAILED' });
    expect((await app.inject({ url: '/api/finder/confirm-email?token=short' })).statusCode).toBe(403);
    expect(await confirmedEmails(app, code)).toEqual([]);

    expect(await press(app, link)).toMatchObject({ status: 200, code: 'CONFIRMED' });
    expect(await press(app, link)).toMatchObject({ status: 200, code: 'ALREADY_CONFIRMED' });
    expect(await confirmedEmails(app, code)).toEqual(['victim@example.com']);
    expect((await post()).json()).toMatchObject({
      confirmed: true,
      message: expect.stringContaining('Already subscribed'),
    });
    await app.notifier.flush();
    expect(smtp.received).toHaveLength(1);
  });

  test('rate limited with the lookup limit', async (t) => {
    const app = await build(t, { env: { RATE_LIMIT_LOOKUP_PER_MIN: '2' } });
    const code = await issue(app);
    const post = () =>
      app.inject({ method: 'POST', url: `/api/finder/${code}/subscribe`, payload: { email: 'a@example.com' } });
    expect((await post()).statusCode).toBe(201);
    expect((await app.inject({ url: `/api/finder/${code}` })).statusCode).toBe(200);
    const limited = await post();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('notices when photos join a code', () => {
  test('push and email, once per arrival batch, counting from subscribing; a push endpoint gone (410) is removed', async (t) => {
    const smtp = await startSmtpServer(t);
    const app = await build(t, {
      env: {
        SMTP_URL: smtp.url,
        FINDER_NOTIFY_QUIET_MS: '1500',
        RATE_LIMIT_LOOKUP_PER_MIN: '1000',
        MAIL_FROM: 'Booth Photos <photos@example.com>',
      },
    });
    const pushService = await withPushService(t, app, { admin: false });
    const code = await issue(app);
    const browser = pushService.subscriber();
    const subscribe = (payload: object) =>
      app.inject({ method: 'POST', url: `/api/finder/${code}/subscribe`, payload });
    expect((await subscribe({ ...browser, expirationTime: null })).statusCode).toBe(201);
    expect((await subscribe({ email: 'ann@example.com' })).statusCode).toBe(201);
    // Ann confirms from the mail; Bob (whose address someone else typed) never does.
    const [ask] = await smtp.waitFor(1, 20_000);
    expect(ask?.envelope.to).toEqual(['ann@example.com']);
    expect(ask?.parsed.subject).toBe(`Confirm: email me new photos of code ${code}`);
    const link = confirmLinkIn(ask?.parsed.text ?? '');
    expect((await app.inject({ url: link })).statusCode).toBe(200);
    expect(await confirmedEmails(app, code)).toEqual([]);
    expect((await press(app, link)).code).toBe('CONFIRMED');
    expect(await confirmedEmails(app, code)).toEqual(['ann@example.com']);
    expect((await subscribe({ email: 'bob@example.com' })).statusCode).toBe(201);
    await smtp.waitFor(2, 20_000);

    // The photographer's card: the code frame, then two photos of the attendee.
    const root = path.join(app.dataDir, 'photos');
    await writeEventJson(root, 'Con', { name: 'Con 2026' });
    const scene = (takenAt: string, seed: number) =>
      makeFrame({ payload: '', qrFraction: 0, width: 600, height: 400, takenAt, seed });
    await writePhoto(
      root,
      ['Con', 'Sat', 'Hall', 'IMG_0100.jpg'],
      await makeFrame({
        payload: photoCodeUrl('http://photos.test', code),
        width: 1200,
        height: 800,
        qrFraction: 0.35,
        takenAt: at('14:00:00'),
        seed: 3,
      }),
    );
    await writePhoto(root, ['Con', 'Sat', 'Hall', 'IMG_0101.jpg'], await scene(at('14:00:10'), 4));
    await writePhoto(root, ['Con', 'Sat', 'Hall', 'IMG_0102.jpg'], await scene(at('14:00:20'), 5));
    await app.photos.rescan();
    expect((await app.inject({ url: `/api/finder/${code}` })).json().photos).toHaveLength(2);

    await until('the first push', () => pushService.to(browser.endpoint).length === 1);
    const [first] = pushService.to(browser.endpoint);
    expect(first?.vapid.valid).toBe(true);
    expect(first?.payload).toEqual({
      title: '2 new photos',
      body: `Photo code ${code}: tap to see them.`,
      url: `http://photos.test/me/${code}`,
      tag: `photos-${code}`,
      event: 'photos',
    });
    const mail = (await smtp.waitFor(3, 20_000))[2];
    expect(mail?.envelope.to).toEqual(['ann@example.com']);
    expect(mail?.parsed.subject).toBe(`2 new photos for photo code ${code}`);
    expect(mail?.parsed.text).toContain(`http://photos.test/me/${code}`);
    expect(mail?.parsed.html).toContain(`href="http://photos.test/me/${code}"`);

    // A later batch: one more photo, told as one; the browser's subscription has gone meanwhile.
    pushService.respond(browser.endpoint, [410]);
    await writePhoto(root, ['Con', 'Sat', 'Hall', 'IMG_0103.jpg'], await scene(at('14:00:30'), 6));
    await app.photos.rescan();
    const second = (await smtp.waitFor(4, 20_000))[3];
    expect(second?.envelope.to).toEqual(['ann@example.com']);
    expect(second?.parsed.subject).toBe(`1 new photo for photo code ${code}`);
    await until('the second push', () => pushService.to(browser.endpoint).length === 2);
    expect(pushService.to(browser.endpoint)[1]).toMatchObject({ status: 410, payload: { title: '1 new photo' } });
    await until('the gone subscription removed', async () =>
      (await app.store.photoCodes.subscriptions(code)).every((s) => s.channel === 'email'),
    );

    // Nothing new: nobody is told again; Bob, unconfirmed, had his one mail asking, nothing more.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(smtp.received).toHaveLength(4);
    expect(smtp.received.filter((m) => m.envelope.to.includes('bob@example.com'))).toHaveLength(1);
    expect(pushService.to(browser.endpoint)).toHaveLength(2);
    expect(await app.store.photoCodes.subscriptions(code)).toMatchObject([
      { channel: 'email', email: 'ann@example.com', notifiedCount: 3, confirmed: true },
      { channel: 'email', email: 'bob@example.com', notifiedCount: 0, confirmed: false },
    ]);
  });
});
