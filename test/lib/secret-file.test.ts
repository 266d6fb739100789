import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { readOrCreateSecret } from '../../src/lib/secret-file.js';
import { tempDir } from '../helpers/build.js';

let n = 0;
const opts = { generate: () => `generated-secret-${++n}-${'x'.repeat(20)}`, minLength: 24 };

test('created once with mode 0600 in a folder made on demand, then read back', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'nested', 'secret');
  const first = await readOrCreateSecret(file, opts);
  expect(first.created).toBe(true);
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  const again = await readOrCreateSecret(file, opts);
  expect(again).toEqual({ value: first.value, created: false, file, exposed: false });
  expect(await readdir(path.dirname(file))).toEqual(['secret']); // no temporary files left
});

test('processes racing to create it all end up with the same value', async (t) => {
  const file = path.join(await tempDir(t), 'secret');
  const results = await Promise.all(Array.from({ length: 10 }, () => readOrCreateSecret(file, opts)));
  expect(new Set(results.map((r) => r.value)).size).toBe(1);
  expect(results.filter((r) => r.created)).toHaveLength(1);
  expect((await readFile(file, 'utf8')).trim()).toBe(results[0]?.value);
});

test('a file too short to be a secret is refused, not overwritten', async (t) => {
  const file = path.join(await tempDir(t), 'secret');
  await writeFile(file, '\n', { mode: 0o600 });
  await expect(readOrCreateSecret(file, opts)).rejects.toThrow(/delete it/);
  expect(await readFile(file, 'utf8')).toBe('\n');
});

test('a file others can read is reported as exposed', async (t) => {
  const file = path.join(await tempDir(t), 'secret');
  await writeFile(file, 'a-secret-that-is-long-enough-000', { mode: 0o644 });
  const s = await readOrCreateSecret(file, opts);
  expect(s.exposed).toBe(true);
  expect(s.value).toBe('a-secret-that-is-long-enough-000');
});
