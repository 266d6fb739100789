/**
 * ALTCHA end to end: challenges from GET /api/captcha/challenge, solved for real with
 * altcha-lib's solver, sent the way the widget sends them, to a throwaway route that
 * checks them the way the order routes do.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { captchaTokenOf } from '../../../src/services/captcha/token.js';
import { adminHeaders, build } from '../../helpers/build.js';
import { altchaToken, encodeAltcha, makeChallenge, solveAltcha } from '../../support/captcha-altcha.js';

const errorBody = z.strictObject({ error: z.string(), code: z.string(), details: z.string() });
const HMAC_KEY = 'test-altcha-hmac-key-0123456789';
type T = Parameters<typeof build>[0];

async function appWithCheckout(t: T, env: Record<string, string> = {}) {
  const app = await build(t, {
    noReady: true,
    env: { ALTCHA_MAX_NUMBER: '2000', ALTCHA_HMAC_KEY: HMAC_KEY, ...env },
  });
  app.post('/test/checkout', async (request) => {
    if (!app.adminAuth.isAdmin(request)) await app.captcha.verify(captchaTokenOf(request), request.ip);
    return { accepted: true };
  });
  await app.ready();
  const challenge = async () => {
    const res = await app.inject({ url: '/api/captcha/challenge' });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const submit = (token?: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/test/checkout',
      headers,
      payload: token === undefined ? {} : { captchaToken: token },
    });
  return { app, challenge, submit };
}

function expectError(res: { statusCode: number; json: () => unknown }, status: number, code: string): string {
  expect(res.statusCode).toBe(status);
  const body = errorBody.parse(res.json());
  expect(body.code).toBe(code);
  return body.details;
}

describe('ALTCHA', () => {
  test('a solved challenge is accepted once, then refused as replayed', async (t) => {
    const { challenge, submit } = await appWithCheckout(t);
    const token = await altchaToken(await challenge());
    const first = await submit(token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ accepted: true });
    expect(expectError(await submit(token), 403, 'CAPTCHA_FAILED')).toMatch(/already been used/);
  });

  test('concurrent submissions of one token: exactly one is accepted', async (t) => {
    const { challenge, submit } = await appWithCheckout(t);
    const token = await altchaToken(await challenge());
    const results = await Promise.all(Array.from({ length: 8 }, () => submit(token)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 403)).toHaveLength(7);
  });

  test('the token may come in the X-Captcha-Token header', async (t) => {
    const { challenge, submit } = await appWithCheckout(t);
    const token = await altchaToken(await challenge());
    expect((await submit(undefined, { 'x-captcha-token': token })).statusCode).toBe(200);
  });

  test('missing or empty token: 400 CAPTCHA_REQUIRED', async (t) => {
    const { submit } = await appWithCheckout(t);
    expectError(await submit(), 400, 'CAPTCHA_REQUIRED');
    expectError(await submit(''), 400, 'CAPTCHA_REQUIRED');
    expectError(await submit('   '), 400, 'CAPTCHA_REQUIRED');
  });

  test('admin credentials replace the CAPTCHA', async (t) => {
    const { submit } = await appWithCheckout(t);
    expect((await submit(undefined, adminHeaders)).statusCode).toBe(200);
  });

  test('the secret number is drawn uniformly from the whole configured range (round 2)', async (t) => {
    // Before round 2 it came from the upper half only, so a solver that started there was done
    // 3–10× sooner than the configured difficulty. The solution's counter is the secret: solve
    // many challenges and look where the counters fall (120 draws from [0, 1000]).
    const { challenge } = await appWithCheckout(t, { ALTCHA_MAX_NUMBER: '1000', RATE_LIMIT_CAPTCHA_PER_MIN: '1000' });
    const counters: number[] = [];
    for (let i = 0; i < 120; i++) counters.push((await solveAltcha(await challenge())).solution.counter);
    expect(Math.max(...counters)).toBeLessThanOrEqual(1000);
    const below = (n: number) => counters.filter((c) => c < n).length;
    // Expected 60 below half and 30 below a quarter; uniform draws fall this far short with a
    // chance under one in a million, the old upper-half draws never reach them.
    expect(below(500)).toBeGreaterThanOrEqual(30);
    expect(below(250)).toBeGreaterThanOrEqual(10);
    expect(counters.length - below(750)).toBeGreaterThanOrEqual(10);
  });

  test('a tampered counter is refused', async (t) => {
    const { challenge, submit } = await appWithCheckout(t);
    const p = await solveAltcha(await challenge());
    const forged = { ...p, solution: { ...p.solution, counter: p.solution.counter + 1 } };
    expect(expectError(await submit(encodeAltcha(forged)), 403, 'CAPTCHA_FAILED')).toMatch(/wrong/);
    // the genuine solution still works afterwards: forgeries do not spend it
    expect((await submit(encodeAltcha(p))).statusCode).toBe(200);
  });

  test('a tampered derived key is refused', async (t) => {
    const { challenge, submit } = await appWithCheckout(t);
    const p = await solveAltcha(await challenge());
    const key = p.solution.derivedKey;
    const flipped = (key[0] === '0' ? '1' : '0') + key.slice(1);
    const forged = { ...p, solution: { ...p.solution, derivedKey: flipped } };
    expectError(await submit(encodeAltcha(forged)), 403, 'CAPTCHA_FAILED');
  });

  test('a tampered signature is refused', async (t) => {
    const { challenge, submit } = await appWithCheckout(t);
    const p = await solveAltcha(await challenge());
    const sig = p.challenge.signature as string;
    const forged = {
      ...p,
      challenge: { ...p.challenge, signature: (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1) },
    };
    expect(expectError(await submit(encodeAltcha(forged)), 403, 'CAPTCHA_FAILED')).toMatch(/not issued here|altered/);
  });

  test('altered parameters (an easier challenge, a later expiry) are refused', async (t) => {
    const { challenge, submit } = await appWithCheckout(t);
    const c = await challenge();
    const easier = { ...c, parameters: { ...c.parameters, keyPrefix: c.parameters.keyPrefix.slice(0, 1) } };
    // Solving the altered challenge is easy, but its signature no longer matches.
    const forgedEasy = await solveAltcha(easier);
    expectError(await submit(encodeAltcha(forgedEasy)), 403, 'CAPTCHA_FAILED');
    const p = await solveAltcha(c);
    const later = {
      ...p,
      challenge: {
        ...p.challenge,
        parameters: { ...p.challenge.parameters, expiresAt: c.parameters.expiresAt + 3600 },
      },
    };
    expectError(await submit(encodeAltcha(later)), 403, 'CAPTCHA_FAILED');
  });

  test('a challenge signed with another key is refused', async (t) => {
    const { submit } = await appWithCheckout(t);
    const foreign = await altchaToken(await makeChallenge('somebody-elses-hmac-key-000000'));
    expect(expectError(await submit(foreign), 403, 'CAPTCHA_FAILED')).toMatch(/not issued here/);
  });

  test('an expired challenge is refused, even though it is genuine and solved', async (t) => {
    const { submit } = await appWithCheckout(t);
    const expired = await altchaToken(await makeChallenge(HMAC_KEY, { expiresAt: Math.floor(Date.now() / 1000) - 5 }));
    expect(expectError(await submit(expired), 403, 'CAPTCHA_FAILED')).toMatch(/expired/);
    // The same construction, unexpired, passes: the refusal above is the expiry alone.
    const fresh = await altchaToken(await makeChallenge(HMAC_KEY));
    expect((await submit(fresh)).statusCode).toBe(200);
  });

  test('garbage, the widget test-mode payload, and oversized tokens are refused with 403', async (t) => {
    const { submit } = await appWithCheckout(t);
    for (const token of [
      'not base64 at all !!',
      encodeAltcha({ hello: 'world' }),
      encodeAltcha({ challenge: null, solution: null, test: true }),
      encodeAltcha([1, 2, 3]),
      'x'.repeat(20_000),
    ]) {
      expectError(await submit(token), 403, 'CAPTCHA_FAILED');
    }
  });

  test('the HMAC key is generated once and kept under DATA_DIR when ALTCHA_HMAC_KEY is unset', async (t) => {
    const first = await build(t, { env: { ALTCHA_MAX_NUMBER: '1000' } });
    const token = await altchaToken((await first.inject({ url: '/api/captcha/challenge' })).json());
    await first.close();
    // A restart on the same data dir knows the key: the challenge issued before it still verifies.
    const second = await build(t, { dataDir: first.dataDir, env: { ALTCHA_MAX_NUMBER: '1000' } });
    await expect(second.captcha.verify(token, '127.0.0.1')).resolves.toBeUndefined();
  });
});
