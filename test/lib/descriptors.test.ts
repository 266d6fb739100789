/** lib/descriptors.ts: the descriptor limit read from /proc/self/limits, and the cap derived from it. */
import { describe, expect, test } from 'vitest';
import { connectionCap, descriptorLimit } from '../../src/lib/descriptors.js';

const limits = (soft: string, hard = soft) =>
  [
    'Limit                     Soft Limit           Hard Limit           Units     ',
    'Max processes             unlimited            unlimited            processes ',
    `Max open files            ${soft.padEnd(20)} ${hard.padEnd(20)} files     `,
    'Max locked memory         8388608              8388608              bytes     ',
  ].join('\n');

describe('descriptorLimit', () => {
  test('the soft limit of "Max open files"', () => {
    expect(descriptorLimit(() => limits('4096', '1048576'))).toBe(4096);
  });

  test('unknown when unlimited, unreadable or absent', () => {
    expect(descriptorLimit(() => limits('unlimited'))).toBeUndefined();
    expect(
      descriptorLimit(() => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
    expect(descriptorLimit(() => 'nothing here')).toBeUndefined();
  });

  test('this process: a number on Linux', () => {
    if (process.platform === 'linux') expect(descriptorLimit()).toBeGreaterThan(0);
    else expect(descriptorLimit()).toBeUndefined();
  });
});

describe('connectionCap', () => {
  const pool = { DATABASE_POOL_SIZE: 10 };

  test.each([
    [256, 128], // half the limit: the reserve alone would leave too little
    [512, 374], // 512 - (128 + 10)
    [1024, 758], // 1024 - (256 + 10)
    [20_000, 18_966], // 20000 - (1024 + 10)
    [1_048_576, 1_047_542],
  ])('limit %i: at most %i connections', (limit, max) => {
    expect(connectionCap(pool, limit)).toEqual({ max, limit, source: 'descriptor limit', aboveSafe: false });
  });

  test('MAX_CONNECTIONS wins, and one that leaves too little is flagged', () => {
    expect(connectionCap({ ...pool, MAX_CONNECTIONS: 300 }, 1024)).toMatchObject({ max: 300, aboveSafe: false });
    expect(connectionCap({ ...pool, MAX_CONNECTIONS: 1000 }, 1024)).toMatchObject({ max: 1000, aboveSafe: true });
    expect(connectionCap({ ...pool, MAX_CONNECTIONS: 50 }, undefined)).toMatchObject({
      max: 50,
      source: 'MAX_CONNECTIONS',
    });
  });

  test('no limit known and none set: no cap', () => {
    expect(connectionCap(pool, undefined)).toEqual({
      max: undefined,
      limit: undefined,
      source: 'none',
      aboveSafe: false,
    });
  });
});
