/**
 * CUPS' `ippeveprinter` (a real IPP Everywhere printer, Debian package `cups-ipp-utils`) and
 * `dbus-daemon` for the printing tests and the print bench. Found, or obtained:
 *
 * 1. On the PATH or in /usr/sbin (`.ci/run` installs the packages when they are missing).
 * 2. Else in node_modules/.cache/ipp-tools, unpacked there earlier.
 * 3. Else unpacked there now, without root: `apt-get download` of the package (and, when the
 *    binary misses shared libraries, of the packages holding them: libcups2, the Avahi client
 *    libraries), `dpkg-deb -x` into the cache, the libraries found through LD_LIBRARY_PATH.
 *    This needs Debian's package lists (`apt-get update` once) and the network to Debian's
 *    mirror; that is all a developer's fresh Debian machine needs for `npm test`.
 * When none works, the test fails with what to install; it never skips.
 */
import { execFile } from 'node:child_process';
import { access, constants, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'ipp-tools');
/** What a missing binary's packages are: the binary's own, then its libraries'. */
const PACKAGES = {
  ippeveprinter: ['cups-ipp-utils', 'libcups2', 'libavahi-client3', 'libavahi-common3'],
  'dbus-daemon': ['dbus-daemon', 'libdbus-1-3', 'libexpat1'],
} as const;
type Tool = keyof typeof PACKAGES;

const INSTALL_HINT =
  'The printing tests run a real IPP printer: CUPS’ ippeveprinter and a private dbus-daemon. Install them with\n' +
  '  sudo apt-get update && sudo apt-get install -y --no-install-recommends cups-ipp-utils dbus-daemon\n' +
  '(.ci/run does this); without root, `apt-get download` must be able to reach Debian’s mirror.';

export type ToolPath = { file: string; env: Record<string, string> };

async function executable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function onSystem(tool: Tool): Promise<string | undefined> {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
  for (const dir of dirs.filter(Boolean)) {
    const file = path.join(dir, tool);
    if (await executable(file)) return file;
  }
  return undefined;
}

/** Folders of shared libraries unpacked in the cache. */
async function cachedLibraryDirs(): Promise<string[]> {
  const dirs = ['lib', 'usr/lib', 'lib/x86_64-linux-gnu', 'usr/lib/x86_64-linux-gnu', 'usr/lib/aarch64-linux-gnu'];
  const out: string[] = [];
  for (const d of dirs) {
    const full = path.join(CACHE, d);
    if (
      await readdir(full).then(
        () => true,
        () => false,
      )
    )
      out.push(full);
  }
  return out;
}

async function missingLibraries(file: string, env: Record<string, string>): Promise<string[]> {
  const { stdout } = await run('ldd', [file], { env: { ...process.env, ...env } });
  return stdout
    .split('\n')
    .filter((l) => l.includes('not found'))
    .map((l) => l.trim().split(/\s+/)[0] as string);
}

async function unpack(pkg: string): Promise<void> {
  await mkdir(path.join(CACHE, 'debs'), { recursive: true });
  const debs = path.join(CACHE, 'debs');
  await run('apt-get', ['download', pkg], { cwd: debs });
  const deb = (await readdir(debs)).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  if (!deb) throw new Error(`apt-get download ${pkg} left no .deb`);
  await run('dpkg-deb', ['-x', path.join(debs, deb), CACHE]);
}

async function inCache(tool: Tool): Promise<ToolPath | undefined> {
  for (const dir of ['usr/sbin', 'usr/bin']) {
    const file = path.join(CACHE, dir, tool);
    if (!(await executable(file))) continue;
    const libs = await cachedLibraryDirs();
    const env: Record<string, string> = libs.length
      ? { LD_LIBRARY_PATH: [...libs, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':') }
      : {};
    if ((await missingLibraries(file, env)).length === 0) return { file, env };
  }
  return undefined;
}

async function obtain(tool: Tool): Promise<ToolPath> {
  // IPP_TOOLS_UNPACKED=1 tries the unpacked copy even where the packages are installed (to check that path).
  const system = process.env.IPP_TOOLS_UNPACKED === '1' ? undefined : await onSystem(tool);
  if (system) return { file: system, env: {} };
  const cached = await inCache(tool);
  if (cached) return cached;
  const [own, ...libraries] = PACKAGES[tool];
  try {
    await unpack(own);
    if (!(await inCache(tool))) for (const lib of libraries) await unpack(lib);
  } catch (err) {
    throw new Error(`${tool} is not installed and could not be unpacked (${(err as Error).message}).\n${INSTALL_HINT}`);
  }
  const unpacked = await inCache(tool);
  if (!unpacked) throw new Error(`${tool} was unpacked but its shared libraries are missing.\n${INSTALL_HINT}`);
  return unpacked;
}

const found = new Map<Tool, Promise<ToolPath>>();

/** The tool's path and the environment it runs with; throws with INSTALL_HINT when it can't be had. */
export function ippTool(tool: Tool): Promise<ToolPath> {
  let p = found.get(tool);
  if (!p) {
    p = obtain(tool);
    found.set(tool, p);
  }
  return p;
}
