import { simpleParser } from 'mailparser';
import type { TestContext } from 'vitest';
import { describe, expect, test } from 'vitest';
import { completeMail } from '../../../src/services/notifier/delivery.js';
import { createRenderer, type RenderResult } from '../../../src/services/notifier/render.js';
import { composeRfc822 } from '../../../src/services/notifier/transports/file.js';
import type { MailJob, MailJobInput } from '../../../src/services/store/ports/mail-outbox.js';
import { realLabels, sqliteStore } from '../../support/mail-env.js';
import { newOrder } from '../../support/store-fixtures.js';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

async function setup(t: TestContext, operatorEmail?: string) {
  const store = await sqliteStore(t);
  const render = createRenderer({
    getOrder: (ref) => store.orders.get(ref),
    business: async () => ({
      businessName: 'Convention Photos',
      mailFrom: 'Convention Photos <photos@example.com>',
      publicBaseUrl: 'https://photos.example.com',
      paymentInstructions: 'Pay at the booth.',
      returnAddress: 'Convention Photos\n1 Main St\nSpringfield, IL 62701',
    }),
    operatorEmail,
  });
  /** Enqueues `input` and returns the job as the worker would claim it. */
  async function job(input: MailJobInput): Promise<MailJob> {
    const [j] = await store.outbox.enqueue([input]);
    return j!;
  }
  return { store, render, job };
}

function mailOf(r: RenderResult) {
  if ('skip' in r) throw new Error(`skipped: ${r.skip}`);
  return r.draft;
}

