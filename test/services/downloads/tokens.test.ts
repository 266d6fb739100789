import { describe, expect, test } from 'vitest';
import { createDownloadLinkSigner } from '../../../src/services/downloads/tokens.js';

const ORDER = '6f1c2a3e-0d4b-4c5a-9e8f-123456789abc';
const signer = createDownloadLinkSigner('a-secret-of-some-length', 'https://photos.example');
const later = new Date('2030-01-01T00:00:00Z');
const now = new Date('2029-12-01T00:00:00Z');

describe('download links', () => {
  test('a signed link carries the order, the line and the expiry, and checks', () => {
    const url = signer.url(ORDER, 3, later);
    expect(url).toMatch(/^https:\/\/photos\.example\/api\/downloads\/[0-9a-f-]{36}\.3\.\d+\.[A-Za-z0-9_-]{43}$/);
    const token = url.split('/').pop() as string;
    expect(signer.check(token, now)).toEqual({ ok: true, orderId: ORDER, line: 3, expiresAt: later });
  });

  test('expired, altered, forged or malformed links are refused, each with its reason', () => {
    const token = signer.token(ORDER, 1, later);
    const [id, line, expires, mac] = token.split('.') as [string, string, string, string];
    expect(signer.check(token, later)).toEqual({ ok: false, reason: 'expired' });
    expect(signer.check([id, '2', expires, mac].join('.'), now)).toEqual({ ok: false, reason: 'signature' });
    expect(signer.check([id, line, String(Number(expires) + 1), mac].join('.'), now)).toEqual({
      ok: false,
      reason: 'signature',
    });
    const other = createDownloadLinkSigner('another-secret-entirely', 'https://photos.example');
    expect(other.check(token, now)).toEqual({ ok: false, reason: 'signature' });
    for (const bad of ['', 'x', `${token}.`, token.replace(/\./g, '/'), `${id}.0001.${expires}.${mac}`]) {
      expect(signer.check(bad, now).ok, bad).toBe(false);
    }
  });

  test('lines are 1 to 999; short secrets are refused', () => {
    expect(() => signer.token(ORDER, 0, later)).toThrow(RangeError);
    expect(() => createDownloadLinkSigner('short', 'x')).toThrow();
  });
});
