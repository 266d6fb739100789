/** The slice of a pino/Fastify logger the stores use, so scripts and benches can pass their own. */
export type StoreLogger = {
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
};

export const silentLogger: StoreLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
