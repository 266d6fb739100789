/**
 * A real pino logger (Fastify's logger type) that also keeps what it was given, so a test can
 * assert on what a service logged. Lines go nowhere; `entries` holds each call's level,
 * object (as passed, errors included) and message, children's calls too.
 */
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';

type LogEntry = {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  obj: Record<string, unknown>;
  msg: string | undefined;
};

export type RecordingLogger = FastifyBaseLogger & { entries: LogEntry[] };

export function recordingLogger(level: pino.LevelWithSilent = 'debug'): RecordingLogger {
  const entries: LogEntry[] = [];
  const logger = pino(
    {
      level,
      hooks: {
        logMethod(args, method, levelValue) {
          const [first, second] = args as unknown[];
          const name = pino.levels.labels[levelValue] as LogEntry['level'];
          entries.push(
            typeof first === 'string'
              ? { level: name, obj: {}, msg: first }
              : { level: name, obj: (first ?? {}) as Record<string, unknown>, msg: second as string | undefined },
          );
          method.apply(this, args);
        },
      },
    },
    { write() {} },
  );
  return Object.assign(logger as FastifyBaseLogger, { entries });
}
