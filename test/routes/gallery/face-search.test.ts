/**
 * Find me by face end to end (docs/contract.md, "Find me by face"), with real faces: the test
 * library built from face-api's demo photos (test/support/face-frames.ts), the real face engine
 * in its thread, SQLite. The attendee's mirrored selfie finds every frame showing her and no
 * other; hidden frames and code frames never match; a selfie takedown hides her frames.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { photoCodeUrl } from '../../../src/domain/photo-code.js';
import { adminHeaders, build, type TestApp } from '../../helpers/build.js';
import { attendeeSelfie, codeFrameWithAttendee, demoPhoto, writeFaceEvent } from '../../support/face-frames.js';
import { waitFor, writePhoto } from '../../support/photos-fixtures.js';

const EVENT = 'FaceCon';
const CODE = 'K7M2Q9TX';
/** Indexing takes a second or two of a core per frame; the machine may be shared and slow. */
const INDEXED_WITHIN_MS = 600_000;

type T = Parameters<typeof build>[0];
type Item = { id: string; number: string; thumbnail: string };

async function faceApp(t: T, opts: { dataDir?: string; logLines?: string[] } = {}): Promise<TestApp> {
  const app = await build(t, {
    env: { FACE_SEARCH: 'on', TAKEDOWN_MODE: 'hide-first' },
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.logLines ? { logLines: opts.logLines } : {}),
  });
  return app;
}

async function writeLibrary(app: TestApp): Promise<Map<string, boolean>> {
  const frames = await writeFaceEvent(app.config.photosDir, EVENT);
  await writePhoto(
    app.config.photosDir,
    [EVENT, 'Day 1', 'Main', 'F09.jpg'],
    await codeFrameWithAttendee(photoCodeUrl('http://photos.test', CODE)),
  );
  await app.photos.rescan();
  await waitFor(() => app.photos.intake().inspecting === 0 && app.photos.intake().pending === 0, 120_000, 'intake');
  return new Map(frames.map((f) => [f.file, f.withAttendee]));
}

const turnOn = (app: TestApp) =>
  app.inject({
    method: 'PUT',
    url: '/api/event-config',
    headers: adminHeaders,
    payload: { eventSlug: EVENT, faceSearch: true },
  });

const status = async (app: TestApp) =>
  (await app.inject({ url: '/api/faces/status', headers: adminHeaders })).json() as {
    state: string;
    events: { eventSlug: string; indexed: number; total: number }[];
  };

async function indexed(app: TestApp): Promise<void> {
  await waitFor(
    async () => {
      const ev = (await status(app)).events.find((e) => e.eventSlug === EVENT);
      return ev !== undefined && ev.total > 0 && ev.indexed === ev.total;
    },
    INDEXED_WITHIN_MS,
    'the event’s faces indexed',
  );
}

const search = (app: TestApp, body: Buffer, type = 'image/jpeg', headers: Record<string, string> = adminHeaders) =>
  app.inject({
    method: 'POST',
    url: `/api/events/${EVENT}/face-search`,
    headers: { 'content-type': type, ...headers },
    payload: body,
  });

/** The frames' file names, by the photo ids the library gave them. */
const fileOf = (app: TestApp, items: Item[]) =>
  items.map((item) => app.photos.findPhoto(EVENT, item.id)?.fileName ?? `?${item.id}`);

