/**
 * POST /api/finder (a new photo code: CAPTCHA or admin, rate limited) and the booth's card
 * sheet GET /api/finder/cards.pdf, through the whole app; the QR the answer carries, and the
 * one the cards are drawn from, are read back with the intake's own QR reader.
 */
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { qrModules } from '../../../src/services/finder/issue.js';
import { readQrTexts } from '../../../src/services/intake/qr.js';
import { adminHeaders, build } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { ORDER_TEST_ENV, solvedCaptcha } from '../../support/orders-fixtures.js';
import { writeEventJson, writePhoto } from '../../support/photos-fixtures.js';
import { makeFrame } from '../../support/qr-frames.js';

const CODE = /^[0-9A-HJKMNP-TV-Z]{8}$/;

async function readSvgQr(svg: string): Promise<string[]> {
  const { data, info } = await sharp(Buffer.from(svg), { density: 300 })
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return readQrTexts(data, info.width, info.height);
}

describe('POST /api/finder', () => {
  test('with a solved CAPTCHA: 201 { code, url, qrSvg }, the QR holds the url, the code is known at once', async (t) => {
    const app = await build(t, { env: ORDER_TEST_ENV });
    const missing = await app.inject({ method: 'POST', url: '/api/finder', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('CAPTCHA_REQUIRED');
    expectMatchesOpenApi('POST', '/api/finder', missing);

    const token = await solvedCaptcha(app);
    const res = await app.inject({ method: 'POST', url: '/api/finder', payload: { captchaToken: token } });
    expect(res.statusCode).toBe(201);
    expectMatchesOpenApi('POST', '/api/finder', res);
    const { code, url, qrSvg } = res.json();
    expect(code).toMatch(CODE);
    expect(url).toBe(`http://photos.test/me/${code}`);
    expect(await readSvgQr(qrSvg)).toEqual([url]);
    expect(await app.store.photoCodes.get(code)).toMatchObject({ issuedVia: 'app' });

    const found = await app.inject({ url: `/api/finder/${code.toLowerCase()}` });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({ code, photos: [] });

    // A CAPTCHA solution is good once; the header works as well as the body.
    const again = await app.inject({ method: 'POST', url: '/api/finder', headers: { 'x-captcha-token': token } });
    expect(again.statusCode).toBe(403);
    expect(again.json().code).toBe('CAPTCHA_FAILED');
    const bad = await app.inject({ method: 'POST', url: '/api/finder', payload: { captchaToken: 'nonsense' } });
    expect(bad.statusCode).toBe(403);
  });

  test('admin credentials instead of a CAPTCHA, no body needed; admins are not rate limited', async (t) => {
    const app = await build(t, { env: { ...ORDER_TEST_ENV, RATE_LIMIT_CODES_PER_MIN: '1' } });
    const codes = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'POST', url: '/api/finder', headers: adminHeaders });
      expect(res.statusCode).toBe(201);
      codes.add(res.json().code);
    }
    expect(codes.size).toBe(3);
    expect(await app.store.photoCodes.get([...codes][0] as string)).toMatchObject({ issuedVia: 'admin' });
    const wrong = await app.inject({ method: 'POST', url: '/api/finder', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
  });

  test('rate limited per client address (RATE_LIMIT_CODES_PER_MIN): 429 with Retry-After', async (t) => {
    const app = await build(t, { env: { CAPTCHA_PROVIDER: 'off', RATE_LIMIT_CODES_PER_MIN: '2' } });
    const post = () => app.inject({ method: 'POST', url: '/api/finder', remoteAddress: '203.0.113.7' });
    expect((await post()).statusCode).toBe(201);
    expect((await post()).statusCode).toBe(201);
    const limited = await post();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expectMatchesOpenApi('POST', '/api/finder', limited);
    // Another address has its own count.
    const other = await app.inject({ method: 'POST', url: '/api/finder', remoteAddress: '203.0.113.8' });
    expect(other.statusCode).toBe(201);
  });

  test('a code never issued is unknown (404 CODE_NOT_FOUND), however written, even when a frame shows it', async (t) => {
    const app = await build(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const root = path.join(app.dataDir, 'photos');
    await writeEventJson(root, 'Con', { name: 'Con 2026' });
    const frame = { width: 1200, height: 800, takenAt: '2026:07:03 14:00:00', seed: 3 };
    await writePhoto(
      root,
      ['Con', 'Sat', 'Hall', 'IMG_0100.jpg'],
      await makeFrame({ ...frame, payload: 'http://photos.test/me/K7M2Q9TX', qrFraction: 0.35 }),
    );
    await writePhoto(
      root,
      ['Con', 'Sat', 'Hall', 'IMG_0101.jpg'],
      await makeFrame({ ...frame, payload: '', qrFraction: 0, takenAt: '2026:07:03 14:00:10' }),
    );
    await app.photos.rescan();
    expect(app.photos.photosForCode('K7M2Q9TX')).toHaveLength(1); // the library did read it
    for (const code of ['K7M2Q9TX', 'k7m2-q9tx']) {
      const res = await app.inject({ url: `/api/finder/${code}` });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('CODE_NOT_FOUND');
    }
  });
});

type PdfText = { pages: number; size: [number, number]; text: string[] };

async function pdfText(pdf: Buffer): Promise<PdfText> {
  const doc = await getDocument({ data: new Uint8Array(pdf), disableFontFace: true, verbosity: 0 }).promise;
  const text: string[] = [];
  let size: [number, number] = [0, 0];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const { width, height } = page.getViewport({ scale: 1 });
    size = [Math.round(width), Math.round(height)];
    for (const item of (await page.getTextContent()).items) if ('str' in item && item.str.trim()) text.push(item.str);
  }
  return { pages: doc.numPages, size, text };
}

describe('GET /api/finder/cards.pdf', () => {
  test('admin only; count cards, ten a page, each a fresh code with its URL; the QR they are drawn from reads back', async (t) => {
    const app = await build(t, { env: { RATE_LIMIT_LOOKUP_PER_MIN: '1000' } });
    const anon = await app.inject({ url: '/api/finder/cards.pdf?count=2' });
    expect(anon.statusCode).toBe(401);
    expectMatchesOpenApi('GET', '/api/finder/cards.pdf', anon);
    const badCount = await app.inject({ url: '/api/finder/cards.pdf?count=0', headers: adminHeaders });
    expect(badCount.statusCode).toBe(400);

    const res = await app.inject({ url: '/api/finder/cards.pdf?count=12', headers: adminHeaders });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="photo-code-cards-12.pdf"');
    expect(res.headers['cache-control']).toBe('no-store');
    const pdf = await pdfText(res.rawPayload);
    expect(pdf.pages).toBe(2);
    expect(pdf.size).toEqual([612, 792]);
    const urls = pdf.text.filter((s) => s.startsWith('http://photos.test/me/'));
    expect(urls).toHaveLength(12);
    const codes = urls.map((u) => u.slice(-8));
    expect(new Set(codes).size).toBe(12);
    // Each printed as XXXX-XXXX too, and issued as a card.
    for (const code of codes) {
      expect(pdf.text).toContain(`${code.slice(0, 4)}-${code.slice(4)}`);
      expect(await app.store.photoCodes.get(code)).toMatchObject({ issuedVia: 'card' });
      expect((await app.inject({ url: `/api/finder/${code}` })).statusCode).toBe(200);
    }

    const a4 = await app.inject({ url: '/api/finder/cards.pdf?count=1&paper=a4', headers: adminHeaders });
    expect((await pdfText(a4.rawPayload)).size).toEqual([595, 842]);

    // The modules the card draws, as pixels (8 px each, a white margin), read by the intake's reader.
    const url = urls[0] as string;
    const qr = await qrModules(url);
    const px = 8;
    const side = (qr.size + 8) * px;
    const rgba = Buffer.alloc(side * side * 4, 255);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const row = Math.floor(y / px) - 4;
        const col = Math.floor(x / px) - 4;
        if (row >= 0 && col >= 0 && row < qr.size && col < qr.size && qr.dark(row, col)) {
          rgba.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
        }
      }
    }
    expect(await readQrTexts(rgba, side, side)).toEqual([url]);
  });
});
