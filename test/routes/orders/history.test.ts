/**
 * Order history and the pickup shipping status through the API (docs/contract.md,
 * "Fulfilment" and "Status and shipping"): every change is recorded with who made it; admins
 * see the history, customers don't.
 */
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { ADMIN_TOKEN, adminHeaders } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { bodyA, bodyB, ordersApp, solvedCaptcha } from '../../support/orders-fixtures.js';

const ADMIN = `admin:${createHash('sha256').update(ADMIN_TOKEN).digest('hex').slice(0, 8)}`;

test('every change is in the admin view’s history, with who made it; customers never see it', async (t) => {
  const app = await ordersApp(t);
  const created = await app.inject({
    method: 'POST',
    url: '/api/orders',
    payload: { ...bodyB(), captchaToken: await solvedCaptcha(app) },
  });
  expect(created.statusCode).toBe(201);
  expect(created.json()).not.toHaveProperty('history');
  const { id, orderNumber } = created.json();

  const admin = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await app.inject({ method, url, headers: adminHeaders, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    expectMatchesOpenApi(method, url.replace(id, '{id}'), res);
    return res.json();
  };
  await admin('PUT', `/api/orders/${id}`, { customerName: 'Grace B. Hopper' });
  await admin('POST', `/api/orders/${id}/update-status`, { status: 'paid' });
  await admin('POST', `/api/orders/${id}/update-status`, { status: 'paid' }); // nothing changes: no entry
  // The prints are in the parcel: printAll marks each printed, in the history before the shipping.
  const shipped = await admin('POST', `/api/orders/${id}/update-shipping`, { trackingNumber: '1Z999', printAll: true });
  const feedback = await app.inject({
    method: 'POST',
    url: `/api/orders/${orderNumber}/feedback`,
    payload: { feedback: 'Lovely', email: 'grace@example.com' },
  });
  expect(feedback.statusCode).toBe(200);

  const view = await admin('GET', `/api/orders/${orderNumber}`);
  const printed = (view.lines as unknown[]).map((_, i) =>
    expect.objectContaining({ action: 'printed', field: `${orderNumber}.${i + 1}`, by: ADMIN }),
  );
  expect(printed.length).toBeGreaterThan(0);
  expect(view.history).toEqual([
    { at: view.createdAt, action: 'create', to: 'pending', by: 'customer' },
    {
      at: expect.any(String),
      action: 'edit',
      field: 'customerName',
      from: 'Grace Hopper',
      to: 'Grace B. Hopper',
      by: ADMIN,
    },
    { at: expect.any(String), action: 'status', from: 'pending', to: 'paid', by: ADMIN },
    ...printed,
    { at: expect.any(String), action: 'shipping', from: 'ship', to: 'shipped', by: ADMIN },
    { at: expect.any(String), action: 'edit', field: 'trackingNumber', from: '', to: '1Z999', by: ADMIN },
    { at: expect.any(String), action: 'feedback', field: 'proof', to: 'email', by: 'customer' },
  ]);
  expect(shipped.order.history).toHaveLength(5 + printed.length);
  const [listed] = await admin('GET', '/api/orders/completed');
  expect(listed.history).toEqual(view.history);

  const lookup = await app.inject({
    method: 'POST',
    url: '/api/orders/lookup',
    payload: { orderNumber, email: 'grace@example.com' },
  });
  expect(lookup.statusCode).toBe(200);
  expect(lookup.json()).not.toHaveProperty('history');
});

test('a booth order is created by the admin; a pickup order reports shipping status pickup, also to the customer', async (t) => {
  const app = await ordersApp(t);
  const booth = await app.inject({
    method: 'POST',
    url: '/api/orders/create',
    headers: adminHeaders,
    payload: bodyA(),
  });
  expect(booth.statusCode).toBe(201);
  const { orderNumber } = booth.json();
  const view = await app.inject({ url: `/api/orders/${orderNumber}`, headers: adminHeaders });
  expect(view.json()).toMatchObject({
    fulfillmentType: 'pickup',
    shippingStatus: 'pickup',
    history: [{ action: 'create', by: ADMIN }],
  });
  const lookup = await app.inject({
    method: 'POST',
    url: '/api/orders/lookup',
    payload: { orderNumber, email: 'ada@example.com' },
  });
  expect(lookup.json()).toMatchObject({ fulfillmentType: 'pickup', shippingStatus: 'pickup' });
  // switching it to shipping makes it `ship`, and back again `pickup`
  const id = view.json().id;
  const ship = await app.inject({
    method: 'PUT',
    url: `/api/orders/${id}`,
    headers: adminHeaders,
    payload: {
      fulfillmentType: 'ship',
      shippingAddress: '123 Main St',
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
    },
  });
  expect(ship.json()).toMatchObject({ fulfillmentType: 'ship', shippingStatus: 'ship' });
  const back = await app.inject({
    method: 'PUT',
    url: `/api/orders/${id}`,
    headers: adminHeaders,
    payload: { fulfillmentType: 'pickup' },
  });
  expect(back.json()).toMatchObject({ fulfillmentType: 'pickup', shippingStatus: 'pickup' });
});
