/**
 * The real parts the notifier runs on, without Fastify: a SQLite order store in a temporary
 * folder and the real label renderer. Closed when the test finishes.
 */
import path from 'node:path';
import type { TestContext } from 'vitest';
import { createLabelRenderer } from '../../src/services/labels/renderer.js';
import { createSqliteStore } from '../../src/services/store/sqlite/index.js';
import { tempDir } from '../helpers/build.js';

export async function sqliteStore(t: TestContext, dir?: string) {
  const folder = dir ?? (await tempDir(t));
  const store = createSqliteStore({ file: path.join(folder, 'orders.db') });
  await store.init();
  t.onTestFinished(() => store.close());
  return store;
}

export function realLabels() {
  return createLabelRenderer({ returnAddress: 'Convention Photos\n123 Main St\nSpringfield, IL 62701' });
}
