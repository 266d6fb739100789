/**
 * A browser navigating to a gallery page gets the app with the page's first data in its HTML
 * (src/routes/gallery/page-document.ts): the very bytes the app would fetch, escaped; preloads
 * of the first row's tiles; cacheable only as long as the data holds (ETag, 304, Vary), gzipped.
 * The stand-in build (test/fixtures/web-build) plays the app; test/web/tiles.test.ts has the
 * real one read it in Chromium.
 */
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, type TestContext, test } from 'vitest';
import { build, type TestApp, tempDir } from '../../helpers/build.js';
import { makeImage, writeEventJson, writePhoto } from '../../support/photos-fixtures.js';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
/** An event whose name, day and session would break out of an attribute or a script if unescaped. */
const EVENT = 'Con';
const NAME = `</script><script>alert(1)</script> "Q&A" 'night' <b>`;
const DAY = 'Day "1" <i>';
const SESSION = `Stage & <Hall's>`;

async function app(t: TestContext): Promise<{ app: TestApp; root: string }> {
  const dataDir = await tempDir(t);
  const root = path.join(dataDir, 'photos');
  await writeEventJson(root, EVENT, { name: NAME, date: '2026-07-03' });
  for (let i = 0; i < 5; i++) {
    const shot = await makeImage({ takenAt: `2026:07:03 10:0${i}:00` });
    await writePhoto(root, [EVENT, DAY, SESSION, `IMG_${i}.jpg`], shot);
  }
  const server = await build(t, { dataDir });
  await server.photos.ready();
  return { app: server, root };
}

const decode = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] as string,
  );

/** The data tags of a document: url → content, as a browser reads the attributes. */
function carried(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(/<meta name="gallery-data" data-url="([^"]*)" content="([^"]*)">/g)) {
    out.set(decode(m[1] as string), decode(m[2] as string));
  }
  return out;
}

const enc = encodeURIComponent;
const eventUrl = `/event/${enc(EVENT)}`;
const sessionUrl = `${eventUrl}/${enc(DAY)}/${enc(SESSION)}`;

