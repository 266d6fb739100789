import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { newId } from '../../src/lib/ids.js';

describe('newId', () => {
  it('makes version-7 UUIDs that the order schemas accept', () => {
    const id = newId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(z.uuid().safeParse(id).success).toBe(true);
  });

  it('sorts ids in the order they were made, also within one millisecond (append-only index)', () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('starts with the current time in milliseconds', () => {
    const before = Date.now();
    const id = newId();
    const ms = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 1);
  });
});

describe('newId from its random pool', () => {
  it('ids past several pool refills stay distinct, ordered and random in their last 62 bits', () => {
    const ids = Array.from({ length: 2000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // The node part (last 12 hex digits) comes from the pool: no two alike, no run of zeros.
    const tails = ids.map((id) => id.slice(-12));
    expect(new Set(tails).size).toBe(tails.length);
    expect(tails.filter((t) => t === '000000000000')).toHaveLength(0);
  });
});
