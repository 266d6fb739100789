/**
 * A failed test fails the run: vitest, with this suite's global set-up (the shared PostgreSQL
 * of postgres-shared.ts, whose library ends the process with 0 unless kept from it), exits
 * non-zero when a test fails. Otherwise CI would land a red run.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/build.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('a run with a failing test under the suite set-up exits non-zero', async (t) => {
  const dir = await tempDir(t);
  const config = path.join(dir, 'vitest.red.config.ts');
  await writeFile(
    config,
    [
      `import base from ${JSON.stringify(path.join(root, 'vitest.config.ts'))};`,
      'export default { ...base, test: { ...base.test, root: ' +
        `${JSON.stringify(root)}, include: ['test/fixtures/red-run/*.check.ts'] } };`,
    ].join('\n'),
  );
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const code = await new Promise<number | null>((resolve) => {
    const child = execFile(process.execPath, [vitest, 'run', '--config', config], { cwd: root }, () => {});
    child.on('exit', (c) => resolve(c));
  });
  expect(code).toBe(1);
}, 120_000);
