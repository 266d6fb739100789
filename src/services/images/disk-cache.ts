/**
 * Rendered images on disk, one file per key: `<dir>/<kind>/<k0k1>/<key>.<jpg|webp>`.
 *
 * Writes are atomic (a temp file in the same folder, then rename), so a reader never sees
 * half an image, even across processes (the server and `npm run thumbnails` at once).
 * A cache that cannot be written (read-only disk, wrong owner, full) never fails a
 * request: the failure is logged once, and again only after the cache has recovered.
 */

import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../lib/logger.js';

/** File name endings of renders, by format. */
const RENDER_SUFFIXES = ['.jpg', '.webp'] as const;
export type RenderSuffix = (typeof RENDER_SUFFIXES)[number];
/** Ends the name of a file being written (renamed to the render when complete). */
const TEMP_SUFFIX = '.tmp';

/** A file in the cache's folders, as `cacheFiles` finds it. */
export type CacheFile<K extends string = string> =
  | { type: 'render'; kind: K; key: string; file: string }
  | { type: 'temp'; kind: K; file: string };

/**
 * Every render and temp file under `dir` for these kinds (what `prune.ts` sweeps). Folders
 * that don't exist or can't be read count as empty; names that aren't the cache's own are
 * left out.
 */
export async function* cacheFiles<K extends string>(dir: string, kinds: readonly K[]): AsyncGenerator<CacheFile<K>> {
  for (const kind of kinds) {
    for (const shard of await names(path.join(dir, kind))) {
      const folder = path.join(dir, kind, shard);
      for (const name of await names(folder)) {
        const file = path.join(folder, name);
        if (name.endsWith(TEMP_SUFFIX)) {
          yield { type: 'temp', kind, file };
          continue;
        }
        const suffix = RENDER_SUFFIXES.find((s) => name.endsWith(s));
        if (suffix) yield { type: 'render', kind, key: name.slice(0, -suffix.length), file };
      }
    }
  }
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

export class DiskCache {
  private readonly madeDirs = new Set<string>();
  private failing = false;
  private writeFailures = 0;

  constructor(
    readonly dir: string,
    private readonly log: Logger,
  ) {}

  fileFor(kind: string, key: string, suffix: RenderSuffix = '.jpg'): string {
    return path.join(this.dir, kind, key.slice(0, 2), `${key}${suffix}`);
  }

  /** The cached bytes, or undefined when absent or unreadable (then it is rendered again). */
  async read(kind: string, key: string, suffix?: RenderSuffix): Promise<Buffer | undefined> {
    try {
      const body = await readFile(this.fileFor(kind, key, suffix));
      return body.length > 0 ? body : undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether a non-empty file is cached under `key` (without reading it). */
  async has(kind: string, key: string, suffix?: RenderSuffix): Promise<boolean> {
    try {
      return (await stat(this.fileFor(kind, key, suffix))).size > 0;
    } catch {
      return false;
    }
  }

  /** Deletes the render cached under `key`; true when there was one. Never rejects. */
  async remove(kind: string, key: string, suffix?: RenderSuffix): Promise<boolean> {
    try {
      await rm(this.fileFor(kind, key, suffix));
      return true;
    } catch {
      return false;
    }
  }

  /** Writes atomically; resolves true when stored. Never rejects. */
  async write(kind: string, key: string, body: Buffer, suffix?: RenderSuffix): Promise<boolean> {
    const file = this.fileFor(kind, key, suffix);
    const folder = path.dirname(file);
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`;
    try {
      if (!this.madeDirs.has(folder)) {
        await mkdir(folder, { recursive: true });
        this.madeDirs.add(folder);
      }
      await writeFile(temp, body);
      await rename(temp, file);
      if (this.failing) {
        this.failing = false;
        this.log.info({ dir: this.dir }, 'image cache directory is writable again');
      }
      return true;
    } catch (err) {
      this.writeFailures++;
      this.madeDirs.delete(folder);
      await rm(temp, { force: true }).catch(() => {});
      if (!this.failing) {
        this.failing = true;
        this.log.error(
          { err, dir: this.dir },
          'image cache directory is not writable: images are rendered and served from memory until it is',
        );
      }
      return false;
    }
  }

  get failures(): number {
    return this.writeFailures;
  }
}
