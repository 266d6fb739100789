/**
 * The photo catalogue's database going away under a running library (PostgreSQL stopped and
 * started again, on the same data): the gallery keeps serving what it lists, a new photo
 * waits unlisted (it can't get a number), the outage is logged once, and once the database is
 * back the photo is listed with a number from the record, without a rescan.
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { createPhotoLibrary } from '../../../src/services/photos/library.js';
import { openStore } from '../../../src/services/store/store.js';
import { tempDir } from '../../helpers/build.js';
import { makeImage, recordingLogger, waitFor, writePhoto } from '../../support/photos-fixtures.js';
import { usePostgresServer } from '../../support/postgres-server.js';

const pg = usePostgresServer({ own: true });

test('while the catalogue is unreachable new photos wait unlisted; listed once it is back', {
  timeout: 120_000,
}, async (t) => {
  const store = await openStore({
    engine: 'postgres',
    connectionString: await pg().freshDatabase(t),
    connectTimeoutMs: 1000,
  });
  t.onTestFinished(() => store.close());
  const base = await tempDir(t);
  const photosDir = path.join(base, 'photos');
  await writePhoto(photosDir, ['Con', 'D', 'S', 'a.jpg'], await makeImage());
  const log = recordingLogger();
  // The real store's catalogue, counting the writes it refuses (the library's retries).
  const catalogue = store.photoCatalogue;
  let refusedWrites = 0;
  const lib = createPhotoLibrary({
    photosDir,
    dataDir: path.join(base, 'data'),
    catalogue: {
      changesSince: (seq) => catalogue.changesSince(seq),
      importIndex: (...args) => catalogue.importIndex(...args),
      write: (...args) =>
        catalogue.write(...args).catch((err: unknown) => {
          refusedWrites++;
          throw err;
        }),
    },
    syncIntervalMs: 100,
    log,
    rescanIntervalMs: 0,
    watch: false,
  });
  t.onTestFinished(() => lib.close());
  await lib.start();
  expect(lib.photosOf('Con')?.map((p) => p.number)).toEqual(['1']);

  await pg().stop();
  await writePhoto(photosDir, ['Con', 'D', 'S', 'b.jpg'], await makeImage());
  await lib.rescan();
  expect(lib.photosOf('Con')?.map((p) => `${p.fileName}#${p.number}`)).toEqual(['a.jpg#1']);
  // The sync keeps trying every 100 ms; however many writes fail, the failure is logged once.
  await waitFor(() => log.entries.some((e) => e.msg?.includes('cannot read the photo catalogue')), 20_000, 'a warning');
  await waitFor(() => refusedWrites >= 3, 60_000, 'three refused writes');
  expect(log.entries.filter((e) => e.msg?.includes('cannot write to the photo catalogue'))).toHaveLength(1);

  await pg().start();
  await waitFor(() => lib.photosOf('Con')?.length === 2, 60_000, 'b.jpg to be listed');
  expect(lib.findPhoto('Con', '2')?.fileName).toBe('b.jpg');
  expect(log.entries.some((e) => e.msg?.includes('takes writes again'))).toBe(true);
  expect((await store.photoCatalogue.changesSince(0)).rows.map((r) => `${r.path}#${r.number}`).sort()).toEqual([
    'D/S/a.jpg#1',
    'D/S/b.jpg#2',
  ]);
});
