import { expect, test } from 'vitest';
import { etagMatches } from '../../../src/routes/common/etag.js';

const etag = '"t0123456789abcdef0123456789abcdef"';

test('If-None-Match: exact, weak, listed or * match; others do not', () => {
  expect(etagMatches(etag, etag)).toBe(true);
  expect(etagMatches(`W/${etag}`, etag)).toBe(true);
  expect(etagMatches(`"a", ${etag} , "b"`, etag)).toBe(true);
  expect(etagMatches('*', etag)).toBe(true);
  expect(etagMatches(undefined, etag)).toBe(false);
  expect(etagMatches('', etag)).toBe(false);
  expect(etagMatches(etag.slice(1, -1), etag)).toBe(false); // unquoted is another tag
  expect(etagMatches('"t0123"', etag)).toBe(false);
});
