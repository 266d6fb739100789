/**
 * The admin lists' ready bytes (src/services/order-reads/list-bytes.ts): reused while the store
 * hands out the same frozen records, rebuilt otherwise, with an ETag that is the bytes' hash.
 * The routes' own tests (test/routes/admin/lists.test.ts) cover the answers over HTTP.
 */
import { describe, expect, test } from 'vitest';
import { createOrderListBytes } from '../../../src/services/order-reads/list-bytes.js';
import { newOrder } from '../../support/store-fixtures.js';

describe('order list bytes', () => {
  const record = (n: number, over: { customerName?: string } = {}) =>
    Object.freeze({
      ...newOrder(over),
      id: `id-${n}`,
      orderNumber: `AX25-${String(n).padStart(4, '0')}`,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      status: 'pending' as const,
      shippingStatus: 'ship' as const,
      trackingNumber: '',
      feedback: '',
      version: 1,
      history: [],
      discountCents: 0,
      couponCode: null,
      payment: null,
      pickupStatus: null,
      printed: [],
    });

  test('the same frozen records give the same Buffer; a changed record rebuilds; unfrozen ones never hit', () => {
    const bytes = createOrderListBytes();
    const a = record(1);
    const b = record(2);
    const first = bytes.get('k', [a, b]);
    expect(JSON.parse(first.bytes.toString()).map((o: { id: string }) => o.id)).toEqual(['id-1', 'id-2']);
    expect(bytes.get('k', [a, b]).etag).toBe(first.etag);
    expect(bytes.get('k', [a, b]).bytes).toBe(first.bytes);
    expect(bytes.stats()).toEqual({ hits: 2, builds: 1 });

    const b2 = Object.freeze({ ...b, customerName: 'Changed' });
    const second = bytes.get('k', [a, b2]);
    expect(second.bytes).not.toBe(first.bytes);
    expect(second.etag).not.toBe(first.etag);
    expect(JSON.parse(second.bytes.toString())[1].customerName).toBe('Changed');
    expect(bytes.get('k', [b2]).bytes).not.toBe(second.bytes);
    expect(bytes.get('other', [a, b2]).bytes).not.toBe(second.bytes);

    const loose = { ...a };
    const x = bytes.get('loose', [loose]);
    const y = bytes.get('loose', [loose]);
    expect(y.bytes).not.toBe(x.bytes);
    expect(y.bytes.toString()).toBe(x.bytes.toString());
    // Rebuilt, but the same bytes: the same ETag (it is their hash, not a build number).
    expect(y.etag).toBe(x.etag);
  });

  test('a rebuild that gives the same bytes keeps the ETag; other bytes get another', () => {
    // A photo library whose generation moves (a photo added elsewhere): every list is rebuilt.
    const photos = { find: () => null, generation: 1 };
    const bytes = createOrderListBytes({ photos });
    const a = record(1);
    const first = bytes.get('k', [a]);
    photos.generation = 2;
    const rebuilt = bytes.get('k', [a]);
    expect(bytes.stats()).toEqual({ hits: 0, builds: 2 });
    expect(rebuilt.bytes).not.toBe(first.bytes);
    expect(rebuilt.etag).toBe(first.etag);
    // Another cache (a restarted server) on the same bytes: the same ETag.
    expect(createOrderListBytes({ photos }).get('other', [a]).etag).toBe(first.etag);

    const changed = bytes.get('k', [record(1, { customerName: 'Changed' })]);
    expect(changed.etag).not.toBe(first.etag);
    expect(changed.etag).toMatch(/^"ol-[\w-]+"$/);
  });
});
