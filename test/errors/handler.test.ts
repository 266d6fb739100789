import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/app.js';
import { AppError, appError } from '../../src/errors/catalogue.js';
import { build, tempDir, testConfig } from '../helpers/build.js';

const errorShape = z.strictObject({ error: z.string(), code: z.string(), details: z.string() });

describe('error handler', () => {
  async function appWithRoutes(t: Parameters<typeof build>[0]) {
    const app = await build(t, { noReady: true });
    app.post('/test/echo', { schema: { body: z.object({ name: z.string().max(5) }) } }, async (req) => req.body);
    app.get('/test/boom', async () => {
      throw new Error('secret internal detail /etc/passwd');
    });
    app.get('/test/conflict', async () => {
      throw new AppError('INVALID_TRANSITION', { details: { from: 'void', to: 'paid' } });
    });
    await app.ready();
    return app;
  }

  test('unknown route: 404 NOT_FOUND with the error body and CORS', async (t) => {
    const app = await build(t);
    const res = await app.inject({ url: '/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(errorShape.parse(res.json()).code).toBe('NOT_FOUND');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  test('malformed JSON is 400 VALIDATION_FAILED', async (t) => {
    const app = await appWithRoutes(t);
    const res = await app.inject({
      method: 'POST',
      url: '/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(errorShape.parse(res.json()).code).toBe('VALIDATION_FAILED');
  });

  test('an empty JSON body is 400', async (t) => {
    const app = await appWithRoutes(t);
    const res = await app.inject({
      method: 'POST',
      url: '/test/echo',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });

  test('schema violations are 400 with the field in details', async (t) => {
    const app = await appWithRoutes(t);
    const res = await app.inject({ method: 'POST', url: '/test/echo', payload: { name: 'far too long' } });
    expect(res.statusCode).toBe(400);
    const body = errorShape.parse(res.json());
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(JSON.parse(body.details)).toEqual([expect.objectContaining({ in: 'body', field: 'name' })]);
  });

  test('a body over 64 KiB is 413 PAYLOAD_TOO_LARGE', async (t) => {
    const app = await appWithRoutes(t);
    const res = await app.inject({ method: 'POST', url: '/test/echo', payload: { name: 'x'.repeat(70 * 1024) } });
    expect(res.statusCode).toBe(413);
    expect(errorShape.parse(res.json()).code).toBe('PAYLOAD_TOO_LARGE');
  });

  test('a non-JSON body is 415 UNSUPPORTED_MEDIA_TYPE', async (t) => {
    const app = await appWithRoutes(t);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await app.inject({
        method: 'POST',
        url: '/test/echo',
        headers: { 'content-type': type },
        payload: 'name=a',
      });
      expect(res.statusCode, type).toBe(415);
      expect(errorShape.parse(res.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  test('5xx hides internals', async (t) => {
    const app = await appWithRoutes(t);
    const res = await app.inject({ url: '/test/boom' });
    expect(res.statusCode).toBe(500);
    const body = errorShape.parse(res.json());
    expect(body).toEqual({ error: 'Internal server error', code: 'INTERNAL', details: '' });
    expect(res.body).not.toContain('passwd');
    expect(res.body).not.toContain('at ');
  });

  test('AppError keeps its status, code and JSON details', async (t) => {
    const app = await appWithRoutes(t);
    const res = await app.inject({ url: '/test/conflict' });
    expect(res.statusCode).toBe(409);
    const body = errorShape.parse(res.json());
    expect(body.code).toBe('INVALID_TRANSITION');
    expect(JSON.parse(body.details)).toEqual({ from: 'void', to: 'paid' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('a 503 a route chose (nothing underneath) is a warning without a stack; a fault is an error with one', async (t) => {
    const lines: { level: number; msg: string; code?: string; err?: { stack?: string } }[] = [];
    const app = await buildApp(testConfig(await tempDir(t)), {
      level: 'info',
      stream: { write: (line: string) => void lines.push(JSON.parse(line)) },
    });
    t.onTestFinished(() => app.close());
    app.get('/test/indexing', async () => {
      throw appError('SERVICE_UNAVAILABLE', {
        details: 'The photo library is being indexed',
        headers: { 'Retry-After': '5' },
      });
    });
    app.get('/test/store-down', async () => {
      throw appError('STORE_UNAVAILABLE', { cause: new Error('connect ECONNREFUSED') });
    });
    app.get('/test/boom', async () => {
      throw new Error('secret internal detail');
    });
    await app.ready();

    const indexing = await app.inject({ url: '/test/indexing' });
    expect(indexing.statusCode).toBe(503);
    expect(indexing.headers['retry-after']).toBe('5');
    await app.inject({ url: '/test/store-down' });
    await app.inject({ url: '/test/boom' });
    const byCode = (code: string) => lines.filter((l) => l.code === code);
    expect(byCode('SERVICE_UNAVAILABLE')).toEqual([expect.objectContaining({ level: 40 })]); // warn
    expect(byCode('SERVICE_UNAVAILABLE')[0]?.err).toBeUndefined();
    expect(byCode('STORE_UNAVAILABLE')).toEqual([expect.objectContaining({ level: 50 })]); // error
    expect(byCode('STORE_UNAVAILABLE')[0]?.err?.stack).toMatch(/ECONNREFUSED/);
    expect(byCode('INTERNAL')).toEqual([expect.objectContaining({ level: 50 })]);
    expect(byCode('INTERNAL')[0]?.err?.stack).toMatch(/secret internal detail/);
  });
});
