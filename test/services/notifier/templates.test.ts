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

const ctx = { publicBaseUrl: 'https://photos.example.com', senderName: 'Convention Photos' };

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
    expect(text).toContain('Pickup: collect your prints at the booth');
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
