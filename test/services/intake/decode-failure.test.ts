/** The intake panel's reason for a photo that cannot be decoded: one line in words. */
import { expect, test } from 'vitest';
import { decodeFailure } from '../../../src/services/intake/decode-failure.js';

const file = '/srv/photos/Con/Day 1/Hall/IMG_0042.jpg';

test("libvips' retry lines and the file's path are left out; its last line is the reason", () => {
  const message = [
    `${file}: bad seek to 1024`,
    `${file}: bad seek to 768`,
    `VipsJpeg: ${file}: Premature end of input file`,
    '',
  ].join('\n');
  expect(decodeFailure(message, file)).toBe('VipsJpeg: Premature end of input file');
});

test('an HEVC-coded HEIC is named, with what to do about it', () => {
  const message = `${file}: bad seek to 605\nheif: Error while loading plugin: Support for this compression format has not been built in: HEVC (a suitable decoder plugin is libde265) (11.6003)`;
  expect(decodeFailure(message, file)).toMatch(/^a HEIC photo coded with HEVC .*export it as JPEG/);
});

test('a message of one line is kept as it is, cut at 300 characters', () => {
  expect(decodeFailure('Input file contains unsupported image format', file)).toBe(
    'Input file contains unsupported image format',
  );
  expect(decodeFailure('x'.repeat(400), file)).toHaveLength(300);
});
