/**
 * The streamed ZIP (src/services/prints/zip.ts) with synthetic entries: order and content,
 * `errors.txt`, and the two promises that keep a server's memory flat: a reader that stops
 * reading stops the renders a few entries ahead, and a reader that goes away stops them all.
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, test } from 'vitest';
import { streamZip } from '../../../src/services/prints/zip.js';
import { readZip, text } from '../../support/fulfilment-fixtures.js';
import { waitFor } from '../../support/photos-fixtures.js';

const MB = 1024 * 1024;

/** `count` entries of `size` random bytes; records which were asked for. */
function source(count: number, size: number, fail: (i: number) => boolean = () => false) {
  const bodies = Array.from({ length: count }, () => randomBytes(size));
  const asked: number[] = [];
  return {
    bodies,
    asked,
    count,
    name: (i: number) => `file-${String(i).padStart(3, '0')}.jpg`,
    body: async (i: number) => {
      asked.push(i);
      await new Promise((r) => setTimeout(r, 1));
      if (fail(i)) throw new Error(`entry ${i} is broken`);
      return bodies[i] as Buffer;
    },
  };
}

describe('streamZip', () => {
  test('every entry in order, byte for byte, stored uncompressed', async () => {
    const src = source(7, 300_000);
    const zip = await buffer(await streamZip(src, { window: 3 }));
    const { names, files } = readZip(zip);
    expect(names).toEqual(src.bodies.map((_, i) => src.name(i)));
    src.bodies.forEach((b, i) => {
      expect(Buffer.from(files[src.name(i)] as Uint8Array).equals(b)).toBe(true);
    });
    // Stored: the archive is the data plus headers, not less.
    expect(zip.length).toBeGreaterThan(7 * 300_000);
    expect(zip.length).toBeLessThan(7 * 300_000 + 4096);
  });

  test('entries that fail, and problems known beforehand, are listed in errors.txt; the rest are there', async () => {
    const src = source(4, 1000, (i) => i === 2);
    const failures: string[] = [];
    const zip = await buffer(
      await streamZip(src, {
        window: 2,
        known: [{ name: 'AX26-0001_99_4x6_x1.jpg', reason: 'photo #99 is no longer in the photo library' }],
        onFailure: (name) => failures.push(name),
      }),
    );
    const { names, files } = readZip(zip);
    expect(names).toEqual(['file-000.jpg', 'file-001.jpg', 'file-003.jpg', 'errors.txt']);
    const errors = text(files['errors.txt']);
    expect(errors).toContain('2 print files are missing from this ZIP');
    expect(errors).toContain('AX26-0001_99_4x6_x1.jpg: photo #99 is no longer in the photo library');
    expect(errors).toContain('file-002.jpg: entry 2 is broken');
    expect(failures).toEqual(['file-002.jpg']);
  });

  test('no errors.txt when everything rendered', async () => {
    const { names } = readZip(await buffer(await streamZip(source(2, 10), { window: 2 })));
    expect(names).toEqual(['file-000.jpg', 'file-001.jpg']);
  });

  test('a reader that stops reading holds the renders to the window: nothing is rendered far ahead', async () => {
    const src = source(40, 2 * MB);
    const zip = await streamZip(src, { window: 3 });
    // Read the first megabyte, then nothing.
    let got = 0;
    await new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        got += chunk.length;
        if (got >= MB) {
          zip.off('data', onData);
          zip.pause();
          resolve();
        }
      };
      zip.on('data', onData);
    });
    await new Promise((r) => setTimeout(r, 300));
    // The entry being written, the window after it, and no more.
    expect(src.asked.length).toBeLessThanOrEqual(1 + 3 + 1);
    // Reading again finishes the archive with every entry.
    const rest: Buffer[] = [];
    zip.on('data', (c: Buffer) => rest.push(c));
    zip.resume();
    await new Promise((r) => zip.once('end', r));
    expect(src.asked).toHaveLength(40);
  });

  test('a reader that goes away stops the renders: none starts after the stream is destroyed', async () => {
    const src = source(40, MB);
    const zip: Readable = await streamZip(src, { window: 3 });
    await new Promise<void>((resolve) => zip.once('data', () => resolve()));
    zip.destroy();
    await waitFor(() => zip.destroyed, 2000, 'destroyed');
    const after = src.asked.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(src.asked.length).toBe(after);
    expect(after).toBeLessThanOrEqual(5);
  });
});
