import { describe, expect, test } from 'vitest';
import {
  newPhotoCode,
  PHOTO_CODE_LENGTH,
  parsePhotoCode,
  photoCodeFromQr,
  photoCodeUrl,
} from '../../src/domain/photo-code.js';

describe('photo codes', () => {
  test('new codes: 8 Crockford base32 characters, random, and they parse to themselves', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const code = newPhotoCode();
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
      expect(parsePhotoCode(code)).toBe(code);
      seen.add(code);
    }
    expect(seen.size).toBe(500);
    expect(PHOTO_CODE_LENGTH).toBe(8);
    // All 40 bits are used: all-ones bytes give the last letter everywhere.
    expect(newPhotoCode(() => new Uint8Array([255, 255, 255, 255, 255]))).toBe('ZZZZZZZZ');
    expect(newPhotoCode(() => new Uint8Array(5))).toBe('00000000');
  });

  test('typed codes: any case, I and L read as 1, O as 0, hyphens and spaces ignored; others refused', () => {
    expect(parsePhotoCode('abcd-efgh')).toBe('ABCDEFGH');
    expect(parsePhotoCode('ilo0 1234')).toBe('11001234');
    expect(parsePhotoCode('ABCDEFG')).toBeUndefined(); // too short
    expect(parsePhotoCode('ABCDEFGHJ')).toBeUndefined(); // too long
    expect(parsePhotoCode('ABCDEFGU')).toBeUndefined(); // U is not in the alphabet
    expect(parsePhotoCode('ABCD/FGH')).toBeUndefined();
    expect(parsePhotoCode('A'.repeat(100))).toBeUndefined();
  });

  test('QR payloads: the /me/<code> URL on any host, or the bare code; anything else is no code', () => {
    const url = photoCodeUrl('https://photos.example/', 'ABCD2345');
    expect(url).toBe('https://photos.example/me/ABCD2345');
    expect(photoCodeFromQr(url)).toBe('ABCD2345');
    expect(photoCodeFromQr('http://192.168.1.5:3000/me/abcd2345/')).toBe('ABCD2345');
    expect(photoCodeFromQr('abcd2345')).toBe('ABCD2345');
    expect(photoCodeFromQr('https://anime-expo.example/schedule')).toBeUndefined();
    expect(photoCodeFromQr('https://x.example/me/NOTACODE!')).toBeUndefined();
    expect(photoCodeFromQr('WIFI:S:con;T:WPA;P:secret;;')).toBeUndefined();
  });
});
