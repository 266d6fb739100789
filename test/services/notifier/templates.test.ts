import { describe, expect, test } from 'vitest';
import { formatItemLine } from '../../../src/domain/items.js';
import { escapeHtml } from '../../../src/lib/escape.js';
import { retryDelayMs } from '../../../src/services/notifier/backoff.js';
import { jobsForNewOrder, shippedJob } from '../../../src/services/notifier/jobs.js';
import { headerText, isSafeAddress } from '../../../src/services/notifier/sanitize.js';
import {
  feedbackUrl,
  readyContent,
  receiptContent,
  shippedContent,
  verificationContent,
} from '../../../src/services/notifier/templates/orders.js';
import { orderRecord } from '../../support/mail-fixtures.js';

const ctx = {
  publicBaseUrl: 'https://photos.example.com',
  senderName: 'Convention Photos',
  paymentInstructions: 'Pay at the booth in cash or by card.\nOr by Venmo to @jane-photos, with your order number.',
};

describe('receipt', () => {
  test('lists every line, the totals, the shipping address, the labels, the status and feedback links', () => {
    const order = orderRecord();
    const { subject, text, html } = receiptContent(order, ctx);
    expect(subject).toBe('Your order AX25-0001: receipt');
    for (const line of order.items) {
      expect(text).toContain(formatItemLine(line));
      expect(html).toContain(escapeHtml(formatItemLine(line)));
    }
    expect(text).toContain('Subtotal: $30.00');
    expect(text).toContain('Shipping: $5.00');
    expect(text).toContain('Total: $35.00');
    expect(text).toContain('Shipping to:');
    expect(text).toContain('1 Main St');
    expect(text).toContain('Springfield, IL 62701');
    expect(text).toContain('Attached: your order label, as an image (PNG) and as a Word document (DOCX).');
    expect(text).toContain('https://photos.example.com/?feedback=AX25-0001');
    expect(html).toContain('href="https://photos.example.com/?feedback=AX25-0001"');
    // A link to the order's status page, in both parts.
    expect(text).toContain('https://photos.example.com/order/AX25-0001');
    expect(html).toContain('href="https://photos.example.com/order/AX25-0001"');
  });

  test('a pickup order says pickup and shows no address', () => {
    const order = orderRecord({ fulfillmentType: 'pickup', shippingAddress: '', city: '', state: '', zipCode: '' });
    const { text, html } = receiptContent({ ...order, shippingFeeCents: 0, totalCents: 3000 }, ctx);
    expect(text).toContain('Pickup: we prepare your prints once the order is paid; collect them at the booth');
    expect(text).not.toContain('Shipping to:');
    expect(html).toContain('<strong>Pickup:</strong>');
    expect(text).toContain('Total: $30.00');
  });

  test('a pickup receipt tells where the prints are: waiting (with how many are done), ready, collected', () => {
    const pickup = orderRecord({
      fulfillmentType: 'pickup',
      shippingAddress: '',
      city: '',
      state: '',
      zipCode: '',
      status: 'paid',
      pickupStatus: 'waiting',
    });
    const mark = { line: 0, at: new Date().toISOString(), by: 'admin:0123abcd' };
    const waiting = receiptContent({ ...pickup, printed: [mark] }, ctx);
    expect(waiting.text).toContain('We will email you when they are ready. 1 of 2 prints are done.');
    expect(waiting.html).toContain('1 of 2 prints are done.');
    // nothing printed yet, or everything: no count
    expect(receiptContent(pickup, ctx).text).not.toContain('prints are done');
    const ready = receiptContent({ ...pickup, pickupStatus: 'ready' }, ctx);
    expect(ready.text).toContain('Pickup: your prints are ready at the booth');
    expect(ready.html).toContain('<strong>Pickup:</strong> your prints are ready at the booth');
    expect(receiptContent({ ...pickup, pickupStatus: 'collected' }, ctx).text).toContain(
      'Pickup: you have collected your prints.',
    );
    // an order that ships says nothing of pickup
    expect(receiptContent(orderRecord({ printed: [mark] }), ctx).text).not.toMatch(/pickup|prints are done/i);
    // a digital download is never printed: it does not count among the prints
    const withDigital = {
      ...pickup,
      items: [...pickup.items, { photoNumber: '9', size: 'digital', quantity: 1, unitCents: 800, lineCents: 800 }],
    };
    expect(receiptContent({ ...withDigital, printed: [mark] }, ctx).text).toContain('1 of 2 prints are done.');
    const allPrinted = [mark, { ...mark, line: 1 }];
    expect(receiptContent({ ...withDigital, printed: allPrinted }, ctx).text).not.toContain('prints are done');
  });

  test('an unpaid order says how to pay (the business settings’ instructions, and the payment page) and that the prints go out once paid; never "shipped"', () => {
    const order = orderRecord({ status: 'pending' });
    const { text, html } = receiptContent(order, ctx);
    expect(text).toContain('Not paid yet ($35.00). How to pay:');
    expect(text).toContain(
      '  Pay at the booth in cash or by card.\n  Or by Venmo to @jane-photos, with your order number.',
    );
    expect(html).toContain(
      'Pay at the booth in cash or by card.<br>Or by Venmo to @jane-photos, with your order number.',
    );
    expect(text).toContain('Your prints are shipped once the order is paid.');
    expect(text).not.toMatch(/\bhas shipped\b|\bis on its way\b|\bshipped to you\b/);
    // With an online checkout, its page too.
    const online = orderRecord({
      status: 'pending',
      payment: { provider: 'stripe', sessionId: 'cs_1', url: 'https://checkout.stripe.test/pay/cs_1' },
    });
    expect(receiptContent(online, ctx).text).toContain('  Pay online: https://checkout.stripe.test/pay/cs_1');
    // Paid: no payment part.
    const paid = receiptContent(orderRecord({ status: 'paid' }), ctx);
    expect(paid.text).not.toContain('How to pay');
    expect(paid.text).toContain('We will email you when your prints are shipped.');
  });

  test('digital files only: no shipping line, no label attached, download links (once paid), never prints', () => {
    const digital = orderRecord({
      fulfillmentType: 'digital',
      shippingStatus: 'digital',
      pickupStatus: null,
      shippingAddress: '',
      city: '',
      state: '',
      zipCode: '',
      items: [{ photoNumber: '12', size: 'digital', quantity: 1, unitCents: 800, lineCents: 800 }],
      subtotalCents: 800,
      shippingFeeCents: 0,
      totalCents: 800,
    });
    const unpaid = receiptContent(digital, ctx);
    expect(unpaid.text).toContain(
      'Delivery: digital files, nothing is shipped: your download links are emailed to you once the order is paid.',
    );
    expect(unpaid.text).not.toMatch(/Shipping|Attached|label|print/i);
    expect(unpaid.html).not.toMatch(/Shipping|Attached|label|prints/i);
    const links = [
      { photoNumber: '12', url: 'https://photos.example.com/api/downloads/x', expiresAt: '2026-12-31T00:00:00.000Z' },
    ];
    const paid = receiptContent({ ...digital, status: 'paid' }, { ...ctx, downloadLinks: () => links });
    expect(paid.text).toContain('Photo #12 (until 2026-12-31): https://photos.example.com/api/downloads/x');
    expect(paid.text).toContain('download them with the links in this message');
    expect(paid.text).toContain('Where your order is (paid, download links)');
    expect(paid.text).not.toMatch(/Shipping|Attached|print/i);
  });

  test('customer text is escaped in HTML', () => {
    const order = orderRecord({
      customerName: '<script>alert(1)</script>',
      shippingAddress: '"><img src=x onerror=alert(2)>',
      city: "O'Hare & Sons",
    });
    const { html, text } = receiptContent(order, ctx);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(html).toContain('O&#39;Hare &amp; Sons');
    // the plain-text part stays readable
    expect(text).toContain("O'Hare & Sons");
  });
});

