/**
 * Where a ZIP's print files wait between their render and the ZIP writer (service.ts): a
 * folder of their own under DATA_DIR (`cache/print-files`), emptied when the server starts,
 * so that a file left by a crash never outlives the next start. A file is deleted once its
 * stream closes, whether it was read to the end or abandoned.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** The ZIP writer's slice size (zip.ts): pieces it takes as the response has room. */
const READ_CHUNK = 256 * 1024;

export class PrintSpool {
  constructor(readonly dir: string) {}

  /** Empties the folder (files a crash left behind) and creates it. */
  async reset(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true });
  }

  /** A new file name in the folder. */
  newFile(): string {
    return path.join(this.dir, `${randomUUID()}.jpg`);
  }

  /** The file's bytes as a stream that deletes the file when it closes. */
  read(file: string): Readable {
    const stream = createReadStream(file, { highWaterMark: READ_CHUNK });
    stream.once('close', () => void this.remove(file));
    return stream;
  }

  async remove(file: string): Promise<void> {
    await unlink(file).catch(() => {});
  }
}
