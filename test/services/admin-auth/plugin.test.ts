import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../../src/app.js';
import { ADMIN_TOKEN_FILE } from '../../../src/services/admin-auth/plugin.js';
import { ADMIN_TOKEN, adminHeaders, build, tempDir, testConfig } from '../../helpers/build.js';

const errorBody = z.strictObject({ error: z.string(), code: z.string(), details: z.string() });
const OTHER_TOKEN = 'second-admin-token-abcdefghijklmnop';

type T = Parameters<typeof build>[0];

/** An app with a throwaway admin route and a route open to both (like order submission). */
async function appWithAdminRoutes(t: T, env: Record<string, string> = {}) {
  const app = await build(t, { noReady: true, env });
  app.get('/test/admin', { config: { access: 'viewer' }, schema: { security: [{ adminToken: [] }] } }, async () => ({
    ok: true,
  }));
  app.post('/test/either', async (request) => ({ admin: app.adminAuth.isAdmin(request) }));
  await app.ready();
  return app;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('requireAdmin', () => {
  test('no credentials: 401 UNAUTHORIZED with WWW-Authenticate and the error body', async (t) => {
    const app = await appWithAdminRoutes(t);
    const res = await app.inject({ url: '/test/admin' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="admin"');
    expect(errorBody.parse(res.json()).code).toBe('UNAUTHORIZED');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  test.for([
    ['another scheme', 'Basic dXNlcjpwYXNzd29yZA=='],
    ['an empty bearer', 'Bearer '],
    ['an empty header', ''],
  ] as const)('%s counts as no credentials: 401', async ([, header], t) => {
    const app = await appWithAdminRoutes(t);
    const res = await app.inject({ url: '/test/admin', headers: { authorization: header } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="admin"');
    expect(res.json().code).toBe('UNAUTHORIZED');
  });

  test('a wrong token: 401 UNAUTHORIZED with WWW-Authenticate', async (t) => {
    const app = await appWithAdminRoutes(t);
    const res = await app.inject({ url: '/test/admin', headers: bearer(`${ADMIN_TOKEN}x`) });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="admin"');
    expect(errorBody.parse(res.json()).code).toBe('UNAUTHORIZED');
  });

  test('the right token: 200', async (t) => {
    const app = await appWithAdminRoutes(t);
    const res = await app.inject({ url: '/test/admin', headers: adminHeaders });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    // the scheme name is case-insensitive
    const lower = await app.inject({ url: '/test/admin', headers: { authorization: `bearer ${ADMIN_TOKEN}` } });
    expect(lower.statusCode).toBe(200);
  });

  test('every token of ADMIN_TOKENS works', async (t) => {
    const app = await appWithAdminRoutes(t, { ADMIN_TOKENS: `${ADMIN_TOKEN}, ${OTHER_TOKEN}` });
    for (const token of [ADMIN_TOKEN, OTHER_TOKEN]) {
      expect((await app.inject({ url: '/test/admin', headers: bearer(token) })).statusCode).toBe(200);
    }
  });
});

describe('lockout after repeated wrong tokens', () => {
  const env = { ADMIN_AUTH_MAX_FAILURES: '3', ADMIN_AUTH_WINDOW_MS: '1000' };
  const from = (remoteAddress: string, headers: Record<string, string> = {}) => ({
    url: '/test/admin',
    remoteAddress,
    headers,
  });

  test('more than the allowed failures: 429 RATE_LIMITED with Retry-After, even with the right token, until the window has passed', async (t) => {
    // The app's clock stands still until the test moves it past the window: a loaded machine
    // taking over a second between two requests cannot end the lockout early.
    vi.useFakeTimers({ toFake: ['Date'] });
    t.onTestFinished(() => {
      vi.useRealTimers();
    });
    const app = await appWithAdminRoutes(t, env);
    const wrong = bearer('wrong-token-000000000000000000');
    for (let i = 0; i < 3; i++) {
      expect((await app.inject(from('203.0.113.7', wrong))).statusCode).toBe(401);
    }
    const fourth = await app.inject(from('203.0.113.7', wrong));
    expect(fourth.statusCode).toBe(429);
    expect(errorBody.parse(fourth.json()).code).toBe('RATE_LIMITED');
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(1);

    // locked: the right token, or none, is refused too
    const right = await app.inject(from('203.0.113.7', adminHeaders));
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
    expect((await app.inject(from('203.0.113.7'))).statusCode).toBe(429);

    // another address is not affected
    expect((await app.inject(from('198.51.100.1', adminHeaders))).statusCode).toBe(200);

    // after the window, the right token works again
    vi.setSystemTime(Date.now() + 1100);
    expect((await app.inject(from('203.0.113.7', adminHeaders))).statusCode).toBe(200);
  });

  test('missing or malformed credentials are not counted as failures', async (t) => {
    const app = await appWithAdminRoutes(t, env);
    for (let i = 0; i < 10; i++) {
      expect((await app.inject(from('203.0.113.8'))).statusCode).toBe(401);
      expect((await app.inject(from('203.0.113.8', { authorization: 'Basic Zm9vOmJhcg==' }))).statusCode).toBe(401);
    }
    expect((await app.inject(from('203.0.113.8', adminHeaders))).statusCode).toBe(200);
  });

  test('a right token does not forgive earlier typos: they count until the window ends', async (t) => {
    // A window no test run outlasts: the count must not depend on the machine's speed.
    const app = await appWithAdminRoutes(t, { ...env, ADMIN_AUTH_WINDOW_MS: '900000' });
    const wrong = bearer('typo-token-00000000000000000000');
    for (let i = 0; i < 3; i++) {
      expect((await app.inject(from('203.0.113.9', wrong))).statusCode).toBe(401);
      expect((await app.inject(from('203.0.113.9', adminHeaders))).statusCode).toBe(200);
    }
    // The fourth wrong token in the window is one too many, right tokens between them or not.
    expect((await app.inject(from('203.0.113.9', wrong))).statusCode).toBe(429);
    expect((await app.inject(from('203.0.113.9', adminHeaders))).statusCode).toBe(429);
  });

  test('IPv6 addresses in one /64 count together', async (t) => {
    // A window no loaded machine outlasts between the four requests (only the count matters here).
    const app = await appWithAdminRoutes(t, { ...env, ADMIN_AUTH_WINDOW_MS: '900000' });
    const wrong = bearer('wrong-token-000000000000000000');
    for (let i = 1; i <= 3; i++) {
      expect((await app.inject(from(`2001:db8:0:1::${i}`, wrong))).statusCode).toBe(401);
    }
    expect((await app.inject(from('2001:db8:0:1::99', wrong))).statusCode).toBe(429);
    expect((await app.inject(from('2001:db8:0:2::1', adminHeaders))).statusCode).toBe(200);
  });
});

describe('isAdmin (routes open to both)', () => {
  test('no credentials: false; right: true; wrong: 401', async (t) => {
    const app = await appWithAdminRoutes(t);
    expect((await app.inject({ method: 'POST', url: '/test/either' })).json()).toEqual({ admin: false });
    expect((await app.inject({ method: 'POST', url: '/test/either', headers: adminHeaders })).json()).toEqual({
      admin: true,
    });
    const wrong = await app.inject({
      method: 'POST',
      url: '/test/either',
      headers: bearer('nope-nope-nope-nope-nope-nope'),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer realm="admin"');
  });

  test('a locked-out address may still come without credentials, but not with them', async (t) => {
    const app = await appWithAdminRoutes(t, { ADMIN_AUTH_MAX_FAILURES: '1' });
    const wrong = bearer('wrong-token-000000000000000000');
    await app.inject({ method: 'POST', url: '/test/either', headers: wrong, remoteAddress: '192.0.2.5' });
    const locked = await app.inject({
      method: 'POST',
      url: '/test/either',
      headers: wrong,
      remoteAddress: '192.0.2.5',
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    const anonymous = await app.inject({ method: 'POST', url: '/test/either', remoteAddress: '192.0.2.5' });
    expect(anonymous.json()).toEqual({ admin: false });
    const right = await app.inject({
      method: 'POST',
      url: '/test/either',
      headers: adminHeaders,
      remoteAddress: '192.0.2.5',
    });
    expect(right.statusCode).toBe(429);
  });
});

describe('generated admin token (ADMIN_TOKENS unset)', () => {
  function logSink() {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    return { lines, logger: { level: 'info', stream } };
  }

  async function start(dataDir: string, withTerminal = true) {
    const sink = logSink();
    const shown: string[] = [];
    const terminal = withTerminal ? { write: (text: string) => shown.push(text) } : undefined;
    const app = await buildApp(testConfig(dataDir, { ADMIN_TOKENS: '' }), sink.logger, { terminal });
    app.get('/test/admin', { config: { access: 'viewer' }, schema: { security: [{ adminToken: [] }] } }, async () => ({
      ok: true,
    }));
    await app.ready();
    return { app, lines: sink.lines, shown };
  }

  test('generated once, stored 0600 under DATA_DIR, shown on the terminal only when generated, reused after a restart', async (t) => {
    const dataDir = await tempDir(t);
    const file = path.join(dataDir, ADMIN_TOKEN_FILE);

    const first = await start(dataDir);
    const token = (await readFile(file, 'utf8')).trim();
    expect(token.length).toBeGreaterThanOrEqual(24);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // Shown once on the terminal; the log names the file, never the token.
    expect(first.shown.join('')).toContain(token);
    expect(first.shown.join('')).toContain(file);
    expect(first.lines.some((l) => l.includes(token))).toBe(false);
    const told = first.lines.map((l) => JSON.parse(l) as { msg: string; file?: string }).find((l) => l.file === file);
    expect(told?.msg).toBe(
      `Admin token generated and stored in ${file} (readable by this user only). Send it as "Authorization: Bearer <token>" to the admin API; it is shown on the terminal this once. Set ADMIN_TOKENS to choose your own.`,
    );
    expect((await first.app.inject({ url: '/test/admin', headers: bearer(token) })).statusCode).toBe(200);
    expect((await first.app.inject({ url: '/test/admin' })).statusCode).toBe(401);
    await first.app.close();

    const second = await start(dataDir);
    expect(second.shown).toEqual([]);
    expect(second.lines.some((l) => l.includes(token))).toBe(false);
    expect(second.lines.some((l) => l.includes(file))).toBe(true);
    expect((await second.app.inject({ url: '/test/admin', headers: bearer(token) })).statusCode).toBe(200);
    await second.app.close();
    expect((await readFile(file, 'utf8')).trim()).toBe(token);
  });

  test('no terminal (a service manager, a container): the token is written nowhere but its file', async (t) => {
    const dataDir = await tempDir(t);
    const file = path.join(dataDir, ADMIN_TOKEN_FILE);
    const started = await start(dataDir, false);
    const token = (await readFile(file, 'utf8')).trim();
    expect(started.lines.some((l) => l.includes(token))).toBe(false);
    const told = started.lines.map((l) => JSON.parse(l) as { msg: string; file?: string }).find((l) => l.file === file);
    expect(told?.msg).toMatch(/^Admin token generated and stored in .*\. Set ADMIN_TOKENS to choose your own\.$/);
    expect(told?.msg).not.toMatch(/terminal/);
    await started.app.close();
  });

  test('ADMIN_TOKENS set: no file is written and the configured token is the only one', async (t) => {
    const app = await build(t, { noReady: true });
    app.get('/test/admin', { config: { access: 'viewer' }, schema: { security: [{ adminToken: [] }] } }, async () => ({
      ok: true,
    }));
    await app.ready();
    await expect(stat(path.join(app.dataDir, ADMIN_TOKEN_FILE))).rejects.toThrow();
  });

  test('a damaged token file stops start-up with a message naming it', async (t) => {
    const dataDir = await tempDir(t);
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, ADMIN_TOKEN_FILE), 'short\n', { mode: 0o600 });
    await expect(buildApp(testConfig(dataDir, { ADMIN_TOKENS: '' }))).rejects.toThrow(ADMIN_TOKEN_FILE);
  });
});