describe('face search', () => {
  test('the attendee’s selfie finds every frame showing her and none without her; hidden and code frames never; a selfie takedown hides hers; a restart indexes nothing again', {
    timeout: INDEXED_WITHIN_MS * 2,
  }, async (t) => {
    const logLines: string[] = [];
    const app = await faceApp(t, { logLines });
    const frames = await writeLibrary(app);
    const selfie = await attendeeSelfie();
    const withHer = [...frames].filter(([, shows]) => shows).map(([file]) => file);

    // The code frame is never listed (docs/contract.md, "Finding one's photos, and intake").
    expect(app.photos.photosOf(EVENT)?.map((p) => p.fileName)).not.toContain('F09.jpg');

    // Off for the event until the owner turns it on.
    const off = await search(app, selfie);
    expect(off.statusCode).toBe(404);
    expect(off.json().code).toBe('FACE_SEARCH_OFF');
    expect((await app.inject({ url: `/api/event-config?eventSlug=${EVENT}` })).json()).toMatchObject({
      faceSearch: false,
      selfieSearch: false,
    });
    expect((await turnOn(app)).json()).toMatchObject({ faceSearch: true, selfieSearch: true });

    await indexed(app);
    expect((await status(app)).events).toEqual([{ eventSlug: EVENT, indexed: 8, total: 8 }]);

    const found = await search(app, selfie, 'image/jpeg', {});
    expect(found.statusCode).toBe(200);
    expect(found.headers['cache-control']).toBe('no-store');
    const body = found.json() as { photos: Item[]; totalCount: number };
    expect(fileOf(app, body.photos).sort()).toEqual(withHer.sort());
    expect(body.totalCount).toBe(withHer.length);
    // Public photo items only: nothing about faces or other people.
    expect(Object.keys(body)).toEqual(['photos', 'totalCount']);
    for (const item of body.photos) {
      expect(Object.keys(item).sort()).toEqual(['fullSize', 'id', 'metadata', 'number', 'srcset', 'thumbnail']);
    }
    expect(found.body).not.toMatch(/vector|"box"|similarity|score|descriptor|embedding/i);

    // The same selfie as PNG and WebP.
    for (const format of ['png', 'webp'] as const) {
      const res = await search(app, await attendeeSelfie(format), `image/${format}`);
      expect(res.statusCode).toBe(200);
      expect(fileOf(app, res.json().photos).sort()).toEqual(withHer.sort());
    }

    // A frame taken down (hide-first) no longer matches.
    const f02 = app.photos.photosOf(EVENT)?.find((p) => p.fileName === 'F02.jpg');
    const down = await app.inject({
      method: 'POST',
      url: `/api/photos/${EVENT}/${f02?.number}/takedown`,
      headers: adminHeaders,
      payload: { reason: 'me', email: 'her@example.com' },
    });
    expect(down.statusCode).toBe(202);
    const afterHide = await search(app, selfie);
    expect(fileOf(app, afterHide.json().photos).sort()).toEqual(withHer.filter((f) => f !== 'F02.jpg').sort());

    // "This is me" by selfie: every frame she is still in is taken down.
    const taken = await app.inject({
      method: 'POST',
      url: `/api/events/${EVENT}/takedown`,
      headers: adminHeaders,
      payload: {
        reason: 'me',
        email: 'her@example.com',
        message: 'All of mine, please',
        selfie: selfie.toString('base64'),
      },
    });
    expect(taken.statusCode).toBe(202);
    expect(taken.json().requestIds).toHaveLength(withHer.length - 1);
    const queue = (await app.inject({ url: '/api/takedowns?status=open', headers: adminHeaders })).json() as {
      requests?: unknown[];
    };
    expect(JSON.stringify(queue)).toContain('All of mine, please');
    const afterTakedown = await search(app, selfie);
    expect(afterTakedown.json()).toEqual({ photos: [], totalCount: 0 });
    const listed = app.photos.photosOf(EVENT)?.map((p) => p.fileName) ?? [];
    for (const file of withHer) expect(listed).not.toContain(file);
    expect(listed).toContain('F04.jpg');

    // The selfie is nowhere: not in the logs, not in DATA_DIR.
    const selfieSample = selfie.subarray(200, 264);
    for (const line of logLines) expect(line).not.toContain(selfie.toString('base64').slice(0, 40));
    for (const file of await filesUnder(app.dataDir)) {
      if (file.startsWith(app.config.photosDir)) continue;
      expect((await readFile(file)).includes(selfieSample), file).toBe(false);
    }

    // Restarted on the same data: what the record holds is not indexed again.
    const still = (await status(app)).events;
    const rows = await app.store.faces.versions(EVENT);
    await app.close();
    const restartLog: string[] = [];
    const again = await faceApp(t, { dataDir: app.dataDir, logLines: restartLog });
    await again.photos.ready();
    expect((await status(again)).events).toEqual(still);
    expect(still[0]?.indexed).toBe(still[0]?.total);
    expect((await search(again, selfie)).json()).toEqual({ photos: [], totalCount: 0 });
    expect(restartLog.join('\n')).not.toContain('face indexing: photos queued');
    const rowsAfter = await again.store.faces.versions(EVENT);
    for (const row of rowsAfter) expect(rows).toContainEqual(row);
  });

  test('bad pictures get the error body: no face 422, unreadable 400, JSON 415, too large 413; rate limited per address', {
    timeout: 300_000,
  }, async (t) => {
    const app = await faceApp(t);
    await writePhoto(app.config.photosDir, [EVENT, 'Day 1', 'Main', 'F08.jpg'], await gradient());
    await app.photos.rescan();
    await turnOn(app);

    const noFace = await search(app, await gradient());
    expect(noFace.statusCode).toBe(422);
    expect(noFace.json()).toMatchObject({ code: 'NO_FACE' });

    const garbage = await search(app, Buffer.from('not a picture at all, only text'.repeat(20)));
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().code).toBe('VALIDATION_FAILED');

    const empty = await search(app, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);

    const json = await app.inject({
      method: 'POST',
      url: `/api/events/${EVENT}/face-search`,
      headers: adminHeaders,
      payload: { picture: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const large = await search(app, Buffer.alloc(8 * 1024 * 1024 + 1, 1));
    expect(large.statusCode).toBe(413);
    expect(large.json().code).toBe('PAYLOAD_TOO_LARGE');

    const unknown = await app.inject({
      method: 'POST',
      url: '/api/events/Nope/face-search',
      headers: { 'content-type': 'image/jpeg', ...adminHeaders },
      payload: await attendeeSelfie(),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('EVENT_NOT_FOUND');

    // 10 a minute per address without admin credentials (counted before the body is read).
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await search(app, Buffer.alloc(0), 'image/jpeg', {})).statusCode);
    expect(codes.slice(0, 10)).toEqual(new Array(10).fill(400));
    expect(codes[10]).toBe(429);
  });
});

test('FACE_SEARCH=off (the default): nothing runs, the search answers 404 and the status says off', async (t) => {
  const app = await build(t);
  await writePhoto(app.config.photosDir, [EVENT, 'Day 1', 'Main', 'F01.jpg'], await readFile(demoPhoto(3)));
  await app.photos.rescan();
  expect(app.faces.state).toBe('off');
  const res = await app.inject({
    method: 'POST',
    url: `/api/events/${EVENT}/face-search`,
    headers: { 'content-type': 'image/jpeg' },
    payload: await attendeeSelfie(),
  });
  expect(res.statusCode).toBe(404);
  expect(res.json()).toMatchObject({ code: 'FACE_SEARCH_OFF' });
  await app.inject({
    method: 'PUT',
    url: '/api/event-config',
    headers: adminHeaders,
    payload: { eventSlug: EVENT, faceSearch: true },
  });
  expect((await app.inject({ url: `/api/event-config?eventSlug=${EVENT}` })).json()).toMatchObject({
    faceSearch: true,
    selfieSearch: false,
  });
  expect((await status(app)).state).toBe('off');
  expect((await status(app)).events).toEqual([]);
  expect(await app.store.faces.versions(EVENT)).toEqual([]);
  // Admin credentials are needed for the status.
  expect((await app.inject({ url: '/api/faces/status' })).statusCode).toBe(401);
});

/** A picture with no face: a soft gradient. */
async function gradient(): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width: 400, height: 300, channels: 3, background: '#8899aa' } })
    .jpeg()
    .toBuffer();
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}