describe('rendering at send time', () => {
  test('receipt: to the customer, copy to the operator, both real labels attached at delivery', async (t) => {
    const { store, render, job } = await setup(t, 'booth@example.com');
    const order = await store.orders.create(newOrder(), { by: 'customer' });
    const draft = mailOf(await render(await job({ kind: 'receipt', orderId: order.id, payload: {} })));
    expect(draft.labelsOf?.id).toBe(order.id);
    const mail = await completeMail(draft, realLabels());
    expect(mail).not.toHaveProperty('labelsOf');
    expect(mail.to).toEqual([{ name: 'Ada Lovelace', address: 'ada@example.com' }]);
    expect(mail.cc).toEqual([{ name: '', address: 'booth@example.com' }]);
    expect(mail.subject).toBe(`Your order ${order.orderNumber}: receipt`);
    const [png, docx] = mail.attachments;
    expect(png?.filename).toBe(`label-${order.orderNumber}.png`);
    expect(png?.contentType).toBe('image/png');
    expect(png?.content.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(docx?.filename).toBe(`label-${order.orderNumber}.docx`);
    expect(docx?.contentType).toBe(DOCX_TYPE);
    expect(docx?.content.subarray(0, 4).toString('binary')).toBe('PK\u0003\u0004');
  });

  test('each message is written with the business settings as they are then: sender, signature, links, payment instructions, the labels’ return address; digital files alone get no label', async (t) => {
    const store = await sqliteStore(t);
    const business = {
      businessName: 'Convention Photos',
      mailFrom: 'Convention Photos <photos@example.com>',
      publicBaseUrl: 'http://localhost:3000',
      paymentInstructions: 'Pay at the booth.',
      returnAddress: 'Convention Photos\n123 Main St\nSpringfield, IL 62701',
    };
    const render = createRenderer({
      getOrder: (ref) => store.orders.get(ref),
      business: async () => ({ ...business }),
      operatorEmail: undefined,
    });
    const order = await store.orders.create(newOrder(), { by: 'customer' });
    const [j] = await store.outbox.enqueue([{ kind: 'receipt', orderId: order.id, payload: {} }]);
    const before = mailOf(await render(j!));
    expect(before.from).toEqual({ name: 'Convention Photos', address: 'photos@example.com' });
    expect(before.text).toContain('http://localhost:3000/order/');
    // The owner saves new settings: the next message (even of a job queued before) follows them.
    Object.assign(business, {
      businessName: 'Jane Doe Photography',
      mailFrom: 'Jane Doe <jane@janedoe.example.org>',
      publicBaseUrl: 'https://photos.janedoe.example.org',
      paymentInstructions: 'Venmo @jane-doe-photos',
      returnAddress: 'Jane Doe Photography\n9 Elm St\nPortland, OR 97201',
    });
    const after = mailOf(await render(j!));
    expect(after.from).toEqual({ name: 'Jane Doe', address: 'jane@janedoe.example.org' });
    expect(after.messageId).toMatch(/@janedoe\.example\.org>$/);
    expect(after.text).toContain(`https://photos.janedoe.example.org/order/${order.orderNumber}`);
    expect(after.text).toContain('Venmo @jane-doe-photos');
    expect(after.text).toContain('— Jane Doe Photography');
    expect(after.returnAddress).toBe('Jane Doe Photography\n9 Elm St\nPortland, OR 97201');
    const mail = await completeMail(after, realLabels());
    expect(mail.attachments.map((a) => a.filename)).toEqual([
      `label-${order.orderNumber}.png`,
      `label-${order.orderNumber}.docx`,
    ]);

    const digital = await store.orders.create(
      newOrder({
        fulfillmentType: 'pickup',
        items: [{ photoNumber: '12', size: 'digital', quantity: 1, unitCents: 800, lineCents: 800 }],
        subtotalCents: 800,
        shippingFeeCents: 0,
        totalCents: 800,
      }),
      { by: 'customer' },
    );
    expect(digital.fulfillmentType).toBe('digital');
    const [d] = await store.outbox.enqueue([{ kind: 'receipt', orderId: digital.id, payload: {} }]);
    const draft = mailOf(await render(d!));
    expect(draft.labelsOf).toBeNull();
    expect((await completeMail(draft, realLabels())).attachments).toEqual([]);
    expect(draft.text).toContain('download links');
  });

  test('no copy when OPERATOR_EMAIL is the customer, or unset', async (t) => {
    const { store, render, job } = await setup(t, 'ADA@example.com');
    const order = await store.orders.create(newOrder(), { by: 'customer' });
    const mail = mailOf(await render(await job({ kind: 'receipt', orderId: order.id, payload: {} })));
    expect(mail.cc).toEqual([]);
  });

  test('the message reflects the order as it is now (an edited email address)', async (t) => {
    const { store, render, job } = await setup(t);
    const order = await store.orders.create(newOrder({ customerEmail: 'typo@example' }), { by: 'customer' });
    const j = await job({ kind: 'receipt', orderId: order.id, payload: {} });
    await expect(render(j)).rejects.toThrow(/no usable email address/);
    await store.orders.update(order.id, { fields: { customerEmail: 'ada@example.com' } }, { by: 'admin' });
    expect(mailOf(await render(j)).to[0]?.address).toBe('ada@example.com');
  });

  test('header injection through the name is neutralised; HTML is escaped', async (t) => {
    const { store, render, job } = await setup(t, 'booth@example.com');
    const order = await store.orders.create(
      newOrder({ customerName: 'Eve\r\nBcc: evil@x.com\r\n<b>bold</b>', shippingAddress: '<script>x()</script>' }),
      { by: 'customer' },
    );
    const draft = mailOf(await render(await job({ kind: 'receipt', orderId: order.id, payload: {} })));
    const raw = await composeRfc822(await completeMail(draft, realLabels()));
    const headerBlock = raw.subarray(0, raw.indexOf('\r\n\r\n')).toString('utf8');
    expect(headerBlock).not.toMatch(/^bcc:/im);
    expect(headerBlock).not.toContain('evil@x.com>');
    const parsed = await simpleParser(raw);
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.headers.has('bcc')).toBe(false);
    const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
    expect(to?.value).toHaveLength(1);
    expect(to?.value[0]?.address).toBe('ada@example.com');
    expect(to?.value[0]?.name).not.toMatch(/[\r\n]/);
    expect(parsed.html).not.toContain('<script>');
    expect(parsed.html).toContain('&lt;script&gt;x()&lt;/script&gt;');
    expect(parsed.html).toContain('&lt;b&gt;bold&lt;/b&gt;');
  });

  test('an address that would add recipients is refused (the job waits for a fix)', async (t) => {
    const { store, render, job } = await setup(t);
    const order = await store.orders.create(newOrder({ customerEmail: 'ada@example.com\r\nBcc: evil@x.com' }), {
      by: 'customer',
    });
    await expect(render(await job({ kind: 'receipt', orderId: order.id, payload: {} }))).rejects.toThrow(
      /no usable email address/,
    );
  });

  test('shipped notice: sent while shipped, skipped once un-shipped', async (t) => {
    const { store, render, job } = await setup(t);
    const order = await store.orders.create(newOrder(), { by: 'customer' });
    await store.orders.update(order.id, { status: 'paid' }, { by: 'admin' });
    await store.orders.setShipping(
      order.id,
      { shipped: true, trackingNumber: '1Z999', printAll: true },
      { by: 'admin' },
    );
    const j = await job({ kind: 'shipped', orderId: order.id, payload: {} });
    const mail = mailOf(await render(j));
    expect(mail.text).toContain('Tracking number: 1Z999');
    expect(mail.labelsOf).toBeNull();
    expect((await completeMail(mail, realLabels())).attachments).toEqual([]);
    await store.orders.setShipping(order.id, { shipped: false }, { by: 'admin' });
    expect(await render(j)).toEqual({ skip: 'order is no longer marked shipped' });
  });

  test('verification: sent while held, skipped once confirmed', async (t) => {
    const { store, render, job } = await setup(t);
    const order = await store.orders.create(
      newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 48 * 3600_000).toISOString() }),
      { by: 'customer' },
    );
    const j = await job({ kind: 'verification', orderId: order.id, payload: { verifyUrl: 'https://p.test/v?t=1' } });
    expect(mailOf(await render(j)).text).toContain('https://p.test/v?t=1');
    await store.orders.releaseHold(order.id, { by: 'customer' });
    expect(await render(j)).toEqual({ skip: 'order was confirmed already' });
  });

  test('a job for an unknown order fails (and is retried), never renders', async (t) => {
    const { render, job } = await setup(t);
    await expect(render(await job({ kind: 'receipt', orderId: 'no-such-order', payload: {} }))).rejects.toThrow(
      /not found/,
    );
  });
});
