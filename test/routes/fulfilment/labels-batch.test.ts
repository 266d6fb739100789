/**
 * `GET /api/labels/batch`: every paid order of the event that ships and has not shipped,
 * oldest first, as one PDF (a 6 × 4 in page each, packing slips on request) or DOCX, against
 * today's store; opened back up.
 */
import { describe, expect, test } from 'vitest';
import type { OrderRecord } from '../../../src/domain/order.js';
import { readPdf } from '../../support/fulfilment-fixtures.js';
import { docxFiles, docxParagraphs } from '../../support/labels-fixtures.js';
import { AX, appWithEvents, BX, call, expectError, orderIn } from '../admin/fixtures.js';

async function day(t: Parameters<typeof appWithEvents>[0]) {
  const app = await appWithEvents(t);
  // Created one after the other: the oldest first.
  const first = await orderIn(app, 'paid', { customerName: 'First Customer' });
  const pickup = await orderIn(app, 'paid', { fulfillmentType: 'pickup', customerName: 'Pickup Person' });
  const shipped = await orderIn(app, 'paid', { shipped: true, customerName: 'Already Shipped' });
  const pending = await orderIn(app, 'pending', { customerName: 'Not Paid Yet' });
  const voided = await orderIn(app, 'void', { customerName: 'Refunded' });
  const other = await orderIn(app, 'paid', { eventSlug: BX, prefix: 'BX24', customerName: 'Other Event' });
  // a digital file alone is downloaded, not posted: no label
  const digitalOnly = await orderIn(app, 'paid', {
    customerName: 'Digital Only',
    items: [{ photoNumber: '2', size: 'digital', quantity: 1, unitCents: 900, lineCents: 900 }],
  });
  const second = await orderIn(app, 'paid', {
    customerName: '山田 太郎',
    items: [{ photoNumber: '1', size: '4x6', quantity: 3, unitCents: 500, lineCents: 1500 }],
  });
  return { app, waiting: [first, second], skipped: [pickup, shipped, pending, voided, other, digitalOnly] };
}

const names = (orders: OrderRecord[]) => orders.map((o) => o.customerName);

describe('GET /api/labels/batch', () => {
  test('PDF: a 6 × 4 in page per paid order waiting to ship, oldest first; nothing else', async (t) => {
    const { app, waiting, skipped } = await day(t);
    const res = await call(app, { url: `/api/labels/batch?eventSlug=${AX}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="labels-${AX}.pdf"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-label-count']).toBe('2');
    const pages = await readPdf(res.rawPayload);
    expect(pages.map((p) => [p.width, p.height])).toEqual([
      [432, 288],
      [432, 288],
    ]);
    waiting.forEach((o, i) => {
      expect(pages[i]?.text).toContain(o.orderNumber);
      expect(pages[i]?.text).toContain(o.customerName);
    });
    const all = pages.map((p) => p.text).join(' ');
    for (const name of names(skipped)) expect(all).not.toContain(name);
  });

  test('with slips=true, each label is followed by its packing slip with the photo thumbnails', async (t) => {
    const { app, waiting } = await day(t);
    const res = await call(app, { url: `/api/labels/batch?eventSlug=${AX}&slips=true` });
    expect(res.statusCode).toBe(200);
    // Another file name than the labels alone, so downloading both keeps both.
    expect(res.headers['content-disposition']).toBe(`attachment; filename="labels-and-slips-${AX}.pdf"`);
    const pages = await readPdf(res.rawPayload);
    expect(pages.map((p) => (p.width > p.height ? 'label' : 'slip'))).toEqual(['label', 'slip', 'label', 'slip']);
    expect(pages[3]?.text).toContain('PACKING SLIP');
    expect(pages[3]?.text).toContain(waiting[1]?.orderNumber);
    expect(pages[3]?.text).toContain('Anime Expo 2025');
    expect(pages[3]?.text).toContain('4x6 × 3');
    // Photo 1 is in the library: its thumbnail is on the slip.
    expect(pages[3]?.images).toBe(1);
  });

  test('DOCX: one editable page per label, oldest first', async (t) => {
    const { app, waiting } = await day(t);
    const res = await call(app, { url: `/api/labels/batch?eventSlug=${AX}&format=docx` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="labels-${AX}.docx"`);
    const xml = docxFiles(res.rawPayload)['word/document.xml'] as string;
    expect(xml.match(/<w:sectPr/g)).toHaveLength(2);
    const paragraphs = docxParagraphs(res.rawPayload);
    expect(paragraphs.filter((p) => waiting.some((o) => p === o.customerName))).toEqual(names(waiting));
  });

  test('nothing waiting: 409 NOTHING_TO_PRINT; an unknown event: 404; bad input: 400; admin only', async (t) => {
    const app = await appWithEvents(t);
    await orderIn(app, 'pending');
    expectError(await call(app, { url: `/api/labels/batch?eventSlug=${AX}` }), 409, 'NOTHING_TO_PRINT');
    expectError(await call(app, { url: '/api/labels/batch?eventSlug=Nope' }), 404, 'EVENT_NOT_FOUND');
    expectError(await call(app, { url: '/api/labels/batch' }), 400, 'VALIDATION_FAILED');
    expectError(await call(app, { url: `/api/labels/batch?eventSlug=${AX}&format=png` }), 400, 'VALIDATION_FAILED');
    expectError(await call(app, { url: `/api/labels/batch?eventSlug=${AX}&slips=perhaps` }), 400, 'VALIDATION_FAILED');
    expectError(await call(app, { url: `/api/labels/batch?eventSlug=${AX}`, admin: false }), 401, 'UNAUTHORIZED');
  });
});
