/**
 * Turnstile, hCaptcha and reCAPTCHA through their siteverify protocol, against a local
 * stub (CAPTCHA_VERIFY_URL points the service at it).
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { SITEVERIFY_URLS } from '../../../src/services/captcha/siteverify.js';
import { captchaTokenOf } from '../../../src/services/captcha/token.js';
import { build } from '../../helpers/build.js';
import { startSiteverifyStub } from '../../support/captcha-siteverify-stub.js';

const errorBody = z.strictObject({ error: z.string(), code: z.string(), details: z.string() });
const SECRET = 'provider-secret-key';
type T = Parameters<typeof build>[0];

async function appWithProvider(t: T, provider: string, env: Record<string, string> = {}) {
  const stub = await startSiteverifyStub(t);
  const app = await build(t, {
    noReady: true,
    env: { CAPTCHA_PROVIDER: provider, CAPTCHA_SECRET: SECRET, CAPTCHA_VERIFY_URL: stub.url, ...env },
  });
  app.post('/test/checkout', async (request) => {
    await app.captcha.verify(captchaTokenOf(request), request.ip);
    return { accepted: true };
  });
  await app.ready();
  const submit = (token?: string, remoteAddress = '198.51.100.23') =>
    app.inject({
      method: 'POST',
      url: '/test/checkout',
      remoteAddress,
      payload: token === undefined ? {} : { captchaToken: token },
    });
  return { app, stub, submit };
}

describe.each(['turnstile', 'hcaptcha', 'recaptcha'] as const)('%s', (provider) => {
  test('a good token is accepted; the provider receives secret, response and remoteip as a form', async (t) => {
    const { stub, submit } = await appWithProvider(t, provider);
    const res = await submit('good');
    expect(res.statusCode).toBe(200);
    expect(stub.received).toHaveLength(1);
    const [req] = stub.received;
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/siteverify');
    expect(req?.contentType).toBe('application/x-www-form-urlencoded');
    expect(req?.form).toEqual({ secret: SECRET, response: 'good', remoteip: '198.51.100.23' });
  });

  test('a token the provider refuses: 403 CAPTCHA_FAILED naming its error codes', async (t) => {
    const { submit } = await appWithProvider(t, provider);
    const res = await submit('bad');
    expect(res.statusCode).toBe(403);
    const body = errorBody.parse(res.json());
    expect(body.code).toBe('CAPTCHA_FAILED');
    expect(body.details).toContain('invalid-input-response');
  });

  test('a token is accepted once, even if the provider would accept it again', async (t) => {
    const { stub, submit } = await appWithProvider(t, provider);
    expect((await submit('good')).statusCode).toBe(200);
    const again = await submit('good');
    expect(again.statusCode).toBe(403);
    expect(again.json().code).toBe('CAPTCHA_FAILED');
    expect(stub.received).toHaveLength(1); // refused locally, without asking
  });

  test('missing token: 400 CAPTCHA_REQUIRED, and the provider is not asked', async (t) => {
    const { stub, submit } = await appWithProvider(t, provider);
    const res = await submit();
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('CAPTCHA_REQUIRED');
    expect(stub.received).toHaveLength(0);
  });

  test('the provider does not answer in time: 503 CAPTCHA_UNAVAILABLE with Retry-After; the token is not spent', async (t) => {
    const { stub, submit } = await appWithProvider(t, provider, { CAPTCHA_VERIFY_TIMEOUT_MS: '300' });
    stub.answer = () => ({ kind: 'hang' });
    // The provider never answers: only CAPTCHA_VERIFY_TIMEOUT_MS can end the request (a hang
    // fails on the test's timeout; no clock bound, which a loaded machine would break).
    const res = await submit('good');
    expect(res.statusCode).toBe(503);
    expect(errorBody.parse(res.json()).code).toBe('CAPTCHA_UNAVAILABLE');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // once the provider is back, the same token goes through
    stub.answer = () => ({ kind: 'json', body: { success: true } });
    expect((await submit('good')).statusCode).toBe(200);
  });
});

describe('provider failures', () => {
  test('a 5xx or non-JSON answer is 503 CAPTCHA_UNAVAILABLE', async (t) => {
    const { stub, submit } = await appWithProvider(t, 'turnstile');
    stub.answer = () => ({ kind: 'text', status: 502, body: '<html>Bad gateway</html>' });
    expect((await submit('good')).json().code).toBe('CAPTCHA_UNAVAILABLE');
    stub.answer = () => ({ kind: 'json', status: 500, body: { success: false } });
    expect((await submit('good')).json().code).toBe('CAPTCHA_UNAVAILABLE');
    stub.answer = () => ({ kind: 'json', body: { unexpected: 'shape' } });
    expect((await submit('good')).json().code).toBe('CAPTCHA_UNAVAILABLE');
  });

  test('an unreachable provider is 503 CAPTCHA_UNAVAILABLE', async (t) => {
    const app = await build(t, {
      noReady: true,
      env: {
        CAPTCHA_PROVIDER: 'hcaptcha',
        CAPTCHA_SECRET: SECRET,
        CAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
      },
    });
    app.post('/test/checkout', async (request) => {
      await app.captcha.verify(captchaTokenOf(request), request.ip);
      return {};
    });
    await app.ready();
    const res = await app.inject({ method: 'POST', url: '/test/checkout', payload: { captchaToken: 'good' } });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('CAPTCHA_UNAVAILABLE');
  });

  test('the provider rejecting our secret is 503 (the visitor cannot fix it), not 403', async (t) => {
    const { stub, submit } = await appWithProvider(t, 'recaptcha');
    stub.answer = () => ({ kind: 'json', body: { success: false, 'error-codes': ['invalid-input-secret'] } });
    const res = await submit('good');
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('CAPTCHA_UNAVAILABLE');
  });

  test('hCaptcha also receives the site key when one is configured', async (t) => {
    const { stub, submit } = await appWithProvider(t, 'hcaptcha', { CAPTCHA_SITE_KEY: 'site-key-123' });
    expect((await submit('good')).statusCode).toBe(200);
    expect(stub.received[0]?.form.sitekey).toBe('site-key-123');
  });
});

test('without CAPTCHA_VERIFY_URL each provider uses its documented siteverify URL', () => {
  expect(SITEVERIFY_URLS).toEqual({
    turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    hcaptcha: 'https://api.hcaptcha.com/siteverify',
    recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
  });
});

test('CAPTCHA_PROVIDER=off accepts anything, no token included', async (t) => {
  const app = await build(t, { noReady: true, env: { CAPTCHA_PROVIDER: 'off' } });
  app.post('/test/checkout', async (request) => {
    await app.captcha.verify(captchaTokenOf(request), request.ip);
    return { accepted: true };
  });
  await app.ready();
  expect((await app.inject({ method: 'POST', url: '/test/checkout', payload: {} })).statusCode).toBe(200);
  expect(
    (await app.inject({ method: 'POST', url: '/test/checkout', payload: { captchaToken: 'whatever' } })).statusCode,
  ).toBe(200);
});
