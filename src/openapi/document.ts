/**
 * Produces the OpenAPI document from the code, with a neutral configuration, so the
 * checked-in `openapi/openapi.json` does not depend on who generated it or where.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config/env.js';

export const OPENAPI_FILE = 'openapi/openapi.json';

/** `inspect` sees the ready app before it closes (the roles table is made from its routes). */
export async function generateOpenApiDocument(
  inspect?: (app: FastifyInstance) => void,
): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'openapi-'));
  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dir,
      PHOTOS_DIR: path.join(dir, 'photos'),
      DEMO_LIBRARY: 'off',
      LOG_LEVEL: 'silent',
      ADMIN_TOKENS: 'openapi-generation-token-0000000000',
      LIBRARY_RESCAN_INTERVAL_MS: '0',
    }),
  );
  try {
    await app.ready();
    inspect?.(app);
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The exact bytes written to the checked-in file. */
export function formatOpenApiDocument(doc: Record<string, unknown>): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
