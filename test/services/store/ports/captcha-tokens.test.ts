/** The used CAPTCHA tokens port's conformance suite (src/services/store/ports/captcha-tokens.ts), on both engines. */
import { expect, test } from 'vitest';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';

const inMinutes = (n: number) => new Date(Date.now() + n * 60_000);

describeOnEngines('captcha tokens port', (open) => {
  test('a token is spent once until it expires; a released one may be spent again', async (t) => {
    const { captchaTokens } = await open(t);
    expect(await captchaTokens.spend('h1', inMinutes(10))).toBe(true);
    expect(await captchaTokens.spend('h1', inMinutes(10))).toBe(false);
    expect(await captchaTokens.spend('h2', inMinutes(10))).toBe(true);
    await captchaTokens.release('h2');
    expect(await captchaTokens.spend('h2', inMinutes(10))).toBe(true);
    // expired: the token itself is refused elsewhere by then; here its slot is free again
    expect(await captchaTokens.spend('old', new Date(Date.now() - 1))).toBe(true);
    expect(await captchaTokens.spend('old', inMinutes(10))).toBe(true);
    expect(await captchaTokens.spend('old', inMinutes(10))).toBe(false);
  });

  test('of 20 concurrent spends of one token exactly one wins', async (t) => {
    const { captchaTokens } = await open(t);
    const results = await Promise.all(Array.from({ length: 20 }, () => captchaTokens.spend('same', inMinutes(10))));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  test('two stores on one database (two processes): a token spent in one is refused by the other', async (t) => {
    const a = await open(t);
    const spentByA = await a.captchaTokens.spend('shared', inMinutes(10));
    expect(spentByA).toBe(true);
    const b = await reopenStore(t, a);
    expect(await b.captchaTokens.spend('shared', inMinutes(10))).toBe(false);
    const race = await Promise.all([
      a.captchaTokens.spend('raced', inMinutes(10)),
      b.captchaTokens.spend('raced', inMinutes(10)),
      a.captchaTokens.spend('raced', inMinutes(10)),
      b.captchaTokens.spend('raced', inMinutes(10)),
    ]);
    expect(race.filter(Boolean)).toHaveLength(1);
  });
});
