import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { adminHeaders, build } from '../../helpers/build.js';
import { altchaToken, solveAltcha } from '../../support/captcha-altcha.js';

const errorBody = z.strictObject({ error: z.string(), code: z.string(), details: z.string() });

describe('GET /api/captcha/challenge', () => {
  test('altcha: a fresh signed challenge the widget can solve, never cached', async (t) => {
    const app = await build(t, { env: { ALTCHA_MAX_NUMBER: '5000', ALTCHA_EXPIRES_S: '120' } });
    // The challenge was made between these two readings of the clock, however long that took.
    const before = Math.floor(Date.now() / 1000);
    const res = await app.inject({ url: '/api/captcha/challenge' });
    const after = Math.floor(Date.now() / 1000);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.json();
    expect(body).toEqual({
      provider: 'altcha',
      parameters: {
        algorithm: 'SHA-256',
        nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
        salt: expect.stringMatching(/^[0-9a-f]{32}$/),
        cost: 1,
        keyLength: 32,
        keyPrefix: expect.stringMatching(/^[0-9a-f]{32}$/),
        expiresAt: expect.any(Number),
      },
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(body.parameters.expiresAt).toBeGreaterThanOrEqual(before + 120);
    expect(body.parameters.expiresAt).toBeLessThanOrEqual(after + 120);
    // Not the v1 shape: the widget 3.x treats a top-level `challenge` field as v1.
    expect(body).not.toHaveProperty('challenge');

    // What went through the response schema still verifies (no field lost or reordered).
    const token = await altchaToken(body);
    await expect(app.captcha.verify(token, '127.0.0.1')).resolves.toBeUndefined();
  });

  test('every challenge is different', async (t) => {
    const app = await build(t);
    const a = (await app.inject({ url: '/api/captcha/challenge' })).json();
    const b = (await app.inject({ url: '/api/captcha/challenge' })).json();
    expect(a.parameters.nonce).not.toBe(b.parameters.nonce);
    expect(a.signature).not.toBe(b.signature);
  });

  test('the difficulty follows ALTCHA_MAX_NUMBER: the secret counter lies in [0, max]', async (t) => {
    // Drawn uniformly from the whole range (docs/contract.md, "Hardening, round 2"); the spread is
    // tested in test/services/captcha/altcha.test.ts.
    const app = await build(t, { env: { ALTCHA_MAX_NUMBER: '2000' } });
    for (let i = 0; i < 5; i++) {
      const { solution } = await solveAltcha((await app.inject({ url: '/api/captcha/challenge' })).json());
      expect(solution.counter).toBeGreaterThanOrEqual(0);
      expect(solution.counter).toBeLessThanOrEqual(2000);
    }
  });

  test('rate limited per address (RATE_LIMIT_CAPTCHA_PER_MIN), admins exempt', async (t) => {
    const app = await build(t, { env: { RATE_LIMIT_CAPTCHA_PER_MIN: '5' } });
    for (let i = 0; i < 5; i++) expect((await app.inject({ url: '/api/captcha/challenge' })).statusCode).toBe(200);
    const res = await app.inject({ url: '/api/captcha/challenge' });
    expect(res.statusCode).toBe(429);
    expect(errorBody.parse(res.json()).code).toBe('RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await app.inject({ url: '/api/captcha/challenge', remoteAddress: '192.0.2.44' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/captcha/challenge', headers: adminHeaders })).statusCode).toBe(200);
  });

  test.for(['turnstile', 'hcaptcha', 'recaptcha'])(
    '%s: which widget to show, with its site key',
    async (provider, t) => {
      const app = await build(t, {
        env: { CAPTCHA_PROVIDER: provider, CAPTCHA_SECRET: 'secret', CAPTCHA_SITE_KEY: 'site-key-1' },
      });
      const res = await app.inject({ url: '/api/captcha/challenge' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ provider, siteKey: 'site-key-1' });
    },
  );

  test('a hosted provider without a site key says so (null)', async (t) => {
    const app = await build(t, { env: { CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SECRET: 'secret' } });
    expect((await app.inject({ url: '/api/captcha/challenge' })).json()).toEqual({
      provider: 'turnstile',
      siteKey: null,
    });
  });

  test('off: says so', async (t) => {
    const app = await build(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    expect((await app.inject({ url: '/api/captcha/challenge' })).json()).toEqual({ provider: 'off' });
  });
});
