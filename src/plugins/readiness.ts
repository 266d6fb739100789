/** A registry of readiness checks behind `GET /readyz`; services add theirs. */
import fp from 'fastify-plugin';

type ReadinessResult = { ok: boolean; details?: Record<string, unknown> };
type ReadinessCheck = () => Promise<ReadinessResult>;

interface Readiness {
  add(name: string, check: ReadinessCheck): void;
  run(): Promise<{ ok: boolean; checks: Record<string, ReadinessResult> }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}

const CHECK_TIMEOUT_MS = 2000;

function createReadiness(): Readiness {
  const checks = new Map<string, ReadinessCheck>();
  return {
    add(name, check) {
      checks.set(name, check);
    },
    async run() {
      const entries = await Promise.all(
        [...checks].map(async ([name, check]): Promise<[string, ReadinessResult]> => {
          let timer: NodeJS.Timeout | undefined;
          try {
            const timeout = new Promise<ReadinessResult>((resolve) => {
              timer = setTimeout(() => resolve({ ok: false, details: { error: 'timed out' } }), CHECK_TIMEOUT_MS);
            });
            return [name, await Promise.race([check(), timeout])];
          } catch (err) {
            return [name, { ok: false, details: { error: (err as Error).message } }];
          } finally {
            clearTimeout(timer);
          }
        }),
      );
      return { ok: entries.every(([, r]) => r.ok), checks: Object.fromEntries(entries) };
    },
  };
}

export default fp(
  async function readinessPlugin(fastify) {
    fastify.decorate('readiness', createReadiness());
  },
  { name: 'readiness' },
);
