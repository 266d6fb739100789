/**
 * The README is what a new photographer or integrator reads first: it stays short, the
 * configuration table it links to (docs/configuration.md) is generated, its event.json example is one the server accepts, its
 * links lead somewhere, nothing in it points outside the repository, and its curl
 * quick-start works as written against a freshly started server.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderConfigTable, replaceConfigTable } from '../../scripts/lib/config-table.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/env.js';
import { EventJson } from '../../src/services/photos/event-config.js';
import { waitUntil } from '../support/wait.js';

const run = promisify(execFile);
const readme = await readFile('README.md', 'utf8');

/** The fenced blocks of one section (`## title` up to the next `## `). */
function blocks(section: string, lang: string): string[] {
  const start = readme.indexOf(`## ${section}`);
  expect(start, section).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 4);
  const text = readme.slice(start, end < 0 ? undefined : end);
  return [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1] as string);
}

test('the configuration table (docs/configuration.md) is generated from .env.example (run `npm run docs:config`)', async () => {
  const env = await readFile('.env.example', 'utf8');
  const doc = await readFile('docs/configuration.md', 'utf8');
  const table = renderConfigTable(env);
  expect(table).toContain('| `DATA_DIR` | `./data` |');
  expect(doc).toBe(replaceConfigTable(doc, table));
  expect(readme).toContain('](docs/configuration.md)');
});

test('the README shows the two commands and the sections a newcomer needs, and stays short', () => {
  expect(readme).toContain('npm install && npm start');
  expect(readme).toContain('npm test');
  const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  expect(sections).toEqual([
    'Two commands',
    'Your first event',
    'Quick start with curl',
    'Configuration',
    'Deployment',
    'Headline figures',
    'More',
  ]);
  // A five-minute read.
  const words = readme.match(/\w+/g) ?? [];
  expect(words.length).toBeLessThan(2000);
});

test("the README's event.json example is one the server accepts, every key set", () => {
  const [example] = blocks('Your first event', 'json');
  const parsed = EventJson.parse(JSON.parse(example as string));
  expect(Object.keys(parsed).sort()).toEqual(
    [
      'date',
      'deadline',
      'defaultSize',
      'isArchived',
      'name',
      'orderingEnabled',
      'prefix',
      'prices',
      'shippingFee',
    ].sort(),
  );
});

test('every link in the README leads to a file of the repository; nothing points outside it', () => {
  for (const [, target] of readme.matchAll(/\]\(([^)#]+)\)/g)) {
    if (/^https?:/.test(target as string)) continue;
    expect(existsSync(target as string), target).toBe(true);
  }
  expect(readme).not.toMatch(/\bSPEC\b|\.\.\/shared|interface\.md/); // \b: INTAKE_INSPECT is fine
});

describe('the quick-start, as written, against a fresh start', () => {
  // Inside the repository (test-artifacts/ is ignored), so the ALTCHA snippet finds altcha-lib
  // as it does when run from the project's folder; `data/` is the server's DATA_DIR, as on a
  // first `npm start`.
  const dir = path.resolve('test-artifacts', `quickstart-${process.pid}`);
  let app: Awaited<ReturnType<typeof buildApp>>;
  let base: string;

  beforeAll(async () => {
    await mkdir(dir, { recursive: true });
    app = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: path.join(dir, 'data'),
        LIBRARY_RESCAN_INTERVAL_MS: '0',
        // The default settling period (2 s) on purpose: the demo photos are written just before
        // the first scan, and "ready" must mean every one of them is listed.
      }),
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const ready = async () => (await app.inject({ url: '/readyz' })).statusCode === 200;
    // Bounded by this hook's own 90 s, not a shorter deadline of the wait's.
    await waitUntil(ready, 'the demo library to be ready', 90_000);
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('every command of the quick-start works; orders are made with the admin token and with an ALTCHA', {
    timeout: 60_000,
  }, async () => {
    const script = blocks('Quick start with curl', 'sh').join('\n');
    expect(script).toContain('BASE=http://localhost:3000');
    const { stdout } = await run('bash', ['-e', '-c', script.replace('BASE=http://localhost:3000', `BASE=${base}`)], {
      cwd: dir,
    });
    expect(stdout).toContain('"code":"Harbor Comic Con"');
    expect(stdout).toContain('"orderNumber":"HCC-0001"');
    expect(stdout).toContain('no email was given, so no receipt is sent.');
    expect(stdout).toContain('"pendingCount":1');
    expect(stdout).toContain('"orderNumber":"HCC-0002"');
    expect(stdout).toContain('a receipt is on its way to ada@example.com');
    expect((await app.store.orders.get('HCC-0002'))?.channel).toBe('web');
  });

  test("a photo's number leads to its file as docs/gallery.md says (the record's photo catalogue names it)", async () => {
    const found = (await app.inject({ url: '/api/photos/Harbor%20Comic%20Con/12' })).json();
    const guide = await readFile('docs/gallery.md', 'utf8');
    const query = /sqlite3 data\/orders\.db "([^"]+)"/.exec(guide)?.[1];
    expect(query).toContain('photo_catalogue');
    const db = new Database(path.join(dir, 'data', 'orders.db'), { readonly: true });
    const sql = (query as string).replace("'Anime Expo 2026'", "'Harbor Comic Con'");
    const hits = (db.prepare(sql).all() as { path: string }[]).map((r) => r.path);
    db.close();
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatch(new RegExp(`^${found.folder.day}/${found.folder.session}/`));
    expect(existsSync(path.join(dir, 'data', 'photos', 'Harbor Comic Con', hits[0] as string))).toBe(true);
  });
});
