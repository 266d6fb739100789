import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { expect, test, vi } from 'vitest';
import { requestLoggerFactory } from '../../src/lib/request-logger.js';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  const logger = pino({ level }, stream) as unknown as FastifyBaseLogger;
  return { logger, lines };
}

const flush = () => new Promise((r) => setImmediate(r));

test('no child is made for a request that logs nothing its level lets through', async () => {
  const { logger, lines } = capture('warn');
  const child = vi.spyOn(logger, 'child');
  const log = requestLoggerFactory(logger, { reqId: 'r-1' }, {});
  log.info('dropped');
  log.debug({ a: 1 }, 'dropped too');
  expect(child).not.toHaveBeenCalled();
  expect(log.level).toBe('warn');
  log.warn({ code: 'X' }, 'kept');
  log.error('also kept');
  expect(child).toHaveBeenCalledTimes(1); // made once, on the first line, then reused
  await flush();
  expect(lines.map((l) => [l.reqId, l.msg, l.code])).toEqual([
    ['r-1', 'kept', 'X'],
    ['r-1', 'also kept', undefined],
  ]);
});

test('lines are what the pino child would write, bindings and child loggers included', async () => {
  const { logger, lines } = capture('info');
  const log = requestLoggerFactory(logger, { reqId: 'r-2' }, {});
  log.info({ n: 1 }, 'hello %s', 'world');
  log.child({ part: 'x' }).info('from a child');
  logger.child({ reqId: 'r-2' }).info({ n: 1 }, 'hello %s', 'world');
  await flush();
  const strip = ({ time: _t, ...rest }: Record<string, unknown>) => rest;
  expect(strip(lines[0] ?? {})).toEqual(strip(lines[2] ?? {}));
  expect(lines[0]?.msg).toBe('hello world');
  expect(lines[1]).toMatchObject({ reqId: 'r-2', part: 'x', msg: 'from a child' });
});

test('a route with its own log level gets a real child at once, at that level', async () => {
  const { logger, lines } = capture('info');
  const log = requestLoggerFactory(logger, { reqId: 'r-3' }, { level: 'error' });
  expect(log.level).toBe('error');
  log.info('below the route level');
  log.error('at the route level');
  await flush();
  expect(lines.map((l) => l.msg)).toEqual(['at the route level']);
});
