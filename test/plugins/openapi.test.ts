/**
 * The served OpenAPI document and the /docs page follow the configuration: "Try it out" calls
 * PUBLIC_BASE_URL when it is set, and a relative server (this host and port) when it is not.
 */
import { describe, expect, test } from 'vitest';
import { build } from '../helpers/build.js';

type Server = { url: string; variables: Record<string, { default: string }> };

const defaults = (servers: Server[]) => servers.map((s) => Object.values(s.variables)[0]?.default);

describe('servers and the /docs CSP', () => {
  test('PUBLIC_BASE_URL set: both hosts default to it, and /docs may connect to it', async (t) => {
    const app = await build(t, { env: { PUBLIC_BASE_URL: 'https://photos.example.com/' } });
    const doc = (await app.inject({ url: '/openapi.json' })).json() as { servers: Server[] };
    expect(doc.servers.map((s) => s.url)).toEqual(['{gallery_url}', '{base_url}']);
    expect(defaults(doc.servers)).toEqual(['https://photos.example.com', 'https://photos.example.com']);
    const page = await app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self' https://photos.example.com");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/upgrade-insecure-requests|validator\.swagger\.io|https:(;| )/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  test('PUBLIC_BASE_URL unset: relative servers, and /docs connects to its own origin only', async (t) => {
    const app = await build(t, { env: { PUBLIC_BASE_URL: '' } });
    const doc = (await app.inject({ url: '/openapi.json' })).json() as { servers: Server[] };
    expect(defaults(doc.servers)).toEqual(['/', '/']);
    const csp = String((await app.inject({ url: '/docs/' })).headers['content-security-policy']);
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
  });
});
