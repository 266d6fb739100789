/**
 * Feedback's cap counts entries sent with proof of the order only (docs/contract.md,
 * "Hardening, round 2"): entries from before round 2, posted with an order number alone by
 * anyone, leave the customer's ten intact.
 */
import { expect, test } from 'vitest';
import { MAX_FEEDBACK_ENTRIES, type OrderRecord } from '../../src/domain/order.js';
import { applyFeedback, buildNewOrder, provenFeedbackEntries } from '../../src/domain/order-changes.js';
import { newOrder } from '../support/store-fixtures.js';

const at = new Date('2026-07-04T10:00:00.000Z');

test('entries without proof (before round 2) do not count towards the cap; entries with proof do', () => {
  let order: OrderRecord = buildNewOrder(newOrder(), 1, at, '00000000-0000-4000-8000-000000000001', 'customer');
  // Twelve entries as the earlier version wrote them: no proof in their history entries.
  order = {
    ...order,
    feedback: Array.from({ length: 12 }, (_, i) => `[${at.toISOString()}] old ${i}`).join('\n\n'),
    history: [
      ...order.history,
      ...Array.from({ length: 12 }, () => ({
        at: at.toISOString(),
        action: 'feedback' as const,
        by: 'customer' as const,
      })),
    ],
  };
  expect(provenFeedbackEntries(order)).toBe(0);
  for (let i = 0; i < MAX_FEEDBACK_ENTRIES; i++) {
    order = applyFeedback(order, `new ${i}`, at, at, 'customer', i % 2 === 0 ? 'email' : 'admin').order;
  }
  expect(provenFeedbackEntries(order)).toBe(MAX_FEEDBACK_ENTRIES);
  expect(order.history.at(-1)).toMatchObject({ action: 'feedback', field: 'proof', to: 'admin' });
  expect(() => applyFeedback(order, 'one more', at, at, 'customer', 'email')).toThrow(
    expect.objectContaining({ code: 'FEEDBACK_LIMIT' }),
  );
});
