/**
 * Slow clients and broken HTTP against the app listening on loopback (raw sockets):
 * slowloris (headers or body a byte at a time), a client that never reads its responses,
 * idle connections, and requests Node's parser refuses: each is cut off by a server timeout
 * or answered in the error shape (docs/contract.md, "Hosts and formats"), and honest clients keep being served meanwhile.
 *
 * REQUEST_TIMEOUT_MS is 1 s here (30 s by default; headers 10 s at most; a silent socket
 * 2 × REQUEST_TIMEOUT_MS), so the cut-offs take seconds, not minutes.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { build, type TestApp } from '../helpers/build.js';
import { rawExchange, trickle } from '../support/abuse-raw.js';
import { blockContext, ErrorBody } from '../support/orders-fixtures.js';

const TIMEOUT_MS = 1000;

async function listening(t: Parameters<typeof build>[0]): Promise<{ app: TestApp; port: number }> {
  const app = await build(t, { env: { REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as AddressInfo).port };
}

const connectionsOf = (app: TestApp) =>
  new Promise<number>((resolve, reject) => app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

async function healthy(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  return res.status;
}

function expectSpecError(answer: Awaited<ReturnType<typeof rawExchange>>, status: number, code: string): void {
  expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['access-control-allow-origin']).toBe('*');
  expect(ErrorBody.parse(JSON.parse(answer.body))).toMatchObject({ code });
}

// Concurrent: each test waits on its own app's timers (seconds of them), not on the CPU, and
// its assertions have no upper time bound that another test's load could break.
describe.concurrent('slow clients are cut off by the server', () => {
  test('headers a byte at a time (slowloris): 408 REQUEST_TIMEOUT, while others are served', async (t) => {
    const { app, port } = await listening(t);
    const request = 'GET /event HTTP/1.1\r\nHost: photos.test\r\nUser-Agent: slowloris\r\nX-a: b\r\n';
    // 50 such clients at once, each sending a byte every 150 ms: none would ever finish.
    const slow = Array.from({ length: 50 }, () =>
      rawExchange(port, trickle(request.repeat(3)), { gapMs: 150, waitMs: 10_000 }),
    );
    // Others come once the server holds all 50 (an event, however long a loaded machine takes).
    await expect.poll(() => connectionsOf(app)).toBeGreaterThanOrEqual(50);
    const served: number[] = [];
    for (let i = 0; i < 5; i++) served.push(await healthy(port));
    expect(served).toEqual([200, 200, 200, 200, 200]);
    // Each client would trickle for 30+ s; closed before its 10 s wait ended, with a 408, means the
    // server's request timeout cut it off (no clock bound: a loaded machine would break one).
    for (const answer of await Promise.all(slow)) {
      expect(answer.closedAfterMs).toBeDefined();
      expectSpecError(answer, 408, 'REQUEST_TIMEOUT');
    }
  });

  test('a body a byte at a time: 408 REQUEST_TIMEOUT within the request timeout', async (t) => {
    const { port } = await listening(t);
    const body = JSON.stringify({ feedback: 'x'.repeat(200) });
    const head = `POST /api/orders/AX26-0001/feedback HTTP/1.1\r\nHost: photos.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // 20+ s of trickling: closed before the 10 s wait ended, with a 408, is the server's cut-off.
    const answer = await rawExchange(port, [head, ...trickle(body)], { gapMs: 100, waitMs: 10_000 });
    expect(answer.closedAfterMs).toBeDefined();
    expectSpecError(answer, 408, 'REQUEST_TIMEOUT');
  });

  // 40 responses of Swagger UI's 1.7 MB script (67 MB, more than loopback's socket buffers can
  // hold on either side: 32 MB received + 4 MB sent at Linux's largest) are written until the
  // buffers fill. A file streamed from disk costs the server almost no CPU, so the test's time is
  // the cut-off's, not the making of the responses (300 /openapi.json answers were 300
  // serialisations of 360 KB); the waits below are long safety nets, the test ends when the
  // socket is dropped.
  test('a client that never reads its responses (slow read) loses its connection', { timeout: 120_000 }, async (t) => {
    const { app, port } = await listening(t);
    const script = await app.inject({ url: '/docs/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
    expect(script.rawPayload.length).toBeGreaterThan(1_500_000);
    // 40 pipelined requests for the script, nothing read: the socket buffers fill, the server
    // can't write, and the silent socket is dropped.
    const net = await import('node:net');
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    socket.on('error', () => {});
    t.onTestFinished(() => {
      socket.destroy();
    });
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write('GET /docs/static/swagger-ui-bundle.js HTTP/1.1\r\nHost: photos.test\r\n\r\n'.repeat(40));
    const connections = () => connectionsOf(app);
    // Held by the server first (its accept may come after the client's connect on a loaded machine).
    await expect.poll(connections).toBe(1);
    await expect.poll(connections, { interval: 100, timeout: 90_000 }).toBe(0);
    expect(await healthy(port)).toBe(200);
  });

  test('an idle keep-alive connection is closed after 5 s', async (t) => {
    const { port } = await listening(t);
    const answer = await rawExchange(port, ['GET /healthz HTTP/1.1\r\nHost: photos.test\r\n\r\n'], { waitMs: 9_000 });
    expect(answer.status).toBe(200);
    // Closed by the server (before the 9 s wait ended), and not before its 5 s.
    expect(answer.closedAfterMs).toBeDefined();
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(4_500);
  });
});

describe('HTTP that Node refuses is answered in the error shape (docs/contract.md, "Hosts and formats")', () => {
  const cases: { name: string; raw: string; status: number; code: string }[] = [
    {
      name: 'a space in the path',
      raw: 'GET /event/a b HTTP/1.1\r\nHost: x\r\n\r\n',
      status: 400,
      code: 'VALIDATION_FAILED',
    },
    {
      name: 'a control character in a header',
      raw: 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n',
      status: 400,
      code: 'VALIDATION_FAILED',
    },
    {
      name: 'a NUL in the request line',
      raw: 'GET /event\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
      status: 400,
      code: 'VALIDATION_FAILED',
    },
    {
      name: 'not HTTP at all',
      raw: '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003\r\n\r\n',
      status: 400,
      code: 'VALIDATION_FAILED',
    },
    {
      name: 'an unknown method',
      raw: 'BREW /event HTTP/1.1\r\nHost: x\r\n\r\n',
      status: 400,
      code: 'VALIDATION_FAILED',
    },
    {
      name: 'headers over 16 KB',
      raw: `GET /event HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      status: 431,
      code: 'HEADERS_TOO_LARGE',
    },
    {
      name: 'Content-Length and Transfer-Encoding together (request smuggling)',
      raw: 'POST /api/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      status: 400,
      code: 'VALIDATION_FAILED',
    },
    {
      name: 'two different Content-Lengths',
      raw: 'POST /api/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      status: 400,
      code: 'VALIDATION_FAILED',
    },
    {
      name: 'a broken chunked body',
      raw: 'POST /api/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
      status: 400,
      code: 'VALIDATION_FAILED',
    },
  ];

  // One app for these cases: each sends bytes the parser refuses on a connection of its own,
  // which the server answers and closes; none reaches a route or changes what the app holds.
  const block = blockContext();
  let shared: Promise<{ app: TestApp; port: number }> | undefined;

  test.for(cases)('$name: $status $code, connection closed', async ({ raw, status, code }) => {
    shared ??= listening(block);
    const { port } = await shared;
    const answer = await rawExchange(port, [Buffer.from(raw, 'latin1')], { waitMs: 5_000 });
    expectSpecError(answer, status, code);
    expect(answer.headers.connection).toBe('close');
    expect(answer.closedAfterMs).toBeDefined();
    expect(await healthy(port)).toBe(200);
  });
});
