/**
 * A photo's link, `/event/{code}/photo/{number}` (docs/contract.md, "Gallery"): the app's page
 * with Open Graph tags for link previews (title, the watermarked preview as `og:image`, absolute
 * URLs from the public address in the business settings), for a browser and for a preview
 * fetcher that sends `Accept: *\/*` or nothing; JSON only to a client that asks for it; an
 * unknown or taken-down photo gets the page with 404 and no tags; text is escaped.
 */
import { expect, test } from 'vitest';
import { AX, appWithEvents, call } from '../admin/fixtures.js';

/** The content of each `<meta property|name="...">` of a page. */
function metaOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g))
    out[m[1] as string] = m[2] as string;
  return out;
}

test('browsers and link-preview fetchers get the app with the photo’s Open Graph tags; its image is the watermarked preview, at the public address', async (t) => {
  const app = await appWithEvents(t, {
    events: { [AX]: { name: 'Anime "Expo" <2025>', prefix: 'AX25', prices: { '4x6': 5 } } },
  });
  await call(app, {
    method: 'PUT',
    url: '/api/settings',
    payload: { publicBaseUrl: 'https://photos.janedoephoto.com', businessName: 'Jane Doe Photography' },
  });
  const photo = app.photos.photosOf(AX)?.[0];
  if (!photo) throw new Error('no photo');
  for (const accept of ['text/html,application/xhtml+xml,*/*;q=0.8', '*/*', undefined]) {
    const res = await app.inject({
      url: `/event/${AX}/photo/${photo.number}`,
      headers: accept === undefined ? {} : { accept },
    });
    expect(res.statusCode, accept).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<div id="app"></div>');
    const meta = metaOf(res.body);
    expect(meta['og:title']).toBe(`Photo #${photo.number} · Anime &quot;Expo&quot; &lt;2025&gt;`);
    expect(meta['og:image']).toBe(`https://photos.janedoephoto.com/api/preview/${AX}/${photo.id}?v=${photo.version}`);
    expect(meta['og:url']).toBe(`https://photos.janedoephoto.com/event/${AX}/photo/${photo.number}`);
    expect(meta['og:site_name']).toBe('Jane Doe Photography');
    expect(meta['og:image:width']).toBe(String(photo.width));
    expect(meta['twitter:card']).toBe('summary_large_image');
    expect(res.body).toContain(`<title>Photo #${photo.number} · Anime &quot;Expo&quot; &lt;2025&gt;</title>`);
    expect(res.body.match(/<title>/g)).toHaveLength(1);
    expect(res.body).not.toContain('<2025>');
  }
  // The image it names is the watermarked preview the gallery serves (never the original).
  const preview = await app.inject({ url: `/api/preview/${AX}/${photo.id}?v=${photo.version}` });
  expect(preview.statusCode).toBe(200);
  expect(preview.headers['content-type']).toMatch(/^image\//);
  // The number as a customer types it works too.
  expect(metaOf((await app.inject({ url: `/event/${AX}/photo/%23${photo.number}` })).body)['og:title']).toContain(
    `Photo #${photo.number}`,
  );
});

test('unknown or taken-down photos get the page with 404 and no tags; a client asking for JSON gets the gallery’s JSON', async (t) => {
  const app = await appWithEvents(t);
  const photo = app.photos.photosOf(AX)?.[0];
  if (!photo) throw new Error('no photo');
  for (const url of [`/event/${AX}/photo/999`, `/event/Nope/photo/1`]) {
    const res = await app.inject({ url, headers: { accept: 'text/html' } });
    expect(res.statusCode, url).toBe(404);
    expect(res.body).toContain('<div id="app"></div>');
    expect(res.body).not.toContain('og:image');
  }
  const hide = await app.inject({
    method: 'POST',
    url: `/api/photos/${AX}/${photo.number}/takedown`,
    headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
    payload: { reason: 'me', email: 'me@example.com' },
  });
  expect(hide.statusCode, hide.body).toBe(202);
  const hidden = await app.inject({ url: `/event/${AX}/photo/${photo.number}`, headers: { accept: '*/*' } });
  expect(hidden.statusCode).toBe(404);
  expect(hidden.body).not.toContain('og:');

  const json = await app.inject({ url: `/event/${AX}/photo/1`, headers: { accept: 'application/json' } });
  expect(json.headers['content-type']).toMatch(/^application\/json/);
  expect(json.json()).toMatchObject({ code: 'FOLDER_NOT_FOUND' });
});
