/**
 * Many cold previews at once (the render queue): a request whose render cannot start within
 * IMAGE_QUEUE_TIMEOUT_MS gets 503 BUSY with Retry-After in the error shape, over a real
 * socket, and no connection is reset or left waiting; the server serves them again once
 * the burst is over (docs/contract.md, "Finding one's photos, and intake").
 */
import { copyFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { build } from '../helpers/build.js';
import { writeEventJson, writePhoto } from '../support/photos-fixtures.js';

const PHOTOS = 16;

test('a cold-preview burst: 200 or 503 BUSY with Retry-After, never a reset connection', {
  timeout: 120_000,
}, async (t) => {
  const app = await build(t, {
    env: { IMAGE_QUEUE_TIMEOUT_MS: '250', INTAKE_INSPECT: 'off', IMAGE_MEMORY_CACHE_MB: '0', PREVIEW_SIZE: '1600' },
  });
  const root = path.join(app.dataDir, 'photos');
  await writeEventJson(root, 'Con', {});
  // A noisy 2400 x 1600 original: a preview of it takes a core for a good while.
  const noise = Buffer.alloc(2400 * 1600 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const original = await sharp(noise, { raw: { width: 2400, height: 1600, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
  const first = await writePhoto(root, ['Con', 'D', 'S', 'p00.jpg'], original);
  for (let i = 1; i < PHOTOS; i++)
    await copyFile(first, path.join(path.dirname(first), `p${String(i).padStart(2, '0')}.jpg`));
  await app.photos.rescan();
  const photos = app.photos.photosOf('Con') ?? [];
  expect(photos).toHaveLength(PHOTOS);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;

  const url = (id: string) => `http://127.0.0.1:${port}/api/preview/Con/${id}`;
  const answers = await Promise.all(
    photos.map(async (p) => {
      const res = await fetch(url(p.id), { signal: AbortSignal.timeout(100_000) });
      const body = Buffer.from(await res.arrayBuffer());
      return { id: p.id, status: res.status, retryAfter: res.headers.get('retry-after'), body };
    }),
  );
  const busy = answers.filter((a) => a.status === 503);
  for (const a of answers) expect([200, 503]).toContain(a.status);
  expect(busy.length).toBeGreaterThan(0);
  expect(answers.some((a) => a.status === 200)).toBe(true);
  for (const a of busy) {
    expect(Number(a.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(a.body.toString())).toMatchObject({
      code: 'BUSY',
      error: expect.any(String),
      details: expect.any(String),
    });
  }
  // Once the burst is over, a refused one is served.
  const again = await fetch(url((busy[0] as { id: string }).id));
  expect(again.status).toBe(200);
  expect(again.headers.get('content-type')).toBe('image/jpeg');
});
