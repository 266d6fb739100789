/**
 * DATA_DIR is private to the server's user (docs/contract.md, "Hardening"): it holds the order
 * database, push keys, the generated secrets and mail waiting to go out. A umask of 077 makes
 * everything created under it private, whoever creates it (SQLite's `-wal`, a module added
 * next year); a umask belongs to the process, so an app inside another process (tests) holds
 * it while open. At start DATA_DIR is made 0700; only when it was not is everything under it
 * walked (a cache of tens of thousands of images is not walked every start). The photo
 * library inside it is the operator's, and symbolic links are not followed.
 */
import type { Dirent } from 'node:fs';
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Group and others get nothing: files 0600, folders 0700. */
export const PRIVATE_UMASK = 0o077;

let holders = 0;
let umaskBefore: number | undefined;

/**
 * Makes the process umask private (adding 077 to it) until the returned function is called.
 * Holders nest: the process's own umask comes back when the last one lets go.
 */
export function holdPrivateUmask(): () => void {
  if (holders === 0) umaskBefore = process.umask(process.umask() | PRIVATE_UMASK);
  holders++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders--;
    if (holders === 0 && umaskBefore !== undefined) {
      process.umask(umaskBefore);
      umaskBefore = undefined;
    }
  };
}

export type PrivateDirReport = {
  /** Paths whose mode was narrowed. */
  tightened: string[];
  /** Paths whose mode could not be changed (another user's file, a read-only mount). */
  failed: { path: string; code: string }[];
  /** Whether everything under the folder was checked, or only its first level. */
  walked: 'all' | 'first-level';
};

/** The mode `mode` should have: the owner's bits only. */
const privateMode = (mode: number) => mode & 0o700;
const isLoose = (mode: number) => (mode & PRIVATE_UMASK) !== 0;

/** Creates `dir` (0700) or makes it private; `leaveAlone`: folders in it that are not the server's. */
export async function makeDataDirPrivate(
  dir: string,
  opts: { leaveAlone?: readonly string[] } = {},
): Promise<PrivateDirReport> {
  const report: PrivateDirReport = { tightened: [], failed: [], walked: 'first-level' };
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const leaveAlone = new Set((opts.leaveAlone ?? []).map((p) => path.resolve(p)));

  const tighten = async (file: string, mode: number) => {
    if (!isLoose(mode)) return;
    try {
      await chmod(file, privateMode(mode));
      report.tightened.push(file);
    } catch (err) {
      report.failed.push({ path: file, code: (err as NodeJS.ErrnoException).code ?? 'unknown' });
    }
  };

  const top = await lstat(dir);
  const wasOpen = isLoose(top.mode);
  await tighten(dir, top.mode);
  report.walked = wasOpen ? 'all' : 'first-level';

  const visit = async (folder: string, deep: boolean): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (err) {
      report.failed.push({ path: folder, code: (err as NodeJS.ErrnoException).code ?? 'unknown' });
      return;
    }
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      // A link's target is not necessarily the server's, and a chmod would follow it.
      if (entry.isSymbolicLink() || leaveAlone.has(full)) continue;
      let mode: number;
      try {
        mode = (await lstat(full)).mode;
      } catch {
        continue; // gone meanwhile
      }
      await tighten(full, mode);
      if (deep && entry.isDirectory()) await visit(full, deep);
    }
  };
  await visit(dir, wasOpen);
  return report;
}
