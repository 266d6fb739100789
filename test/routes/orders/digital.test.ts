/**
 * Orders of digital files only (docs/contract.md, "Selling"): `fulfillmentType: digital`
 * whatever was asked, no pickup status, no shipping fee, never shipped, collected or printed,
 * no label attached to their mail, and the customer's view and mail speak of download links.
 * Also: the customer's view of an unpaid order carries the payment instructions.
 */
import { expect, test } from 'vitest';
import { adminHeaders } from '../../helpers/build.js';
import { EVENT, outbox } from '../../support/orders-fixtures.js';
import { sellingApp } from '../../support/selling-fixtures.js';

const digitalOnly = {
  eventSlug: EVENT,
  photos: [
    { number: '1', size: 'digital', quantity: 1 },
    { number: '2', size: 'Digital', quantity: 1 },
  ],
  customerInfo: { name: 'Ada Lovelace', email: 'ada@example.com' },
};

test('a digital-only order: digital whatever was asked, no fee, no pickup status; never shipped, collected, printed or labelled; download links once paid', async (t) => {
  const app = await sellingApp(t, { env: { CAPTCHA_PROVIDER: 'off' }, earlyBird: false });
  // An address given, and "ship" asked: digital files alone are neither.
  const created = await app.inject({
    method: 'POST',
    url: '/api/orders/create',
    payload: {
      ...digitalOnly,
      fulfillmentType: 'ship',
      shippingAddress: { line1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const number = created.json().orderNumber;
  expect(created.json().total).toBe('$16.00');
  const view = (await app.inject({ url: `/api/orders/${number}`, headers: adminHeaders })).json();
  expect(view).toMatchObject({
    fulfillmentType: 'digital',
    shippingStatus: 'digital',
    pickupStatus: null,
    shippingFee: '$0.00',
    total: '$16.00',
    addressVerified: null,
  });

  // The customer's view while unpaid: the payment instructions, no downloads yet.
  const lookup = () =>
    app.inject({
      method: 'POST',
      url: '/api/orders/lookup',
      payload: { orderNumber: number, email: 'ada@example.com' },
    });
  const unpaid = (await lookup()).json();
  expect(unpaid).toMatchObject({ fulfillmentType: 'digital', pickupStatus: null, downloads: [], tracking: null });
  expect(unpaid.paymentInstructions).toMatch(/booth/);

  // Nothing to collect, ship or change into something to ship.
  const pay = await app.inject({
    method: 'POST',
    url: `/api/orders/${number}/update-status`,
    headers: adminHeaders,
    payload: { status: 'paid' },
  });
  expect(pay.statusCode, pay.body).toBe(200);
  const pickup = await app.inject({
    method: 'POST',
    url: `/api/orders/${number}/pickup`,
    headers: adminHeaders,
    payload: { status: 'collected', printAll: true },
  });
  expect(pickup.json()).toMatchObject({ code: 'ORDER_NOT_PICKUP' });
  expect(pickup.json().error).toContain('digital files only');
  const ship = await app.inject({
    method: 'POST',
    url: `/api/orders/${number}/update-shipping`,
    headers: adminHeaders,
    payload: { trackingNumber: '1Z999AA10123456784', printAll: true },
  });
  expect(ship.json()).toMatchObject({ code: 'ORDER_NOT_SHIPPABLE' });
  const edit = await app.inject({
    method: 'PUT',
    url: `/api/orders/${number}`,
    headers: adminHeaders,
    payload: { fulfillmentType: 'pickup' },
  });
  expect(edit.statusCode, edit.body).toBe(200);
  expect(edit.json()).toMatchObject({ fulfillmentType: 'digital', pickupStatus: null });

  // Never in the print queue, nor in the batch labels.
  const queue = await app.inject({ url: '/api/print-queue', headers: adminHeaders });
  expect(queue.json().items).toEqual([]);
  const labels = await app.inject({
    url: `/api/labels/batch?eventSlug=${encodeURIComponent(EVENT)}`,
    headers: adminHeaders,
  });
  expect(labels.json()).toMatchObject({ code: 'NOTHING_TO_PRINT' });

  // Paid: the links; the customer is told nothing of prints, and no mail carries a label.
  const paid = (await lookup()).json();
  expect(paid.downloads).toHaveLength(2);
  expect(paid.paymentInstructions).toBeNull();
  await app.notifier.flush();
  const mails = (await outbox(app.dataDir)).filter((m) => m.subject.includes(number));
  expect(mails.map((m) => m.subject)).toEqual([`Your order ${number}: receipt`, `Your order ${number}: paid, receipt`]);
  for (const mail of mails) {
    expect(mail.attachments).toEqual([]);
    expect(mail.text).toContain('Delivery: digital files, nothing is shipped');
    expect(mail.text).not.toMatch(/\bprints?\b|Shipping|label/i);
  }
  expect(mails[1]?.text).toContain('/api/downloads/');
});

test('"digital" asked for an order with prints is 400 naming fulfillmentType; the quote says digital for files alone', async (t) => {
  const app = await sellingApp(t, { env: { CAPTCHA_PROVIDER: 'off' }, earlyBird: false });
  const mixed = await app.inject({
    method: 'POST',
    url: '/api/orders/create',
    payload: { ...digitalOnly, photos: ['1', { number: '2', size: 'digital' }], fulfillmentType: 'digital' },
  });
  expect(mixed.statusCode, mixed.body).toBe(400);
  expect(mixed.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  expect(JSON.parse(mixed.json().details)).toEqual([expect.objectContaining({ field: 'fulfillmentType' })]);

  const quote = await app.inject({
    method: 'POST',
    url: '/api/quote',
    payload: { eventSlug: EVENT, lines: [{ photo: '1', size: 'digital', quantity: 1 }], fulfillmentType: 'ship' },
  });
  expect(quote.statusCode, quote.body).toBe(200);
  expect(quote.json()).toMatchObject({ fulfillmentType: 'digital', shippingFee: '$0.00', total: '$8.00' });

  // The web checkout's form (variant B) sends "digital" for files alone, without an address.
  const submitted = await app.inject({
    method: 'POST',
    url: '/api/orders',
    payload: {
      eventSlug: EVENT,
      customerName: 'Ada Lovelace',
      customerEmail: 'ada@example.com',
      customerPhone: '+1 555 010 0000',
      fulfillmentType: 'digital',
      items: 'Photo #1 (digital) x1 = $8.00',
      subtotal: '$8.00',
      shippingFee: '$0.00',
      total: '$8.00',
    },
  });
  expect(submitted.statusCode, submitted.body).toBe(201);
  expect(submitted.json()).toMatchObject({ fulfillmentType: 'digital', shippingStatus: 'digital', pickupStatus: null });
});
