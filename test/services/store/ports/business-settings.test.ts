/** The business settings port's conformance suite (src/services/store/ports/business-settings.ts), on both engines. */
import { expect, test } from 'vitest';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';

describeOnEngines('business settings port', (open) => {
  test('nothing until saved; saves merge key by key; null forgets a key; another process reads the same', async (t) => {
    const store = await open(t);
    const { businessSettings } = store;
    expect(await businessSettings.get()).toBeNull();
    const a = await businessSettings.put(
      { businessName: 'Jane Doe Photography', returnAddress: 'Jane Doe\n1 Main St\nSpringfield, IL 62701' },
      'admin:0123abcd',
    );
    expect(a).toMatchObject({ businessName: 'Jane Doe Photography', updatedBy: 'admin:0123abcd' });
    expect(Number.isNaN(Date.parse(a.updatedAt))).toBe(false);
    const b = await businessSettings.put(
      { publicBaseUrl: 'https://photos.example.net', businessName: null },
      'admin:1',
    );
    expect(b.businessName).toBeUndefined();
    expect(b).toMatchObject({
      returnAddress: 'Jane Doe\n1 Main St\nSpringfield, IL 62701',
      publicBaseUrl: 'https://photos.example.net',
    });
    const other = await reopenStore(t, store);
    expect(await other.businessSettings.get()).toEqual(b);
  });

  test('concurrent saves of different keys all land, also from two processes', async (t) => {
    const store = await open(t);
    const other = await reopenStore(t, store);
    await Promise.all([
      store.businessSettings.put({ businessName: 'A' }, 'admin:1'),
      other.businessSettings.put({ paymentInstructions: 'Cash at the booth' }, 'admin:2'),
      store.businessSettings.put({ mailFrom: 'A <a@example.org>' }, 'admin:1'),
      other.businessSettings.put({ returnAddress: 'A\nB' }, 'admin:2'),
    ]);
    expect(await store.businessSettings.get()).toMatchObject({
      businessName: 'A',
      paymentInstructions: 'Cash at the booth',
      mailFrom: 'A <a@example.org>',
      returnAddress: 'A\nB',
    });
  });
});
