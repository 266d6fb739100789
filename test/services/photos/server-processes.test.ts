/**
 * Running several servers (docs/operations.md): two real server processes (src/server.ts in
 * child processes, test/support/fault-server.ts) on one embedded PostgreSQL database and one
 * photo folder, each with a DATA_DIR of its own. Every photo has the same number on both,
 * whatever order the files arrived in and however late a server started; a takedown and an
 * event setting made through one show in the other's pages; a server restarted with an empty
 * DATA_DIR gives the record's numbers.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { adminHeaders, tempDir } from '../../helpers/build.js';
import { type ServerProcess, serverEnv, startServer } from '../../support/fault-server.js';
import { makeImage, waitFor, writePhoto } from '../../support/photos-fixtures.js';
import { usePostgresServer } from '../../support/postgres-server.js';

const EVENT = 'Con';
const at = (hhmmss: string) => `2026:07:03 ${hhmmss}`;
/** Generous: the machine may be busy; the 5-second figure is the catalogue bench's. */
const WAIT_MS = 60_000;

type Item = { id: string; number: string; metadata: { session: string } };

/** What a server lists for the event: `<id>#<number>` in gallery order (ids are derived from the path). */
async function listing(server: ServerProcess): Promise<string[]> {
  const res = await fetch(`${server.url}/event/${EVENT}?limit=100`);
  if (res.status !== 200) return [`(status ${res.status})`];
  return ((await res.json()) as { photos: Item[] }).photos.map((p) => `${p.id}#${p.number}`);
}

async function sameListing(servers: ServerProcess[], count: number, what: string): Promise<string[]> {
  let last: string[][] = [];
  await waitFor(
    async () => {
      last = await Promise.all(servers.map(listing));
      return last.every((l) => l.length === count && l.join() === last[0]?.join());
    },
    WAIT_MS,
    `${what}: ${JSON.stringify(last)}`,
  );
  return last[0] as string[];
}

const pg = usePostgresServer();

test('two server processes on one PostgreSQL database and one photo folder number and show every photo alike', {
  timeout: 300_000,
}, async (t) => {
  const databaseUrl = await pg().freshDatabase(t);
  const photosDir = path.join(await tempDir(t), 'photos');
  await mkdir(photosDir, { recursive: true });
  const envFor = async () =>
    serverEnv(await tempDir(t), {
      ORDER_STORE: 'postgres',
      DATABASE_URL: databaseUrl,
      PHOTOS_DIR: photosDir,
      LIBRARY_SYNC_INTERVAL_MS: '250',
    });
  const photo = async (session: string, name: string, time: string) =>
    writePhoto(photosDir, [EVENT, 'Day 1', session, name], await makeImage({ takenAt: at(time) }));

  await photo('Main', 'a.jpg', '10:00:00');
  await photo('Main', 'b.jpg', '10:10:00');
  const a = await startServer(t, { env: await envFor() });
  await sameListing([a], 2, 'a lists its first photos');
  // Shot before both, copied in after them: the next number, listed first.
  await photo('Main', 'c.jpg', '09:00:00');
  const first = await sameListing([a], 3, 'a lists c.jpg');
  expect(first.map((l) => l.split('#')[1])).toEqual(['3', '1', '2']);

  // A second server, started late with an empty DATA_DIR: the same numbers.
  const b = await startServer(t, { env: await envFor() });
  expect(await sameListing([a, b], 3, 'b starts with the record’s numbers')).toEqual(first);

  // Both running: files arrive out of order in two sessions; each server sees them when its
  // own folder events say so, and numbers them through the record.
  await photo('Stage', 'd.jpg', '12:00:00');
  await photo('Main', 'e.jpg', '11:00:00');
  await photo('Stage', 'f.jpg', '08:00:00');
  await photo('Main', 'g.jpg', '10:05:00');
  const both = await sameListing([a, b], 7, 'both list the new photos alike');
  expect(new Set(both.map((l) => l.split('#')[1])).size).toBe(7);

  // A takedown filed through a: hidden on a before it answers, on b from the catalogue.
  const [, number] = (both[1] as string).split('#');
  const asked = await fetch(`${a.url}/api/photos/${EVENT}/${number}/takedown`, {
    method: 'POST',
    headers: { ...adminHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'me', email: 'cos@example.com', message: 'Please take it down' }),
  });
  expect(asked.status).toBe(202);
  expect((await listing(a)).some((l) => l.endsWith(`#${number}`))).toBe(false);
  const hidden = await sameListing([a, b], 6, 'b hides the photo taken down through a');
  expect(hidden).toEqual(both.filter((l) => !l.endsWith(`#${number}`)));

  // An event setting saved through b (the event has no event.json: ordering starts off).
  const status = async (server: ServerProcess) =>
    (
      (await (await fetch(`${server.url}/event/${EVENT}?limit=1`)).json()) as {
        event: { status: { orderingEnabled: boolean } };
      }
    ).event.status.orderingEnabled;
  expect(await status(a)).toBe(false);
  const put = await fetch(`${b.url}/api/event-config`, {
    method: 'PUT',
    headers: { ...adminHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({ eventSlug: EVENT, orderingEnabled: true }),
  });
  expect(put.status).toBe(200);
  await waitFor(() => status(a), WAIT_MS, 'a to open ordering');

  // b restarted with an empty DATA_DIR: the record's numbers, the takedown still in force.
  await b.kill('SIGTERM');
  const again = await startServer(t, { env: await envFor() });
  expect(await sameListing([a, again], 6, 'a fresh b lists what a lists')).toEqual(hidden);
  expect(await status(again)).toBe(true);
});
