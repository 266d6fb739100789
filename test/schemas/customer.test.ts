/**
 * The customer fields (src/schemas/customer.ts): their limits, and that an order submission
 * and an admin's order edit treat the same text the same way, because they share the fields.
 */
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import {
  City,
  CustomerEmail,
  CustomerName,
  OptionalPhone,
  Phone,
  RequiredPhone,
  State,
  Street,
  Zip,
} from '../../src/schemas/customer.js';
import { adminHeaders } from '../helpers/build.js';
import { bodyB, ordersApp } from '../support/orders-fixtures.js';
import { newOrder } from '../support/store-fixtures.js';

const parsed = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? { ok: r.data } : { refused: r.error.issues[0]?.message };
};

describe('customer fields', () => {
  test('name: 1–100 characters (code points) on one line; controls and bidi overrides go, a tab is a space', () => {
    expect(parsed(CustomerName, '  Ada\tLovelace ')).toEqual({ ok: 'Ada Lovelace' });
    expect(parsed(CustomerName, '\u202eAda\u0000\u0007')).toEqual({ ok: 'Ada' });
    expect(parsed(CustomerName, '😀'.repeat(100))).toEqual({ ok: '😀'.repeat(100) });
    expect(parsed(CustomerName, '=SUM(A1)')).toEqual({ ok: '=SUM(A1)' });
    for (const bad of ['', '   ', '\u0007', 'x'.repeat(101), '😀'.repeat(101)]) {
      expect(parsed(CustomerName, bad), JSON.stringify(bad)).toHaveProperty('refused');
    }
    for (const br of ['\n', '\r', '\r\n', '\u0085', '\u2028', '\u2029']) {
      expect(parsed(CustomerName, `Ada${br}Bcc: x@evil.example`)).toEqual({
        refused: 'must be a single line (no line breaks)',
      });
    }
    expect(parsed(CustomerName, 'lone \ud800')).toEqual({ refused: 'must be well-formed Unicode' });
  });

  test('email: RFC-valid, ≤ 254, local part ≤ 64, trimmed', () => {
    expect(parsed(CustomerEmail, ' ada@example.com ')).toEqual({ ok: 'ada@example.com' });
    const longest = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
    expect(longest).toHaveLength(254);
    expect(parsed(CustomerEmail, longest)).toEqual({ ok: longest });
    for (const bad of [
      '',
      'ada@',
      'ada example@example.com',
      'ada@example.com\nBcc: x@evil.example',
      `${'a'.repeat(64)}@${'b'.repeat(186)}.com`,
      `${'a'.repeat(65)}@example.com`,
    ]) {
      expect(parsed(CustomerEmail, bad), bad).toHaveProperty('refused');
    }
  });

  test('phone: 7–20 digits with + ( ) - . and spaces; empty only where optional', () => {
    for (const ok of ['5550100', '+1 (555) 010-0000', '555.010.0000', '1'.repeat(20)]) {
      expect(parsed(Phone, ok)).toEqual({ ok });
      expect(parsed(RequiredPhone, ok)).toEqual({ ok });
    }
    expect(parsed(Phone, ' ')).toEqual({ ok: '' });
    expect(parsed(OptionalPhone, undefined)).toEqual({ ok: '' });
    expect(parsed(RequiredPhone, '')).toHaveProperty('refused');
    for (const bad of ['123456', '1'.repeat(21), '555-CALL-NOW', '555-0100 ext 7', '555\n0100']) {
      expect(parsed(Phone, bad), bad).toHaveProperty('refused');
    }
  });

  test('address parts: street ≤ 200, city ≤ 100, state ≤ 50, ZIP ≤ 20 characters, one line, empty allowed', () => {
    for (const [schema, max] of [
      [Street, 200],
      [City, 100],
      [State, 50],
      [Zip, 20],
    ] as const) {
      expect(parsed(schema, '')).toEqual({ ok: '' });
      expect(parsed(schema, ` ${'x'.repeat(max)} `)).toEqual({ ok: 'x'.repeat(max) });
      expect(parsed(schema, 'x'.repeat(max + 1))).toHaveProperty('refused');
      expect(parsed(schema, 'a\r\nb')).toHaveProperty('refused');
    }
    // Whether a state or ZIP exists is the address check's question, not the schema's.
    expect(parsed(State, 'California')).toEqual({ ok: 'California' });
    expect(parsed(Zip, '1234')).toEqual({ ok: '1234' });
  });
});

test('a submission and an admin edit accept, clean and refuse the same text alike', async (t) => {
  // The address check off: only the fields' rules decide here.
  const app = await ordersApp(t, { env: { ADDRESS_VERIFIER: 'off' } });
  const values: [string, string][] = [
    ['customerName', '  \u202eZoë\u0000 O’Brien-山田\t=SUM(A1) '],
    ['customerName', 'x'.repeat(101)],
    ['customerName', 'Ada\u2028Lovelace'],
    ['customerName', 'lone \udc00'],
    ['customerEmail', ' grace@example.com '],
    ['customerEmail', `${'a'.repeat(65)}@example.com`],
    ['customerPhone', '+44 (20) 7946-0958'],
    ['customerPhone', '12345'],
    ['shippingAddress', '1\u0007 Infinite Loop\t'],
    ['shippingAddress', 'Apt 4\rFloor 2'],
    ['city', 'C'.repeat(100)],
    ['city', 'C'.repeat(101)],
    ['state', 'Illinois'],
    ['state', 'S'.repeat(51)],
    ['zipCode', '62701 1234'],
    ['zipCode', '6'.repeat(21)],
  ];
  const outcomes = [];
  for (const [field, value] of values) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: adminHeaders,
      payload: bodyB({ [field]: value }),
    });
    const existing = await app.store.orders.create(newOrder(), { by: 'customer' });
    const edited = await app.inject({
      method: 'PUT',
      url: `/api/orders/${existing.id}`,
      headers: adminHeaders,
      payload: { [field]: value },
    });
    const outcome = (res: typeof created) =>
      res.statusCode < 300 ? { stored: res.json()[field] } : { status: res.statusCode, code: res.json().code };
    outcomes.push({ field, value, submission: outcome(created), edit: outcome(edited) });
  }
  for (const o of outcomes) expect(o.edit, `${o.field} = ${JSON.stringify(o.value)}`).toEqual(o.submission);
  // and both kinds of answer occurred
  expect(outcomes.filter((o) => 'stored' in o.edit).length).toBeGreaterThan(5);
  expect(outcomes.filter((o) => 'status' in o.edit).length).toBeGreaterThan(5);
  expect(outcomes[0]?.edit).toEqual({ stored: 'Zoë O’Brien-山田 =SUM(A1)' });
});
