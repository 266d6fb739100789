/** The intake panel's reason for a photo that cannot be decoded: one line in words. */
import path from 'node:path';
import { expect, test } from 'vitest';
import { decodeFailure, HEVC_HEIC, inWords } from '../../../src/services/intake/decode-failure.js';

const file = '/srv/photos/Con/Day 1/Hall/IMG_0042.jpg';

test("libvips' retry lines and the file's path are left out; its last line is the reason", () => {
  const message = [
    `${file}: bad seek to 1024`,
    `${file}: bad seek to 768`,
    `VipsJpeg: ${file}: Premature end of input file`,
    '',
  ].join('\n');
  expect(inWords(message, file)).toBe('VipsJpeg: Premature end of input file');
});

test('a message of one line is kept as it is, cut at 300 characters; none at all is said in words', () => {
  expect(inWords('Input file contains unsupported image format', file)).toBe(
    'Input file contains unsupported image format',
  );
  expect(inWords('x'.repeat(400), file)).toHaveLength(300);
  expect(inWords('Unknown error', file)).toBe('the image library could not decode it');
  expect(inWords('', file)).toBe('the image library could not decode it');
});

test("an HEVC-coded HEIC is told from its header, whatever libvips' message was (another render's, or none)", async () => {
  const heic = path.resolve('test/fixtures/images/hevc.heic');
  expect(await decodeFailure('Unknown error', heic)).toBe(HEVC_HEIC);
  expect(HEVC_HEIC).toMatch(/HEVC.*export it as JPEG/);
  // Not a HEIC: libvips' message, in words.
  expect(await decodeFailure(`${file}: bad seek to 4\nVipsJpeg: Premature end`, file)).toBe('VipsJpeg: Premature end');
});