test('shipped notice carries the tracking number', () => {
  const order = orderRecord({ status: 'paid', shippingStatus: 'shipped', trackingNumber: '1Z<999>AA1' });
  const { subject, text, html } = shippedContent(order, ctx);
  expect(subject).toBe('Your order AX25-0001 has shipped');
  expect(text).toContain('Tracking number: 1Z<999>AA1');
  expect(html).toContain('1Z&lt;999&gt;AA1');
  // Not a format of USPS, UPS or FedEx: no link.
  expect(text).not.toContain('Track it with');
});

test.each([
  [
    '9400 1000 0000 0000 0000 00',
    'USPS',
    'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000',
  ],
  ['1Z999AA10123456784', 'UPS', 'https://www.ups.com/track?tracknum=1Z999AA10123456784'],
  ['123456789012', 'FedEx', 'https://www.fedex.com/fedextrack/?trknbr=123456789012'],
])('shipped notice links a %s number to %s', (trackingNumber, carrier, url) => {
  const order = orderRecord({ status: 'paid', shippingStatus: 'shipped', trackingNumber });
  const { text, html } = shippedContent(order, ctx);
  expect(text).toContain(`Track it with ${carrier}: ${url}`);
  expect(html).toContain(`href="${escapeHtml(url)}"`);
  expect(html).toContain(`Track it with ${carrier}`);
});

