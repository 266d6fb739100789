/**
 * The real parts the notifier runs on, without Fastify: a SQLite order store in a temporary
 * folder and the real label renderer. Closed when the test finishes.
 */
import path from 'node:path';
import type { TestContext } from 'vitest';
import { createLabelRenderer } from '../../src/services/labels/renderer.js';
import { tempDir } from '../helpers/build.js';
import { sqliteStore as openSqliteStore } from './store-engines.js';

export async function sqliteStore(t: TestContext, dir?: string) {
  return openSqliteStore(t, path.join(dir ?? (await tempDir(t)), 'orders.db'));
}

export function realLabels() {
  return createLabelRenderer({ returnAddress: 'Convention Photos\n123 Main St\nSpringfield, IL 62701' });
}
