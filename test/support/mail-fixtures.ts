/**
 * Orders and messages for the mail tests: an OrderRecord as the store returns it, and an
 * OutgoingMail ready for a transport.
 */
import { randomUUID } from 'node:crypto';
import type { OrderRecord } from '../../src/domain/order.js';
import type { OutgoingMail } from '../../src/services/notifier/message.js';

export function orderRecord(over: Partial<OrderRecord> = {}): OrderRecord {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    orderNumber: 'AX25-0001',
    eventSlug: 'AX2025',
    createdAt: now,
    updatedAt: now,
    customerName: 'Ada Lovelace',
    customerEmail: 'ada@example.com',
    customerPhone: '+1 555 010 0000',
    fulfillmentType: 'ship',
    shippingAddress: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
    items: [
      { photoNumber: '12', size: '4x6', quantity: 2, unitCents: 500, lineCents: 1000 },
      { photoNumber: '0007', size: '8x10', quantity: 1, unitCents: 2000, lineCents: 2000 },
    ],
    subtotalCents: 3000,
    shippingFeeCents: 500,
    totalCents: 3500,
    status: 'pending',
    shippingStatus: 'ship',
    trackingNumber: '',
    feedback: '',
    held: false,
    holdExpiresAt: null,
    addressVerified: true,
    channel: 'web',
    version: 1,
    history: [{ at: now, action: 'create', to: 'pending', by: 'customer' }],
    discountCents: 0,
    couponCode: null,
    payment: null,
    pickupStatus: over.fulfillmentType === 'pickup' ? 'waiting' : null,
    printed: [],
    ...over,
  };
}

/** A small but real PNG (1×1) and a stand-in DOCX body, for transport-level tests. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export function outgoingMail(over: Partial<OutgoingMail> = {}): OutgoingMail {
  const jobId = randomUUID();
  return {
    from: { name: 'Convention Photos', address: 'photos@example.com' },
    to: [{ name: 'Ada Lovelace', address: 'ada@example.com' }],
    cc: [{ name: '', address: 'booth@example.com' }],
    subject: 'Your order AX25-0001: receipt',
    text: 'Thank you.',
    html: '<p>Thank you.</p>',
    attachments: [
      { filename: 'label-AX25-0001.png', contentType: 'image/png', content: TINY_PNG },
      {
        filename: 'label-AX25-0001.docx',
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        content: Buffer.from('PK\u0003\u0004 not really a docx'),
      },
    ],
    messageId: `<mail-${jobId}@example.com>`,
    meta: { jobId, kind: 'receipt', orderNumber: 'AX25-0001', createdAt: new Date().toISOString() },
    ...over,
  };
}