test('verification mail carries the link and the expiry', () => {
  const order = orderRecord({ held: true, holdExpiresAt: '2030-01-02T03:04:05.000Z', totalCents: 25_000 });
  const url = 'https://photos.example.com/api/orders/verify?token=abc.def&x="1"';
  const { subject, text, html } = verificationContent(order, ctx, url);
  expect(subject).toBe('Please confirm your order AX25-0001');
  expect(text).toContain(url);
  expect(text).toContain('$250.00');
  expect(text).toContain('2030-01-02 03:04 UTC');
  expect(html).toContain(`href="${escapeHtml(url)}"`);
  expect(html).not.toContain('x="1"');
});

test('feedback URL encodes the order number', () => {
  expect(feedbackUrl('http://x.test', 'AX25-0001')).toBe('http://x.test/?feedback=AX25-0001');
  expect(feedbackUrl('http://x.test', 'A&B')).toBe('http://x.test/?feedback=A%26B');
});

describe('header safety', () => {
  test('headerText removes every line break and control character', () => {
    expect(headerText('Eve\r\nBcc: evil@x')).toBe('Eve Bcc: evil@x');
    expect(headerText('a\u2028b\u0000c\td\u0085e')).toBe('a b c d e');
    expect(headerText('x'.repeat(500)).length).toBe(200);
  });

  test('isSafeAddress accepts one plain address and nothing that could add another', () => {
    expect(isSafeAddress('ada@example.com')).toBe(true);
    expect(isSafeAddress('ada.lovelace+photos@mail.example.co.uk')).toBe(true);
    for (const bad of [
      'ada@example.com\r\nBcc: evil@x',
      'ada@example.com, evil@x.com',
      'Ada <ada@example.com>',
      'ada@example.com;evil@x.com',
      'no-at-sign.example.com',
      'ada@localhost',
      '',
    ]) {
      expect(isSafeAddress(bad), bad).toBe(false);
    }
  });
});

test('retry delay doubles from the base, is capped, and is jittered within [d/2, d]', () => {
  const base = 1000;
  const max = 60_000;
  expect(retryDelayMs(1, base, max, () => 0)).toBe(500);
  expect(retryDelayMs(1, base, max, () => 1)).toBe(1000);
  expect(retryDelayMs(2, base, max, () => 1)).toBe(2000);
  expect(retryDelayMs(4, base, max, () => 1)).toBe(8000);
  expect(retryDelayMs(30, base, max, () => 1)).toBe(60_000);
  expect(retryDelayMs(1000, base, max, () => 0)).toBe(30_000);
  for (let i = 0; i < 50; i++) {
    const d = retryDelayMs(3, base, max);
    expect(d).toBeGreaterThanOrEqual(2000);
    expect(d).toBeLessThanOrEqual(4000);
  }
});

test('jobsForNewOrder: receipt for a normal order, the confirmation link for a held one', () => {
  expect(jobsForNewOrder({ id: 'o1', held: false })).toEqual([{ kind: 'receipt', orderId: 'o1', payload: {} }]);
  expect(jobsForNewOrder({ id: 'o1', held: true }, 'https://x.test/v?t=1')).toEqual([
    { kind: 'verification', orderId: 'o1', payload: { verifyUrl: 'https://x.test/v?t=1' } },
  ]);
  expect(() => jobsForNewOrder({ id: 'o1', held: true })).toThrow(/verifyUrl/);
  expect(shippedJob('o2')).toEqual({ kind: 'shipped', orderId: 'o2', payload: {} });
});

describe('ready for pickup', () => {
  test('names the order, links its order page (with the QR code) and lists the prints; escapes HTML', () => {
    const order = orderRecord({ fulfillmentType: 'pickup', pickupStatus: 'ready', customerName: '<b>Ada</b>' });
    const { subject, text, html } = readyContent(order, ctx);
    expect(subject).toBe('Your order AX25-0001 is ready for pickup');
    expect(text).toContain('https://photos.example.com/order/AX25-0001');
    expect(html).toContain('href="https://photos.example.com/order/AX25-0001"');
    for (const line of order.items) expect(text).toContain(formatItemLine(line));
    expect(html).not.toContain('<b>Ada</b>');
    expect(html).toContain('&lt;b&gt;Ada&lt;/b&gt;');
  });
});