describe('the HTML of a gallery page', () => {
  test('carries the event page and its featured row the app asks for first, byte for byte, with nothing unescaped', async (t) => {
    const { app: server } = await app(t);
    const res = await server.inject({ url: eventUrl, headers: { accept: HTML } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.body).toContain('<title>Photos (test build)</title>');

    const data = carried(res.body);
    const featuredUrl = `${eventUrl}?featured=1&limit=12`;
    expect([...data.keys()]).toEqual([featuredUrl, `${eventUrl}?limit=48`]);
    expect(data.get(featuredUrl)).toBe((await server.inject({ url: featuredUrl })).body);
    const json = await server.inject({ url: `${eventUrl}?limit=48`, headers: { accept: 'application/json' } });
    expect(data.get(`${eventUrl}?limit=48`)).toBe(json.body);
    expect(JSON.parse(json.body).event.name).toBe(NAME);
    // The name is in the page only escaped: no tag it holds reaches the parser.
    expect(res.body).not.toContain('</script><script>');
    expect(res.body).not.toContain('<b>');
    expect(res.body).not.toContain('<i>');
    expect(res.body).toContain('&lt;/script&gt;');
    // One </head>, the app's own, after what was added.
    expect(res.body.match(/<\/head>/g)).toHaveLength(1);
    expect(res.body.indexOf('gallery-data')).toBeLessThan(res.body.indexOf('</head>'));
  });

  test("preloads the first screen's tiles as the grid asks for them: every width, the cell's sizes, the first row first", async (t) => {
    const { app: server } = await app(t);
    const res = await server.inject({ url: eventUrl, headers: { accept: HTML } });
    const photos = (await server.inject({ url: `${eventUrl}?limit=48` })).json().photos as { thumbnail: string }[];
    const links = [...res.body.matchAll(/<link rel="preload" as="image" ([^>]*)>/g)].map((m) => m[1] as string);
    expect(links).toHaveLength(5); // the first 12: all of this event's five
    for (const [i, link] of links.entries()) {
      const thumb = new URL((photos[i] as { thumbnail: string }).thumbnail);
      const local = thumb.pathname + thumb.search;
      const srcset = decode(/imagesrcset="([^"]*)"/.exec(link)?.[1] ?? '');
      expect(srcset).toBe([160, 240, 360, 480].map((w) => `${local}&tile=${w} ${w}w`).join(', '));
      // The first row (three on a phone) before the rest.
      expect(link).toContain(`fetchpriority="${i < 3 ? 'high' : 'low'}"`);
      // The grid's own (web/src/lib/tiles.ts; test/web/tiles.test.ts compares them in the page).
      expect(link).toMatch(/imagesizes="\(min-width: 1217px\) 187px, .*calc\(\(100vw - 32px\) \/ 3\)"/);
    }
    // Every URL preloaded is an image the server answers.
    const first = decode(/imagesrcset="([^" ]*) /.exec(links[0] as string)?.[1] ?? '');
    const tile = await server.inject({ url: first, headers: { accept: 'image/webp' } });
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('image/webp');
  });

  test("a day or session page carries the event's summary and the folder's first page", async (t) => {
    const { app: server } = await app(t);
    const res = await server.inject({ url: sessionUrl, headers: { accept: HTML } });
    const data = carried(res.body);
    const folderUrl = `${sessionUrl}?page=1&limit=48`;
    expect([...data.keys()]).toEqual([`${eventUrl}?limit=1`, folderUrl]);
    expect(data.get(folderUrl)).toBe((await server.inject({ url: folderUrl })).body);
    expect(data.get(`${eventUrl}?limit=1`)).toBe((await server.inject({ url: `${eventUrl}?limit=1` })).body);
    const day = await server.inject({ url: `${eventUrl}/${enc(DAY)}`, headers: { accept: HTML } });
    expect([...carried(day.body).keys()]).toEqual([`${eventUrl}?limit=1`, `${eventUrl}/${enc(DAY)}?page=1&limit=48`]);
  });

  test('ETag and 304 while the data holds; a new photo changes both; Vary names Accept and Accept-Encoding', async (t) => {
    const { app: server, root } = await app(t);
    const first = await server.inject({ url: eventUrl, headers: { accept: HTML } });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"h[0-9a-f]{32}"$/);
    expect(first.headers.vary).toBe('Accept, Accept-Encoding');
    const again = await server.inject({ url: eventUrl, headers: { accept: HTML, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);

    await writePhoto(root, [EVENT, DAY, SESSION, 'IMG_9.jpg'], await makeImage({ takenAt: '2026:07:03 10:09:00' }));
    await server.photos.rescan();
    const changed = await server.inject({ url: eventUrl, headers: { accept: HTML, 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(JSON.parse(carried(changed.body).get(`${eventUrl}?limit=48`) as string).totalCount).toBe(6);
  });

  test('gzipped for a client that accepts it, the same document', async (t) => {
    const { app: server } = await app(t);
    const plain = await server.inject({ url: eventUrl, headers: { accept: HTML } });
    const zipped = await server.inject({ url: eventUrl, headers: { accept: HTML, 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(zipped.headers.etag).toBe(plain.headers.etag);
  });

  test('an unknown event or folder, the event list and the live count get the plain app', async (t) => {
    const { app: server } = await app(t);
    for (const url of [
      '/event',
      '/event/Nope',
      `${eventUrl}/Nope`,
      `${eventUrl}/${enc(DAY)}/Nope`,
      `${eventUrl}/live`,
    ]) {
      const res = await server.inject({ url, headers: { accept: HTML } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('gallery-data');
      expect(res.body, url).toContain('<title>Photos (test build)</title>');
    }
  });
});
