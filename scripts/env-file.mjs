/**
 * `npm start` reads a `.env` file in the project folder when there is one (docs/configuration.md):
 * its variables become the server's, except those already set in the environment, which win.
 * Node's own parser (`process.loadEnvFile`, Node 20.12 and later) reads it: `KEY=value` lines,
 * `#` comments, quotes; `\n` in a double-quoted value is a line break. Plain JavaScript, like the
 * other start-up scripts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Loads `<dir>/.env` into process.env (variables set already are kept); the file read, or null. */
export function loadProjectEnv(dir) {
  const file = path.join(dir, '.env');
  if (!existsSync(file)) return null;
  process.loadEnvFile(file);
  return file;
}
