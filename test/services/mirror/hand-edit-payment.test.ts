/**
 * A hand edit of the status of an order paid online (src/services/mirror/hand-edit.ts): the
 * sheet may not void it, since voiding it must refund the payment, which only the dashboard
 * and the API do (docs/contract.md, "Online payment"). Other moves are as for any order.
 */
import { describe, expect, test } from 'vitest';
import { isAppError } from '../../../src/errors/catalogue.js';
import { handEdit } from '../../../src/services/mirror/hand-edit.js';
import { toCells } from '../../../src/services/mirror/sheets/row-cells.js';
import { labelOrder } from '../../support/labels-fixtures.js';

const payment = { provider: 'stripe' as const, sessionId: 'cs_test_1', url: 'https://checkout.example/c/1' };

function voidInSheet(over: Parameters<typeof labelOrder>[0]) {
  const order = labelOrder(over);
  const cells = { ...toCells(order), status: 'Void' };
  return () => handEdit(['status'], cells, new Date())(order);
}

describe('hand edit of a paid online order', () => {
  test('void is refused with INVALID_TRANSITION and says where to do it', () => {
    let thrown: unknown;
    try {
      voidInSheet({ status: 'paid', payment })();
    } catch (err) {
      thrown = err;
    }
    expect(isAppError(thrown) && thrown.code).toBe('INVALID_TRANSITION');
    expect((thrown as Error).message).toMatch(/dashboard, which refunds/);
  });

  test('an order paid at the booth, or one still pending online, can be voided from the sheet', () => {
    expect(voidInSheet({ status: 'paid', payment: null })().order.status).toBe('void');
    expect(voidInSheet({ status: 'pending', payment })().order.status).toBe('void');
  });
});
