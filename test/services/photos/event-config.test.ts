import { describe, expect, test } from 'vitest';
import {
  DEFAULT_PRICES_CENTS,
  DEFAULT_SHIPPING_FEE_CENTS,
  derivePrefix,
  parseEventJson,
  resolveEventDefaults,
} from '../../../src/services/photos/event-config.js';
import { eventStatus } from '../../../src/services/photos/status.js';

describe('event.json', () => {
  test('prefix: letters and digits of the folder, upper-cased, at most 8', () => {
    expect(derivePrefix('Anime Expo 2026')).toBe('ANIMEEXP');
    expect(derivePrefix('ax-25')).toBe('AX25');
    expect(derivePrefix('Café 7')).toBe('CAFE7');
    expect(derivePrefix('---')).toBe('EVENT');
  });

  test('absent file: every key derived, default prices and shipping fee, ordering off until an admin opens it', () => {
    const parsed = parseEventJson(undefined);
    expect(parsed).toEqual({ ok: true, value: undefined });
    const d = resolveEventDefaults('Otakon 2026', undefined, '2026-07-03');
    expect(d).toEqual({
      code: 'Otakon 2026',
      name: 'Otakon 2026',
      date: '2026-07-03',
      prefix: 'OTAKON20',
      prices: DEFAULT_PRICES_CENTS,
      defaultSize: '4x6',
      shippingFeeCents: DEFAULT_SHIPPING_FEE_CENTS,
      packages: [],
      earlyBird: null,
      isArchived: false,
      orderingEnabled: false,
      deadline: null,
      printSizes: {},
      showRejected: false,
      minRating: 0,
      featuredRating: 4,
      eventJson: 'absent',
    });
    expect(d.prices).toEqual({ '4x6': 500, '5x7': 1000, '8x10': 2000 });
  });

  test('orderingEnabled: a file that omits it keeps ordering on; an invalid file keeps it off', () => {
    const omitted = parseEventJson(JSON.stringify({ name: 'X' }));
    if (!omitted.ok) throw new Error('expected a valid file');
    expect(resolveEventDefaults('X', omitted.value, null, 'valid').orderingEnabled).toBe(true);
    expect(resolveEventDefaults('X', { orderingEnabled: false }, null, 'valid').orderingEnabled).toBe(false);
    expect(resolveEventDefaults('X', undefined, null, 'invalid').orderingEnabled).toBe(false);
  });

  test('full file: amounts in dollars become cents, deadline becomes UTC, listed order kept', () => {
    const parsed = parseEventJson(
      JSON.stringify({
        name: 'Anime Expo 2026',
        date: '2026-07-03',
        prefix: 'ax26',
        prices: { '8x10': 20, '4x6': 4.99, '5x7': '$10.50' },
        defaultSize: '5x7',
        shippingFee: 5.1,
        isArchived: true,
        orderingEnabled: false,
        deadline: '2026-08-01T02:00:00+02:00',
        unknownKey: 'ignored',
      }),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const d = resolveEventDefaults('AX', parsed.value, '1999-01-01');
    expect(d).toMatchObject({
      name: 'Anime Expo 2026',
      date: '2026-07-03',
      prefix: 'AX26',
      defaultSize: '5x7',
      shippingFeeCents: 510,
      isArchived: true,
      orderingEnabled: false,
      deadline: '2026-08-01T00:00:00.000Z',
    });
    expect(Object.entries(d.prices)).toEqual([
      ['8x10', 2000],
      ['4x6', 499],
      ['5x7', 1050],
    ]);
  });

  test('partial file: missing keys derived', () => {
    const parsed = parseEventJson('{"name":"Con","shippingFee":0}');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const d = resolveEventDefaults('my-con', parsed.value, null);
    expect(d).toMatchObject({ name: 'Con', prefix: 'MYCON', date: null, shippingFeeCents: 0, defaultSize: '4x6' });
  });

  test('packages (dollars to cents) and the early bird (to UTC)', () => {
    const parsed = parseEventJson(
      JSON.stringify({
        prices: { '4x6': 5, digital: 8 },
        packages: [{ size: 'digital', count: 10, price: '$50' }],
        earlyBird: { percent: 20, until: '2026-06-01T00:00:00-07:00' },
      }),
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    const d = resolveEventDefaults('con', parsed.value, null);
    expect(d.packages).toEqual([{ size: 'digital', count: 10, priceCents: 5000 }]);
    expect(d.earlyBird).toEqual({ percent: 20, until: '2026-06-01T07:00:00.000Z' });
  });

  test('printSizes: inches of other print sizes, kept as given', () => {
    const parsed = parseEventJson('{"printSizes":{"Wallet":[2.5,3.5],"Panorama":[12,4]}}');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(resolveEventDefaults('c', parsed.value, null).printSizes).toEqual({ Wallet: [2.5, 3.5], Panorama: [12, 4] });
  });

  test.each([
    ['package for a size off the list', '{"prices":{"4x6":5},"packages":[{"size":"5x7","count":2,"price":1}]}'],
    ['package that saves nothing', '{"packages":[{"size":"4x6","count":2,"price":10}]}'],
    ['package of one', '{"packages":[{"size":"4x6","count":1,"price":4}]}'],
    ['early bird over 100%', '{"earlyBird":{"percent":150,"until":"2026-06-01T00:00:00Z"}}'],
    ['early bird without a time', '{"earlyBird":{"percent":10}}'],
    ['not JSON', '{"name": '],
    ['negative price', '{"prices":{"4x6":-1}}'],
    ['fraction of a cent', '{"prices":{"4x6":1.005}}'],
    ['empty price list', '{"prices":{}}'],
    ['defaultSize not on the list', '{"prices":{"4x6":5},"defaultSize":"8x10"}'],
    ['bad date', '{"date":"03/07/2026"}'],
    ['bad deadline', '{"deadline":"tomorrow"}'],
    ['prefix too long', '{"prefix":"ABCDEFGHI"}'],
    ['wrong type', '{"isArchived":"yes"}'],
    ['print size of zero inches', '{"printSizes":{"Wallet":[0,3.5]}}'],
    ['print size with one side', '{"printSizes":{"Wallet":[2.5]}}'],
  ])('invalid: %s', (_name, text) => {
    const parsed = parseEventJson(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.length).toBeGreaterThan(0);
  });
});

describe('event status', () => {
  const base = { isArchived: false, orderingEnabled: true, deadline: null };
  const now = Date.parse('2026-07-10T00:00:00Z');

  test('open: not archived, enabled, no deadline or one ahead', () => {
    expect(eventStatus(base, now).active).toBe(true);
    expect(eventStatus({ ...base, deadline: '2026-07-10T00:00:01.000Z' }, now).active).toBe(true);
  });

  test('closed: archived, disabled, or deadline reached', () => {
    expect(eventStatus({ ...base, isArchived: true }, now).active).toBe(false);
    expect(eventStatus({ ...base, orderingEnabled: false }, now).active).toBe(false);
    expect(eventStatus({ ...base, deadline: '2026-07-10T00:00:00.000Z' }, now)).toEqual({
      isArchived: false,
      orderingEnabled: true,
      deadline: '2026-07-10T00:00:00.000Z',
      active: false,
      closedReason: 'deadline',
    });
  });

  test('closedReason: the first reason that applies, as ORDERING_CLOSED gives it; null while open', () => {
    expect(eventStatus(base, now).closedReason).toBeNull();
    expect(
      eventStatus({ ...base, isArchived: true, orderingEnabled: false, deadline: '2026-01-01T00:00:00Z' }, now),
    ).toMatchObject({ active: false, closedReason: 'archived' });
    expect(eventStatus({ ...base, orderingEnabled: false, deadline: '2026-01-01T00:00:00Z' }, now).closedReason).toBe(
      'disabled',
    );
    expect(eventStatus({ ...base, deadline: '2026-07-09T23:59:59Z' }, now).closedReason).toBe('deadline');
    expect(eventStatus({ ...base, deadline: '2026-07-10T00:00:01Z' }, now).closedReason).toBeNull();
  });
});
