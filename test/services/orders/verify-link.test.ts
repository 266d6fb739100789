import { describe, expect, test } from 'vitest';
import { createLinkSigner, VERIFY_PATH } from '../../../src/services/orders/verify-link.js';

const SECRET = 'a-link-secret-of-enough-length-1234';
const ID = '0a9b1ad8-7d11-43f1-8ec3-9c9883b1bf79';
const EXPIRES = new Date('2026-07-05T12:00:00.000Z');

describe('confirmation links', () => {
  test('a signed token checks out, with the order id and the expiry in whole seconds', () => {
    const links = createLinkSigner(SECRET, 'https://shop.example');
    const token = links.token(ID, new Date(EXPIRES.getTime() + 999));
    expect(token).toMatch(/^[0-9a-f-]{36}\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(links.check(token)).toEqual({ ok: true, orderId: ID, expiresAt: EXPIRES });
    expect(links.url(ID, EXPIRES)).toBe(`https://shop.example${VERIFY_PATH}?token=${links.token(ID, EXPIRES)}`);
    // Everything in the token is URL-safe: encoding it changes nothing.
    expect(encodeURIComponent(token)).toBe(token);
  });

  test('any change to the id, the expiry or the MAC, or another secret, fails the signature', () => {
    const links = createLinkSigner(SECRET, 'https://shop.example');
    const token = links.token(ID, EXPIRES);
    const [id, exp, mac] = token.split('.') as [string, string, string];
    const otherId = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
    const later = String(Number(exp) + 86_400);
    const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
    for (const forged of [`${otherId}.${exp}.${mac}`, `${id}.${later}.${mac}`, `${id}.${exp}.${flipped}`]) {
      expect(links.check(forged)).toEqual({ ok: false, reason: 'signature' });
    }
    const other = createLinkSigner(`${SECRET}-other`, 'https://shop.example');
    expect(other.check(token)).toEqual({ ok: false, reason: 'signature' });
  });

  test('the last MAC character has spare bits: another spelling of the same bytes is refused', () => {
    const links = createLinkSigner(SECRET, 'https://shop.example');
    const token = links.token(ID, EXPIRES);
    const last = token.at(-1) as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const i = alphabet.indexOf(last);
    const twin = alphabet[(i & ~3) + ((i & 3) === 0 ? 1 : 0)] as string; // same top 4 bits
    const respelled = `${token.slice(0, -1)}${twin}`;
    expect(Buffer.from(respelled.split('.')[2] as string, 'base64url')).toEqual(
      Buffer.from(token.split('.')[2] as string, 'base64url'),
    );
    expect(links.check(respelled)).toEqual({ ok: false, reason: 'signature' });
  });

  test('malformed tokens are refused without a signature check', () => {
    const links = createLinkSigner(SECRET, 'https://shop.example');
    const token = links.token(ID, EXPIRES);
    for (const bad of [
      undefined,
      '',
      'abc',
      `${token}.x`,
      token.slice(0, -1),
      `x${token}`,
      token.replace(/\./g, '-'),
    ]) {
      expect(links.check(bad)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  test('a short secret is refused', () => {
    expect(() => createLinkSigner('short', 'https://shop.example')).toThrow(/16 characters/);
  });
});
