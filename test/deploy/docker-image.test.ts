/**
 * What the Docker image does, without Docker (no container registry is reachable here, so the
 * image itself cannot be built on these machines). The steps are read from the Dockerfile:
 *
 * - build stage: `npm run build`, then `npm prune --omit=dev` on the installed tree;
 * - runtime stage: only what it copies from the build stage (package.json, node_modules,
 *   dist), its ENV, started with its CMD and probed with its HEALTHCHECK;
 * - the thumbnails job run in the container the way the README says:
 *   `node dist/cli/thumbnails.js`.
 *
 * The installed node_modules is hard-linked into a temporary folder (seconds, no downloads,
 * no native rebuild) and pruned there, which is the build stage's own `npm prune`. The
 * repository's node_modules keeps its files: prune only unlinks, and the one file npm
 * rewrites (node_modules/.package-lock.json) is a real copy.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, utimes } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BUILT_SERVER_EXTRAS, builtServer } from '../support/fault-server-build.js';
import { makeImage, writeEventJson, writePhoto } from '../support/photos-fixtures.js';
import { buildWebApp } from '../support/web-build.js';

const run = promisify(execFile);

type Runtime = {
  env: Record<string, string>;
  copies: string[];
  cmd: string[];
  healthcheck: string;
  buildSteps: string;
};

/** The parts of the Dockerfile this test follows. */
function readDockerfile(text: string): Runtime {
  const joined = text.replace(/\\\n/g, ' ');
  const [buildStage = '', runtimeStage = ''] = joined.split(/^FROM .* AS runtime$/m);
  const env: Record<string, string> = {};
  for (const line of runtimeStage.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const m of line.slice(4).matchAll(/([A-Z_]+)=(\S+)/g)) env[m[1] as string] = m[2] as string;
  }
  const copies = [...runtimeStage.matchAll(/^COPY --from=build \S* ?\/app\/(\S+) /gm)].map((m) => m[1] as string);
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(runtimeStage)?.[1] ?? '[]') as string[];
  const healthcheck = /^HEALTHCHECK .*? CMD (.*)$/m.exec(runtimeStage)?.[1] ?? '';
  const buildSteps = [...buildStage.matchAll(/^RUN (.*)$/gm)].map((m) => m[1]).join('\n');
  return { env, copies, cmd, healthcheck, buildSteps };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

let dockerfile: Runtime;
let root: string;
let app: string;
let server: ChildProcess | undefined;
let env: Record<string, string>;

beforeAll(async () => {
  dockerfile = readDockerfile(await readFile('Dockerfile', 'utf8'));
  root = await mkdtemp(path.join(tmpdir(), 'photo-image-'));
  app = path.join(root, 'app');
  await mkdir(app);

  // Build stage: `npm run build`'s two builds, into the image's own dist/ (never the
  // repository's): the server by scripts/build.mjs's esbuild command, built once per run and
  // shared with the fault tests (fault-server-build.ts; copied without what they add to run
  // it), the browser app by its Vite config, built once per run and shared with the browser
  // tests (web-build.ts).
  expect(dockerfile.buildSteps).toContain('npm run build && npm prune --omit=dev');
  const server = await builtServer();
  const extras = new Set(BUILT_SERVER_EXTRAS.map((name) => path.join(server, name)));
  await cp(server, path.join(app, 'dist'), { recursive: true, filter: (from) => !extras.has(from) });
  await buildWebApp(path.join(app, 'dist/web'));
  // The tree itself, never a link to it: a worktree's node_modules may be a symbolic link to
  // another checkout's, and `cp -a` of the link would let the steps below (rm, npm prune)
  // work on that checkout's files instead of a copy.
  const modules = await realpath('node_modules');
  await run('cp', ['-al', modules, path.join(app, 'node_modules')]);
  // npm rewrites its hidden lockfile, so the copy gets a file of its own, not a link to the
  // repository's (npm reads the tree instead when there is none).
  const hiddenLock = path.join(app, 'node_modules/.package-lock.json');
  await rm(hiddenLock, { force: true });
  if (existsSync(path.join(modules, '.package-lock.json')))
    await cp(path.join(modules, '.package-lock.json'), hiddenLock);
  await cp('package.json', path.join(app, 'package.json'));
  await cp('package-lock.json', path.join(app, 'package-lock.json'));
  await run('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund'], { cwd: app, maxBuffer: 1 << 24 });

  // Runtime stage: what it copies, and nothing else.
  expect(dockerfile.copies.sort()).toEqual(['dist', 'node_modules', 'package.json']);
  await rm(path.join(app, 'package-lock.json'));

  const photos = path.join(root, 'photos');
  const jpeg = await makeImage({ width: 900, height: 600 });
  await writePhoto(photos, ['CON26', 'Day 1', 'Morning', 'a.jpg'], jpeg);
  await writePhoto(photos, ['CON26', 'Day 1', 'Morning', 'b.jpg'], jpeg);
  await writeEventJson(photos, 'CON26', { name: 'Con 2026', prefix: 'CN26' });
  // Copied in a minute before the container starts (a mounted library), so the first scan
  // takes them at once: written just now, the image's INTAKE_SETTLE_MS (2 s) held them back
  // and the test waited it out, proving nothing more about the image.
  const aMinuteAgo = new Date(Date.now() - 60_000);
  for (const file of ['a.jpg', 'b.jpg']) {
    await utimes(path.join(photos, 'CON26', 'Day 1', 'Morning', file), aMinuteAgo, aMinuteAgo);
  }
  env = {
    ...dockerfile.env,
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    DATA_DIR: path.join(root, 'data'),
    PHOTOS_DIR: photos,
    DEMO_LIBRARY: 'off',
    LOG_LEVEL: 'warn',
  };
}, 300_000);

afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  if (root) await rm(root, { recursive: true, force: true });
});

describe('the Docker image, mirrored', () => {
  test('production dependencies only: no build tools, no browser app sources', async () => {
    const installed = async (name: string) =>
      readFile(path.join(app, 'node_modules', name, 'package.json')).then(
        () => true,
        () => false,
      );
    for (const dev of ['vite', 'preact', 'altcha', 'typescript', 'tsx', 'vitest', 'knip', '@biomejs/biome']) {
      expect(await installed(dev), dev).toBe(false);
    }
    for (const prod of ['fastify', 'sharp', 'better-sqlite3', 'altcha-lib', 'pino-pretty']) {
      expect(await installed(prod), prod).toBe(true);
    }
    expect(await readdir(path.join(app, 'dist/web'))).toContain('index.html');
  });

  test('started as the image starts it, it answers its HEALTHCHECK, /healthz and the gallery', {
    timeout: 180_000,
  }, async () => {
    expect(dockerfile.cmd).toEqual(['node', 'dist/server.js']);
    const [command = 'node', ...args] = dockerfile.cmd;
    server = spawn(command, args, { cwd: app, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr?.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    const base = `http://127.0.0.1:${env.PORT}`;
    // Until healthy, or failed when it exits (no deadline: a hang fails on the test's timeout).
    for (;;) {
      const ok = await run('sh', ['-c', dockerfile.healthcheck], { cwd: app, env }).then(
        () => true,
        () => false,
      );
      if (ok) break;
      if (server.exitCode !== null) throw new Error(`not healthy: ${stderr}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // Alive is not ready until the first scan is done (docs/gallery-internals.md). Once
    // ready, both photos are listed.
    let ready = (await fetch(`${base}/readyz`)).status;
    while (ready !== 200) {
      await new Promise((r) => setTimeout(r, 200));
      ready = (await fetch(`${base}/readyz`)).status;
    }
    expect(ready).toBe(200);
    type Listed = { code: string; photoCount: number }[];
    const events = (await (await fetch(`${base}/event`)).json()) as Listed;
    expect(events).toEqual([expect.objectContaining({ code: 'CON26', photoCount: 2 })]);
    const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app"');
  });

  test('the thumbnails job runs in the image as `node dist/cli/thumbnails.js`', { timeout: 120_000 }, async () => {
    const { stdout } = await run(process.execPath, ['dist/cli/thumbnails.js', '--event', 'CON26'], { cwd: app, env });
    // Five images a photo: the JPEG and WebP thumbnails, the 240 and 360 px WebP tiles and the preview. The running server's
    // intake may already have made some thumbnails (those are skipped); previews only this job makes.
    const first = /2 photos in 1 event: done (\d+), skipped (\d+) \(already cached\), failed 0/.exec(stdout);
    expect(first, stdout).not.toBeNull();
    const [done, skipped] = [Number(first?.[1]), Number(first?.[2])];
    expect(done + skipped).toBe(10);
    expect(done).toBeGreaterThanOrEqual(2);
    const again = await run(process.execPath, ['dist/cli/thumbnails.js'], { cwd: app, env });
    expect(again.stdout).toMatch(/done 0, skipped 10/);
  });

  test('SIGTERM stops it cleanly', async () => {
    if (!server || server.exitCode !== null) throw new Error('the server is not running');
    const exited = new Promise<number | null>((resolve) => server?.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
