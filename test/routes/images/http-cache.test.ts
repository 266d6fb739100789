import { expect, test } from 'vitest';
import { imageHeaders } from '../../../src/routes/images/http-cache.js';
import type { ServedImage } from '../../../src/services/images/types.js';

const etag = '"t0123456789abcdef0123456789abcdef"';

test('headers are made once per image and differ by versioned URL and 304', () => {
  const img: ServedImage = { kind: 'thumbnail', format: 'jpeg', body: Buffer.from('x'), etag, version: 'v1' };
  const ok = imageHeaders(img, true, false);
  expect(ok).toEqual({
    etag,
    'cache-control': 'public, max-age=31536000, immutable',
    vary: 'Accept',
    'content-type': 'image/jpeg',
    'x-content-type-options': 'nosniff',
  });
  expect(imageHeaders(img, true, false)).toBe(ok); // the same object: no per-request work
  expect(imageHeaders(img, false, false)['cache-control']).toBe('public, max-age=300');
  expect(imageHeaders(img, false, true)).toEqual({ etag, 'cache-control': 'public, max-age=300', vary: 'Accept' });
  const webp = imageHeaders({ ...img, format: 'webp' }, true, false);
  expect(webp['content-type']).toBe('image/webp');
});
