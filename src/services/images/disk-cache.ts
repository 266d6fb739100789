/**
 * Rendered images on disk, one file per key: `<dir>/<kind>/<k0k1>/<key>.jpg`.
 *
 * Writes are atomic (a temp file in the same folder, then rename), so a reader never sees
 * half an image, even across processes (the server and `npm run thumbnails` at once).
 * A cache that cannot be written (read-only disk, wrong owner, full) never fails a
 * request: the failure is logged once, and again only after the cache has recovered.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type CacheLogger = {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
};

export class DiskCache {
  private readonly madeDirs = new Set<string>();
  private failing = false;
  private writeFailures = 0;

  constructor(
    readonly dir: string,
    private readonly log: CacheLogger,
  ) {}

  fileFor(kind: string, key: string): string {
    return path.join(this.dir, kind, key.slice(0, 2), `${key}.jpg`);
  }

  /** The cached bytes, or undefined when absent or unreadable (then it is rendered again). */
  async read(kind: string, key: string): Promise<Buffer | undefined> {
    try {
      const body = await readFile(this.fileFor(kind, key));
      return body.length > 0 ? body : undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether a non-empty file is cached under `key` (without reading it). */
  async has(kind: string, key: string): Promise<boolean> {
    try {
      return (await stat(this.fileFor(kind, key))).size > 0;
    } catch {
      return false;
    }
  }

  /** Writes atomically; resolves true when stored. Never rejects. */
  async write(kind: string, key: string, body: Buffer): Promise<boolean> {
    const file = this.fileFor(kind, key);
    const folder = path.dirname(file);
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
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
