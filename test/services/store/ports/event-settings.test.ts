/** The event settings port's conformance suite (src/services/store/ports/event-settings.ts), on both engines. */
import { expect, test } from 'vitest';
import { describeOnEngines } from '../../../support/store-engines.js';

describeOnEngines('event settings port', (open) => {
  test('absent until put; patches merge key by key; null clears a deadline; the list has every event', async (t) => {
    const { eventSettings } = await open(t);
    expect(await eventSettings.get('AX2025')).toBeNull();
    expect(await eventSettings.list()).toEqual([]);
    const a = await eventSettings.put('AX2025', { orderingEnabled: false, deadline: '2026-08-01T00:00:00.000Z' });
    expect(a).toMatchObject({ eventSlug: 'AX2025', orderingEnabled: false, deadline: '2026-08-01T00:00:00.000Z' });
    expect(Number.isNaN(Date.parse(a.updatedAt))).toBe(false);
    const b = await eventSettings.put('AX2025', {
      prices: { '4x6': 600, '8x10': 2500, 'A4 ✨': 0 },
      shippingFeeCents: 700,
      isArchived: true,
    });
    expect(b).toMatchObject({
      eventSlug: 'AX2025',
      orderingEnabled: false,
      deadline: '2026-08-01T00:00:00.000Z',
      prices: { '4x6': 600, '8x10': 2500, 'A4 ✨': 0 },
      shippingFeeCents: 700,
      isArchived: true,
    });
    const c = await eventSettings.put('AX2025', { deadline: null, orderingEnabled: true, isArchived: undefined });
    expect(c).toMatchObject({ deadline: null, orderingEnabled: true, shippingFeeCents: 700, isArchived: true });
    expect(await eventSettings.get('AX2025')).toEqual(c);
    expect(await eventSettings.get('ax2025')).toBeNull();
    const d = await eventSettings.put('Zine Fest', { prices: { '5x7': 1000 } });
    expect(await eventSettings.list()).toEqual([c, d]);
  });

  test('concurrent patches of different keys of one event all land', async (t) => {
    const { eventSettings } = await open(t);
    await Promise.all([
      eventSettings.put('AX2025', { orderingEnabled: false }),
      eventSettings.put('AX2025', { shippingFeeCents: 900 }),
      eventSettings.put('AX2025', { deadline: '2026-08-01T00:00:00.000Z' }),
      eventSettings.put('AX2025', { isArchived: false }),
    ]);
    expect(await eventSettings.get('AX2025')).toMatchObject({
      orderingEnabled: false,
      shippingFeeCents: 900,
      deadline: '2026-08-01T00:00:00.000Z',
      isArchived: false,
    });
  });
});
