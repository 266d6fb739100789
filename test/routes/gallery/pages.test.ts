import path from 'node:path';
import { expect, test } from 'vitest';
import { createGalleryPages, type EventSettingsSource } from '../../../src/routes/gallery/pages.js';
import { createPhotoLibrary } from '../../../src/services/photos/library.js';
import type { LibraryEvent } from '../../../src/services/photos/types.js';
import { tempDir } from '../../helpers/build.js';
import {
  makeImage,
  recordingLogger,
  sqliteCatalogue,
  writeEventJson,
  writePhoto,
} from '../../support/photos-fixtures.js';

test('cached pages follow the deadline and the settings generation without invalidation', async (t) => {
  const base = await tempDir(t);
  const root = path.join(base, 'photos');
  await writeEventJson(root, 'Con', { deadline: '2026-07-10T00:00:00Z' });
  await writePhoto(root, ['Con', 'D', 'S', 'a.jpg'], await makeImage());
  const library = createPhotoLibrary({
    photosDir: root,
    dataDir: path.join(base, 'data'),
    catalogue: await sqliteCatalogue(t, path.join(base, 'data')),
    log: recordingLogger(),
    rescanIntervalMs: 0,
    watch: false,
  });
  t.onTestFinished(() => library.close());
  await library.start();

  let now = Date.parse('2026-07-09T23:59:59Z');
  const overrides = new Map<string, Partial<LibraryEvent>>();
  const settings: EventSettingsSource & { generation: number } = {
    generation: 0,
    settingsOf: (event) => ({ ...event, ...overrides.get(event.code) }),
  };
  const pages = createGalleryPages({ library, publicBaseUrl: 'http://x', settings, now: () => now });
  const status = () => JSON.parse(String(pages.eventPage('Con', { page: 1, limit: 50 }))).event.status;

  expect(status()).toMatchObject({ active: true, deadline: '2026-07-10T00:00:00.000Z', closedReason: null });
  // Same generation, same bytes: served from the cache.
  const before = pages.eventPage('Con', { page: 1, limit: 50 });
  expect(before).toBe(pages.eventPage('Con', { page: 1, limit: 50 }));

  // The deadline passes, nothing else changes: other bytes, saying why.
  now = Date.parse('2026-07-10T00:00:00Z');
  const after = pages.eventPage('Con', { page: 1, limit: 50 });
  expect(after).not.toBe(before);
  expect(String(after)).not.toBe(String(before));
  expect(status()).toMatchObject({ active: false, closedReason: 'deadline' });
  expect(pages.eventList()[0]?.status).toMatchObject({ active: false, closedReason: 'deadline' });

  // An admin override (a later feature) only needs to bump the settings generation.
  overrides.set('Con', { deadline: null, isArchived: true });
  settings.generation++;
  expect(status()).toEqual({
    isArchived: true,
    orderingEnabled: true,
    deadline: null,
    active: false,
    closedReason: 'archived',
  });

  expect(pages.eventPage('Nope', { page: 1, limit: 50 })).toBeUndefined();
  expect(pages.dayPage('Con', 'X', { page: 1, limit: 50 })).toBe('folder');
  expect(pages.sessionPage('Nope', 'D', 'S', { page: 1, limit: 50 })).toBe('event');
});
