/** routes/common/content-encoding.ts: reading `Accept-Encoding` for gzip. */
import { expect, test } from 'vitest';
import { acceptsGzip } from '../../src/lib/content-encoding.js';

test('Accept-Encoding parsing', () => {
  expect(acceptsGzip(undefined)).toBe(false);
  expect(acceptsGzip('')).toBe(false);
  expect(acceptsGzip('gzip')).toBe(true);
  expect(acceptsGzip('GZIP, deflate')).toBe(true);
  expect(acceptsGzip('deflate, gzip;q=0.5')).toBe(true);
  expect(acceptsGzip('gzip;q=0')).toBe(false);
  expect(acceptsGzip('gzip; q=0.000')).toBe(false);
  expect(acceptsGzip('br')).toBe(false);
  expect(acceptsGzip('*')).toBe(true);
  expect(acceptsGzip('*;q=0')).toBe(false);
  expect(acceptsGzip('*, gzip;q=0')).toBe(false);
  expect(acceptsGzip('identity')).toBe(false);
});
