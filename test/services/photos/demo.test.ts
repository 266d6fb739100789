import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import {
  DEMO_PHOTO_COUNT,
  DEMO_REJECTED,
  demoMarkerFile,
  ensureDemoLibrary,
  planDemoLibrary,
  renderDemoImage,
} from '../../../src/services/photos/demo.js';
import { parseEventJson } from '../../../src/services/photos/event-config.js';
import { eventStatus } from '../../../src/services/photos/status.js';
import { build, tempDir } from '../../helpers/build.js';
import { recordingLogger } from '../../support/photos-fixtures.js';

describe('demo library', () => {
  test('the plan: 2 events, 2 days each, 2–3 sessions a day, about 60 photos numbered in display order', () => {
    const { events, images } = planDemoLibrary(new Date('2026-05-01T12:00:00Z'));
    expect(events).toHaveLength(2);
    expect(images).toHaveLength(DEMO_PHOTO_COUNT);
    expect(DEMO_PHOTO_COUNT).toBeGreaterThanOrEqual(55);
    expect(DEMO_PHOTO_COUNT).toBeLessThanOrEqual(65);
    for (const e of events) {
      expect(e.days).toHaveLength(2);
      for (const d of e.days) {
        expect(d.sessions.length).toBeGreaterThanOrEqual(2);
        expect(d.sessions.length).toBeLessThanOrEqual(3);
      }
      const mine = images.filter((i) => i.event === e.folder);
      expect(mine.map((i) => i.number)).toEqual(mine.map((_, k) => k + 1));
      // Capture times increase in that order, so the index sorts them the same way.
      const times = mine.map((i) => i.takenAt.getTime());
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    }
    for (const img of images) expect(Math.max(img.width, img.height)).toBeGreaterThanOrEqual(1600);
  });

  test('one image: its size, EXIF capture time, and a number drawn in the middle', async () => {
    const { images } = planDemoLibrary(new Date('2026-05-01T12:00:00Z'));
    const img = images[6];
    expect(img).toBeDefined();
    if (!img) return;
    const jpeg = await renderDemoImage(img);
    const meta = await sharp(jpeg).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', img.width, img.height]);
    const exif = await exifr.parse(jpeg, { reviveValues: false } as never);
    expect(exif.DateTimeOriginal).toBe(img.takenAt.toISOString().slice(0, 19).replace('T', ' ').replaceAll('-', ':'));
    // The centre band holds white glyphs on a darker plate: near-white pixels exist there.
    const band = await sharp(jpeg)
      .extract({
        left: Math.round(img.width * 0.2),
        top: Math.round(img.height * 0.4),
        width: Math.round(img.width * 0.6),
        height: Math.round(img.height * 0.2),
      })
      .raw()
      .toBuffer();
    let white = 0;
    for (let i = 0; i < band.length; i += 3)
      if ((band[i] ?? 0) > 240 && (band[i + 1] ?? 0) > 240 && (band[i + 2] ?? 0) > 240) white++;
    expect(white).toBeGreaterThan(1000);
  });

  test('DEMO_LIBRARY=auto on an empty DATA_DIR: generated on first start, numbers match the drawing', async (t) => {
    const app = await build(t, { env: { DEMO_LIBRARY: 'auto' } });
    await app.photos.ready(); // start-up waits a few seconds at most; a slow machine may need longer
    const photosDir = app.config.photosDir;
    const events = app.photos.listEvents();
    expect(events).toHaveLength(2);
    // The photographer's one reject is drawn and numbered, never listed.
    expect(events.reduce((n, e) => n + e.photoCount, 0)).toBe(DEMO_PHOTO_COUNT - DEMO_REJECTED);
    const harbor = app.photos.photosOf('Harbor Comic Con') ?? [];
    expect(new Set(harbor.map((p) => p.metadata?.photographer))).toEqual(new Set(['Jo Lens', 'Sam Shutter']));
    expect(harbor.some((p) => p.metadata?.keywords?.includes('Nezuko'))).toBe(true);
    expect(harbor.some((p) => (p.rating ?? 0) >= 4)).toBe(true);
    expect(app.photos.findPhoto('Spring Matsuri', '31')).toBeUndefined();

    let withDeadline = 0;
    for (const event of events) {
      expect(event.days).toHaveLength(2);
      const json = parseEventJson(await readFile(path.join(photosDir, event.code, 'event.json'), 'utf8'));
      expect(json.ok).toBe(true);
      expect(event.prefix).toMatch(/^[A-Z]{3}$/);
      expect(Object.keys(event.prices).length).toBeGreaterThanOrEqual(3);
      expect(event.shippingFeeCents).toBeGreaterThan(0);
      expect(eventStatus(event).active).toBe(true);
      if (event.deadline) {
        withDeadline++;
        expect(Date.parse(event.deadline)).toBeGreaterThan(Date.now());
      }
      // The number drawn on IMG_00nn.jpg is nn: the index must give it exactly that number.
      for (const photo of app.photos.photosOf(event.code) ?? []) {
        expect(photo.fileName).toBe(`IMG_${photo.number.padStart(4, '0')}.jpg`);
        expect(photo.takenAt).not.toBeNull();
      }
    }
    expect(withDeadline).toBe(1);
    expect(await readdir(photosDir)).not.toContainEqual(expect.stringContaining('.demo-staging'));
    await expect(readFile(demoMarkerFile(app.dataDir), 'utf8')).resolves.toContain(`"photos": ${DEMO_PHOTO_COUNT}`);

    const res = await app.inject({ url: '/event' });
    expect(res.json()).toHaveLength(2);
  });

  test('with the default settling time (2 s) the first start indexes every drawn photo at once (60 listed, the reject not), and says so', async (t) => {
    const logLines: string[] = [];
    const app = await build(t, { env: { DEMO_LIBRARY: 'auto', INTAKE_SETTLE_MS: '2000' }, logLines });
    await app.photos.ready();
    const indexed = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'photo library indexed');
    expect(indexed).toMatchObject({ events: 2, photos: DEMO_PHOTO_COUNT - DEMO_REJECTED });
    expect(app.photos.listEvents().reduce((n, e) => n + e.photoCount, 0)).toBe(DEMO_PHOTO_COUNT - DEMO_REJECTED);
    // Why: the drawing is complete when it is moved into place, so its files are dated back beyond
    // the settling time; files written moments before the first scan would otherwise be held back
    // (settling, then inspection) and the count would depend on the machine's speed.
    for (const event of app.photos.listEvents()) {
      for (const photo of app.photos.photosOf(event.code) ?? []) {
        const { mtimeMs } = await stat(app.photos.originalPath(photo));
        expect(Date.now() - mtimeMs).toBeGreaterThan(10 * 60_000);
      }
    }
  });

  test('not generated when PHOTOS_DIR has photos, nor a second time after it was emptied', async (t) => {
    const base = await tempDir(t);
    const photosDir = path.join(base, 'photos');
    const dataDir = path.join(base, 'data');
    const log = recordingLogger();

    await mkdir(path.join(photosDir, 'My Event'), { recursive: true });
    expect(await ensureDemoLibrary({ photosDir, dataDir, log })).toBe(false);
    expect(await readdir(photosDir)).toEqual(['My Event']);

    // A marker says the demo was made before: an emptied folder stays empty.
    await rm(path.join(photosDir, 'My Event'), { recursive: true });
    await writeFile(path.join(photosDir, '.DS_Store'), ''); // hidden entries do not count
    await mkdir(dataDir, { recursive: true });
    await writeFile(demoMarkerFile(dataDir), '{}');
    expect(await ensureDemoLibrary({ photosDir, dataDir, log })).toBe(false);
    expect(await readdir(photosDir)).toEqual(['.DS_Store']);
    expect(log.entries.some((e) => e.msg?.includes('not generated again'))).toBe(true);
  });

  test('DEMO_LIBRARY=off: nothing generated', async (t) => {
    const app = await build(t, { env: { DEMO_LIBRARY: 'off' } });
    expect(app.photos.listEvents()).toEqual([]);
    await expect(readdir(app.config.photosDir)).rejects.toThrow();
  });
});
