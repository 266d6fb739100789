/**
 * An earlier revision of the whole product, built and ready to run, as a bench's baseline
 * ("today's behaviour" measured in the same run as the change): `git archive` of that commit
 * into a folder under the temp dir, this checkout's node_modules linked in (the revision's
 * package.json must need nothing else), then its own `scripts/build.mjs` (the server into
 * dist/, the browser app into dist/web). Kept between runs, one folder per commit; a second
 * call costs a `stat`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The folder holding `rev` built (its dist/ and dist/web), building it the first time. */
export async function builtRevision(rev: string, log: (line: string) => void): Promise<string> {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], {
    cwd: repo,
    encoding: 'utf8',
  }).trim();
  const dir = path.join(os.tmpdir(), `bench-revision-${commit.slice(0, 12)}`);
  if (existsSync(path.join(dir, 'dist', 'web', 'index.html')) && existsSync(path.join(dir, 'dist', 'app.js'))) {
    return dir;
  }
  log(`building ${commit.slice(0, 12)} as the baseline in ${dir} (once; a minute or two)`);
  const building = `${dir}.part`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  const tar = execFileSync('git', ['archive', '--format=tar', commit], { cwd: repo, maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', building], { input: tar });
  await symlink(path.join(repo, 'node_modules'), path.join(building, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: building, stdio: ['ignore', 'ignore', 'inherit'] });
  await rm(dir, { recursive: true, force: true });
  await rename(building, dir);
  return dir;
}
