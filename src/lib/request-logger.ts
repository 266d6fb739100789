/**
 * Fastify's `childLoggerFactory`: each request's logger, made only when the request logs. A
 * pino child per request costs a few per cent of a cached gallery page, and most requests log
 * nothing; this stand-in makes the child on the first line the level lets through, so log
 * lines are exactly what the child would have written.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** pino's isLevelEnabled; a logger without it (not pino) is asked to log everything. */
function enabled(logger: FastifyBaseLogger, level: string): boolean {
  const check = (logger as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled;
  return check ? check.call(logger, level) : true;
}

class RequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get #logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  #write(level: Level, args: unknown[]): void {
    // The parent's level decides unless the route set its own (a child is made at once then).
    if (!this.#child && !enabled(this.parent, level)) return;
    (this.#logger[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): LevelWithSilentOrString {
    return this.#child ? this.#child.level : (this.options.level ?? this.parent.level);
  }

  set level(value: LevelWithSilentOrString) {
    this.#logger.level = value;
  }

  isLevelEnabled(level: string): boolean {
    return enabled(this.#child ?? this.parent, level);
  }

  // Prototype methods, not arrow fields: nothing allocated per request but the object itself.
  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}

export function requestLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // A route with its own log level: the real child at once, so the level applies as pino does it.
  if (options.level !== undefined) return logger.child(bindings, options);
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
