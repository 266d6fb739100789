/**
 * `GET`/`PUT /api/settings` (docs/contract.md, "Business settings"): the environment's values
 * by default, warnings while the return address is the placeholder or the public address is
 * localhost, saves that labels, packing slips, photo code cards and mail use at once, on every
 * server process sharing the record; owner only; bad values refused.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { build } from '../../helpers/build.js';
import { readPdf } from '../../support/fulfilment-fixtures.js';
import { docxParagraphs } from '../../support/labels-fixtures.js';
import { STAFF_TOKEN } from '../../support/web-server.js';
import { appWithEvents, call, expectError, orderIn } from '../admin/fixtures.js';

const LOCAL = { PUBLIC_BASE_URL: 'http://localhost:3000', ADMIN_TOKENS: 'test-admin-token-0123456789abcdef' };

const JANE = {
  businessName: 'Jane Doe Photography',
  returnAddress: 'Jane Doe Photography\n9 Elm St\nPortland, OR 97201',
  publicBaseUrl: 'https://photos.janedoephoto.com/',
  paymentInstructions: 'Cash or card at the booth.\nOr Venmo @jane-doe-photos with your order number.',
  mailFrom: 'Jane Doe Photography <orders@janedoephoto.com>',
};

async function outboxMails(dataDir: string): Promise<string[]> {
  const dir = path.join(dataDir, 'outbox');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(names.map(async (n) => (await readFile(path.join(dir, n), 'utf8')).replace(/=\r?\n/g, '')));
}

test('the environment gives the defaults; a placeholder return address and a localhost public address are warnings', async (t) => {
  const app = await appWithEvents(t, { env: LOCAL });
  const res = await call(app, { url: '/api/settings' });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({
    businessName: 'Convention Photos',
    returnAddress: 'Convention Photos\n123 Main St\nSpringfield, IL 62701',
    publicBaseUrl: 'http://localhost:3000',
    mailFrom: 'Convention Photos <photos@localhost>',
    saved: [],
    updatedAt: null,
  });
  expect(body.paymentInstructions).toMatch(/booth/);
  expect(body.defaults).toEqual({
    businessName: body.businessName,
    returnAddress: body.returnAddress,
    publicBaseUrl: body.publicBaseUrl,
    paymentInstructions: body.paymentInstructions,
    mailFrom: body.mailFrom,
  });
  expect(body.warnings.map((w: { field: string }) => w.field)).toEqual(['returnAddress', 'publicBaseUrl']);
  expect(res.headers['cache-control']).toBe('no-store');
});

test('a save applies at once: the next label, batch PDF, photo code card and mail use it; null gives a key back to the environment', async (t) => {
  const app = await appWithEvents(t, { env: LOCAL });
  const saved = await call(app, { method: 'PUT', url: '/api/settings', payload: JANE });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(saved.json()).toMatchObject({
    ...JANE,
    publicBaseUrl: 'https://photos.janedoephoto.com',
    saved: ['businessName', 'returnAddress', 'publicBaseUrl', 'paymentInstructions', 'mailFrom'],
    warnings: [],
    updatedBy: expect.stringMatching(/^admin:[0-9a-f]{8}$/),
  });

  // A label (DOCX) and the batch PDF carry the saved return address.
  const order = await orderIn(app, 'paid', { customerEmail: 'ada@example.com', printed: true });
  const docx = await call(app, { url: `/api/orders/${order.id}/envelope/docx` });
  expect(docxParagraphs(docx.rawPayload).join('\n')).toContain('9 Elm St');
  expect(docxParagraphs(docx.rawPayload).join('\n')).not.toContain('123 Main St');
  const batch = await call(app, { url: '/api/labels/batch?eventSlug=AX2025&slips=true' });
  expect(batch.statusCode).toBe(200);
  const pages = await readPdf(batch.rawPayload);
  expect(pages[0]?.text).toContain('Portland, OR 97201');

  // A photo code card points to the saved public address.
  const card = await call(app, { method: 'POST', url: '/api/finder', payload: {} });
  expect(card.json().url).toMatch(/^https:\/\/photos\.janedoephoto\.com\/me\/[0-9A-Z]{8}$/);

  // Mail: the sender, the signature, the links, the payment instructions of an unpaid order.
  await app.notifier.flush();
  const before = (await outboxMails(app.dataDir)).length;
  await app.inject({
    method: 'POST',
    url: '/api/orders/create',
    headers: { authorization: `Bearer ${LOCAL.ADMIN_TOKENS}` },
    payload: { eventSlug: 'AX2025', photos: ['1'], customerInfo: { name: 'Ada', email: 'ada@example.com' } },
  });
  await app.notifier.flush();
  const mails = await outboxMails(app.dataDir);
  expect(mails).toHaveLength(before + 1);
  const receipt = mails.find((m) => m.includes('AX25-0002')) ?? '';
  expect(receipt).toMatch(/^From: .*Jane Doe Photography.*<orders@janedoephoto\.com>/m);
  expect(receipt).toContain('https://photos.janedoephoto.com/order/AX25-0002');
  expect(receipt).toContain('Or Venmo @jane-doe-photos with your order number.');
  expect(receipt).toContain('Jane Doe Photography');
  expect(receipt).not.toContain('localhost');

  // null: the environment's value again (and its warning).
  const back = await call(app, { method: 'PUT', url: '/api/settings', payload: { publicBaseUrl: null } });
  expect(back.json()).toMatchObject({ publicBaseUrl: 'http://localhost:3000' });
  expect(back.json().warnings.map((w: { field: string }) => w.field)).toEqual(['publicBaseUrl']);
  expect(back.json().saved).not.toContain('publicBaseUrl');
});

test('another server process sharing the record follows a save within about a second', async (t) => {
  const app = await appWithEvents(t, { env: LOCAL });
  const other = await build(t, { dataDir: app.dataDir, env: LOCAL });
  expect((await call(other, { url: '/api/settings' })).json().businessName).toBe('Convention Photos');
  await call(app, { method: 'PUT', url: '/api/settings', payload: { businessName: 'Jane Doe Photography' } });
  await expect
    .poll(async () => (await call(other, { url: '/api/settings' })).json().businessName, { interval: 100 })
    .toBe('Jane Doe Photography');
  // ...and its mail and labels with it (read through the same settings).
  await expect.poll(async () => (await other.businessSettings.get()).businessName).toBe('Jane Doe Photography');
});

test('owner only; bad values are 400 with the field named, and nothing is saved', async (t) => {
  const app = await appWithEvents(t, { env: { ...LOCAL, ADMIN_TOKENS: `${LOCAL.ADMIN_TOKENS},staff:${STAFF_TOKEN}` } });
  const staff = { authorization: `Bearer ${STAFF_TOKEN}` };
  expectError(await call(app, { url: '/api/settings', admin: false, headers: staff }), 403, 'FORBIDDEN');
  expectError(
    await call(app, {
      method: 'PUT',
      url: '/api/settings',
      admin: false,
      headers: staff,
      payload: { businessName: 'X' },
    }),
    403,
    'FORBIDDEN',
  );
  expectError(await call(app, { url: '/api/settings', admin: false }), 401, 'UNAUTHORIZED');
  for (const payload of [
    {},
    { publicBaseUrl: 'ftp://photos.example.org' },
    { publicBaseUrl: 'not a url' },
    { publicBaseUrl: 'https://photos.example.org/?x=1' },
    { mailFrom: 'Jane Doe' },
    { mailFrom: 'jane@localhost' },
    { businessName: '' },
    { businessName: 'two\nlines' },
    { returnAddress: '\n \n' },
    { returnAddress: 'a\nb\nc\nd\ne\nf\ng' },
    { paymentInstructions: 'x'.repeat(1001) },
    { color: 'blue' },
  ]) {
    const res = await call(app, { method: 'PUT', url: '/api/settings', payload });
    expectError(res, 400, 'VALIDATION_FAILED');
  }
  expect((await call(app, { url: '/api/settings' })).json().saved).toEqual([]);
});
