/**
 * GET /event/{eventCode}/live over a real socket (an event stream never ends), and
 * `?at=HH:MM` jumps on the event page.
 */
import http from 'node:http';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build } from '../../helpers/build.js';
import { makeImage, waitFor, writeEventJson, writePhoto } from '../../support/photos-fixtures.js';

describe('GET /event/{eventCode}/live', () => {
  test('an event stream: the count at once, then each change; JSON once for other clients; 404 for unknown', async (t) => {
    const app = await build(t);
    const root = path.join(app.dataDir, 'photos');
    await writeEventJson(root, 'Con', {});
    await writePhoto(root, ['Con', 'D', 'S', 'a.jpg'], await makeImage());
    await app.photos.rescan();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };

    const events: string[] = [];
    const req = http.get({
      host: '127.0.0.1',
      port,
      path: '/event/Con/live',
      headers: { accept: 'text/event-stream' },
    });
    t.onTestFinished(() => {
      req.destroy();
    });
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    let buffer = '';
    res.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        events.push(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
      }
    });
    await waitFor(() => events.length === 1, 3000, 'the first event');
    expect(events[0]).toBe('event: photos\ndata: {"totalCount":1}');

    const [b, c] = [await makeImage({ color: '#aa3300' }), await makeImage({ color: '#00aa33' })];
    await writePhoto(root, ['Con', 'D', 'S', 'b.jpg'], b);
    await writePhoto(root, ['Con', 'D', 'S', 'c.jpg'], c);
    await app.photos.rescan();
    const three = 'event: photos\ndata: {"totalCount":3}';
    await waitFor(() => events.at(-1) === three, 3000, 'the change');
    // One event per change of the count (the file watcher may have seen b before c was written).
    expect(events.slice(1, -1)).toEqual(events.length === 3 ? ['event: photos\ndata: {"totalCount":2}'] : []);
    // A rescan that changes nothing sends nothing.
    // The stream is in order: the next change's event is the very next one received, so an
    // event sent for the rescan would have arrived before it (no wait on a clock).
    const sent = events.length;
    await app.photos.rescan();
    await writePhoto(root, ['Con', 'D', 'S', 'd.jpg'], await makeImage({ color: '#3300aa' }));
    await app.photos.rescan();
    const four = 'event: photos\ndata: {"totalCount":4}';
    await waitFor(() => events.at(-1) === four, 3000, 'the next change');
    expect(events).toHaveLength(sent + 1);

    const once = await app.inject({ url: '/event/Con/live' });
    expect(once.statusCode).toBe(200);
    expect(once.json()).toEqual({ totalCount: 4 });
    const unknown = await app.inject({ url: '/event/Nope/live', headers: { accept: 'text/event-stream' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'EVENT_NOT_FOUND' });
  });
});

describe('GET /event/{eventCode}?at=HH:MM', () => {
  test('the page holding the first photo at or after that camera time; day= narrows; none: the last page', async (t) => {
    const app = await build(t);
    const root = path.join(app.dataDir, 'photos');
    await writeEventJson(root, 'Con', {});
    // Day 1: 09:00 ... 09:09 (10 photos); Day 2: 09:00 ... 09:04 (5 photos).
    for (let i = 0; i < 10; i++) {
      await writePhoto(
        root,
        ['Con', 'Day 1', 'S', `a${i}.jpg`],
        await makeImage({ takenAt: `2026:07:03 09:0${i}:00` }),
      );
    }
    for (let i = 0; i < 5; i++) {
      await writePhoto(
        root,
        ['Con', 'Day 2', 'S', `b${i}.jpg`],
        await makeImage({ takenAt: `2026:07:04 09:0${i}:30` }),
      );
    }
    await app.photos.rescan();
    const page = async (query: string) => (await app.inject({ url: `/event/Con?${query}` })).json();
    expect((await page('at=09:04&limit=3')).currentPage).toBe(2); // index 4
    const jumped = await page('at=09:04&limit=3&page=5');
    expect(jumped.currentPage).toBe(2); // at overrides page
    expect(jumped.photos[1].metadata.takenAt).toBe('2026-07-03T09:04:00.000Z');
    expect((await page('at=09:02&day=Day%202&limit=3')).currentPage).toBe(5); // Day 2's 09:02:30 is index 12
    expect((await page('at=23:00&limit=4')).currentPage).toBe(4); // none: the last page
    expect((await page('at=00:00&limit=4')).currentPage).toBe(1);
    const bad = await app.inject({ url: '/event/Con?at=9:5' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
