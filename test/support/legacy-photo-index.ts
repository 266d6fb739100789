/**
 * The DATA_DIR of a server of the design before the photo catalogue, for upgrade tests:
 * test/fixtures/photo-index-v2 (its README says how it was made), copied into a test's folder
 * with the photos' modification times set back to what the index recorded (git keeps none).
 */
import { cp, readdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('../fixtures/photo-index-v2', import.meta.url));
/** Every photo of the fixture was indexed with this modification time. */
export const LEGACY_MTIME = new Date('2026-07-03T12:00:00Z');

/** What the earlier index says, as `<day>/<session>/<file>#<number>` in gallery order. */
export const LEGACY_NUMBERS = {
  'Con 2025': [
    'Day 1/Stage A/early.jpg#6',
    'Day 1/Stage A/a.jpg#1',
    'Day 1/Stage A/b.jpg#2',
    'Day 1/Stage B/x.jpg#4',
    'Day 1/Stage B/y.jpg#5',
    'Day 2/Hall/z.jpg#7',
  ],
  Other: ['D/S/one.jpg#1'],
};

/** Copies the fixture's `photos/` and `data/` into `photosDir` and `dataDir`. */
export async function copyLegacyDataDir(photosDir: string, dataDir: string): Promise<void> {
  await cp(path.join(FIXTURE, 'photos'), photosDir, { recursive: true });
  await cp(path.join(FIXTURE, 'data'), dataDir, { recursive: true });
  const files = await readdir(photosDir, { recursive: true, withFileTypes: true });
  for (const f of files) {
    if (f.isFile()) await utimes(path.join(f.parentPath, f.name), LEGACY_MTIME, LEGACY_MTIME);
  }
}
