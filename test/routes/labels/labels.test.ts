/**
 * The four label routes (docs/contract.md, "Labels"): a real PNG (1800 × 1200, read back with sharp) and a real
 * DOCX (opened back up), served as attachments named after the order, never cached.
 */
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { docxParagraphs } from '../../support/labels-fixtures.js';
import { appWithEvents, call, expectError, orderIn } from '../admin/fixtures.js';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('shipping labels', () => {
  test('PNG on both paths: image/png, 1800 × 1200, attachment label-<orderNumber>.png, no-store', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'paid');
    for (const url of [
      `/api/orders/${order.id}/envelope/png`,
      `/api/envelope/png/${order.orderNumber.toLowerCase()}`,
    ]) {
      const res = await call(app, { url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="label-${order.orderNumber}.png"`);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 1800, height: 1200 });
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    }
  });

  test('DOCX on both paths: a zip with the order number, items, recipient and return address', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'paid', { customerName: 'Zoë Ångström' });
    for (const url of [`/api/orders/${order.orderNumber}/envelope/docx`, `/api/envelope/docx/${order.id}`]) {
      const res = await call(app, { url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe(DOCX_TYPE);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="label-${order.orderNumber}.docx"`);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04])); // PK\3\4
      const text = docxParagraphs(res.rawPayload).join('\n');
      expect(text).toContain(order.orderNumber);
      expect(text).toContain('Photo #12 (4x6) x2');
      expect(text).toContain('Zoë Ångström');
      expect(text).toContain('1 Main St');
      expect(text).toContain('Springfield');
      expect(text).toContain('62701');
      expect(text).toContain('Convention Photos'); // RETURN_ADDRESS default
    }
  });

  test('unknown order: 404 ORDER_NOT_FOUND as JSON on every path', async (t) => {
    const app = await appWithEvents(t);
    for (const url of [
      '/api/orders/AX25-9999/envelope/png',
      '/api/orders/AX25-9999/envelope/docx',
      '/api/envelope/png/AX25-9999',
      '/api/envelope/docx/AX25-9999',
    ]) {
      const res = await call(app, { url });
      expectError(res, 404, 'ORDER_NOT_FOUND');
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  });

  test('a pickup order gets a label too', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'paid', {
      fulfillmentType: 'pickup',
      shippingAddress: '',
      city: '',
      state: '',
      zipCode: '',
    });
    const res = await call(app, { url: `/api/envelope/png/${order.id}` });
    expect(res.statusCode).toBe(200);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(1800);
  });
});
