/**
 * Where a ZIP's print files wait between render and ZIP writer: DATA_DIR/cache/print-files.
 * A file is opened for reading as soon as it is rendered and deleted right away, so nothing
 * is left on disk when its stream ends, is abandoned, or the process dies (on Windows it is
 * deleted when its stream closes). Only a crash between render and open leaves one behind:
 * start-up deletes those once older than any render takes, never one another process
 * sharing DATA_DIR is still rendering.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** The ZIP writer's slice size (zip.ts): pieces it takes as the response has room. */
const READ_CHUNK = 256 * 1024;
/** Older than any render of one print file (seconds, even for a large original). */
const LEFT_BEHIND_MS = 10 * 60_000;

export class PrintSpool {
  constructor(readonly dir: string) {}

  /**
   * Creates the folder, and deletes files a crash left in it. Throws when the folder can't be
   * made (DATA_DIR's `cache` not writable): the caller then keeps print files in memory.
   */
  async prepare(now = Date.now()): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    for (const name of await readdir(this.dir)) {
      const file = path.join(this.dir, name);
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile() && now - info.mtimeMs > LEFT_BEHIND_MS) await this.remove(file);
    }
  }

  /** A new file name in the folder. */
  newFile(): string {
    return path.join(this.dir, `${randomUUID()}.jpg`);
  }

  /** The file's bytes as a stream; the file is gone from the folder once this resolves. */
  async take(file: string): Promise<Readable> {
    const handle = await open(file, 'r');
    const deleted = await unlink(file).then(
      () => true,
      () => false,
    );
    const stream = handle.createReadStream({ highWaterMark: READ_CHUNK });
    if (!deleted) stream.once('close', () => void this.remove(file));
    return stream;
  }

  async remove(file: string): Promise<void> {
    await unlink(file).catch(() => {});
  }
}
