import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, type TestContext, test } from 'vitest';
import {
  createPhotoLibrary,
  type LibraryOptions,
  type ManagedPhotoLibrary,
} from '../../../src/services/photos/library.js';
import { tempDir } from '../../helpers/build.js';
import { recordingLogger, sqliteCatalogue, writeEventJson, writePhoto } from '../../support/photos-fixtures.js';
import { lightroomSidecar, photoWithMetadata } from '../../support/xmp-fixtures.js';

async function open(t: TestContext, extra: Partial<LibraryOptions> = {}) {
  const base = await tempDir(t);
  const root = path.join(base, 'photos');
  const dataDir = path.join(base, 'data');
  await mkdir(root, { recursive: true });
  const catalogue = await sqliteCatalogue(t, dataDir);
  const make = () => {
    const lib = createPhotoLibrary({
      photosDir: root,
      dataDir,
      catalogue,
      log: recordingLogger(),
      rescanIntervalMs: 0,
      watch: false,
      ...extra,
    });
    t.onTestFinished(() => lib.close());
    return lib;
  };
  return { root, catalogue, make };
}

const byFile = (lib: ManagedPhotoLibrary) => new Map((lib.photosOf('Con') ?? []).map((p) => [p.fileName, p]));
const dir = (root: string) => path.join(root, 'Con', 'D', 'S');

describe('the photographer’s metadata at intake', () => {
  test('embedded XMP, IPTC and EXIF Artist are read; both sidecar names win over the file; a reject is private', async (t) => {
    const { root, make } = await open(t);
    const at = (s: number) => `2026:07:03 10:00:${String(s).padStart(2, '0')}`;
    // Exported from Lightroom with its metadata embedded.
    await writePhoto(
      root,
      ['Con', 'D', 'S', 'IMG_0001.jpg'],
      await photoWithMetadata({
        takenAt: at(1),
        xmp: {
          rating: 4,
          label: 'Green',
          title: 'Fountain',
          caption: 'Nezuko and Tanjiro at the fountain',
          keywords: ['Nezuko', 'Demon Slayer', '_client-proof'],
          hierarchical: ['Characters|Tanjiro', 'Series|Demon Slayer'],
          creator: 'Jo Lens',
        },
      }),
    );
    // Embedded says 5 stars and Jo; the sidecar IMG_0002.xmp (Lightroom's for raw + JPEG) says rejected.
    await writePhoto(
      root,
      ['Con', 'D', 'S', 'IMG_0002.jpg'],
      await photoWithMetadata({ takenAt: at(2), xmp: { rating: 5, creator: 'Jo Lens', keywords: ['Pikachu'] } }),
    );
    await writeFile(path.join(dir(root), 'IMG_0002.xmp'), lightroomSidecar({ rating: -1 }));
    // Only a sidecar named after the whole file (IMG_0003.jpg.xmp, as darktable and Photo Mechanic name it).
    await writePhoto(root, ['Con', 'D', 'S', 'IMG_0003.jpg'], await photoWithMetadata({ takenAt: at(3) }));
    await writeFile(
      path.join(dir(root), 'IMG_0003.jpg.xmp'),
      lightroomSidecar({ rating: 3, keywords: ['Pokémon'], credit: 'Sam Shutter', headline: 'Team photo' }),
    );
    // Photo Mechanic's IPTC, and a camera's Artist.
    await writePhoto(
      root,
      ['Con', 'D', 'S', 'IMG_0004.jpg'],
      await photoWithMetadata({
        takenAt: at(4),
        iptc: { keywords: ['Sailor Moon', 'Cosplay'], caption: 'Café group', byline: 'Ana Café' },
      }),
    );
    await writePhoto(
      root,
      ['Con', 'D', 'S', 'IMG_0005.jpg'],
      await photoWithMetadata({ takenAt: at(5), artist: 'Camera Owner' }),
    );
    await writePhoto(root, ['Con', 'D', 'S', 'IMG_0006.jpg'], await photoWithMetadata({ takenAt: at(6) }));

    const lib = make();
    await lib.start();
    const photos = byFile(lib);
    expect([...photos.keys()]).toEqual([
      'IMG_0001.jpg',
      'IMG_0003.jpg',
      'IMG_0004.jpg',
      'IMG_0005.jpg',
      'IMG_0006.jpg',
    ]);
    expect(photos.get('IMG_0001.jpg')).toMatchObject({
      rating: 4,
      metadata: {
        label: 'Green',
        title: 'Fountain',
        caption: 'Nezuko and Tanjiro at the fountain',
        keywords: ['Nezuko', 'Demon Slayer', '_client-proof', 'Tanjiro'],
        photographer: 'Jo Lens',
      },
    });
    expect(photos.get('IMG_0003.jpg')).toMatchObject({
      rating: 3,
      metadata: { keywords: ['Pokémon'], photographer: 'Sam Shutter', title: 'Team photo' },
    });
    expect(photos.get('IMG_0004.jpg')).toMatchObject({
      rating: null,
      metadata: { keywords: ['Sailor Moon', 'Cosplay'], caption: 'Café group', photographer: 'Ana Café' },
    });
    expect(photos.get('IMG_0005.jpg')?.metadata).toMatchObject({ photographer: 'Camera Owner' });
    const plain = photos.get('IMG_0006.jpg');
    expect(plain?.rating).toBeNull();
    expect(plain?.metadata?.keywords).toBeUndefined();
    // The reject keeps its number, and is found by neither number nor id.
    expect(lib.findPhoto('Con', '2')).toBeUndefined();
    expect(lib.getEvent('Con')?.photoCount).toBe(5);
    expect(photos.get('IMG_0003.jpg')?.number).toBe('3');
  });

  test('a changed sidecar is read again: a photo rejected later leaves, rated again it returns under its number', async (t) => {
    const { root, make } = await open(t);
    await writePhoto(root, ['Con', 'D', 'S', 'IMG_0001.jpg'], await photoWithMetadata());
    await writePhoto(root, ['Con', 'D', 'S', 'IMG_0002.jpg'], await photoWithMetadata({ xmp: { rating: 2 } }));
    const lib = make();
    await lib.start();
    expect(byFile(lib).get('IMG_0002.jpg')).toMatchObject({ number: '2', rating: 2 });

    const sidecar = path.join(dir(root), 'IMG_0002.xmp');
    await writeFile(sidecar, lightroomSidecar({ rating: -1 }));
    await lib.rescan();
    expect(byFile(lib).has('IMG_0002.jpg')).toBe(false);
    expect(lib.findPhoto('Con', '2')).toBeUndefined();

    // Rated again in Lightroom: the sidecar is rewritten (another size, another time).
    await writeFile(sidecar, lightroomSidecar({ rating: 5, keywords: ['Zelda'] }));
    const later = new Date(Date.now() + 5000);
    await utimes(sidecar, later, later);
    await lib.rescan();
    expect(byFile(lib).get('IMG_0002.jpg')).toMatchObject({
      number: '2',
      rating: 5,
      metadata: { keywords: ['Zelda'] },
    });

    // The sidecar removed: the file's own metadata again.
    await rm(sidecar);
    await lib.rescan();
    expect(byFile(lib).get('IMG_0002.jpg')).toMatchObject({ number: '2', rating: 2 });
    expect(byFile(lib).get('IMG_0002.jpg')?.metadata?.keywords).toBeUndefined();
  });

  test('a restart finds the metadata in the record; a second library on the record lists the same', async (t) => {
    const { root, make } = await open(t);
    await writePhoto(root, ['Con', 'D', 'S', 'a.jpg'], await photoWithMetadata({ xmp: { rating: -1 } }));
    await writePhoto(root, ['Con', 'D', 'S', 'b.jpg'], await photoWithMetadata({ xmp: { keywords: ['Link'] } }));
    const first = make();
    await first.start();
    await first.close();
    const second = make();
    await second.start();
    expect([...byFile(second).keys()]).toEqual(['b.jpg']);
    expect(byFile(second).get('b.jpg')?.metadata?.keywords).toEqual(['Link']);
  });

  test('event.json showRejected lists rejects; minRating lists only photos rated at least that; overrides win', async (t) => {
    const { root, make } = await open(t);
    await writeEventJson(root, 'Con', { showRejected: true, minRating: 0 });
    await writePhoto(root, ['Con', 'D', 'S', 'a.jpg'], await photoWithMetadata({ xmp: { rating: -1 } }));
    await writePhoto(root, ['Con', 'D', 'S', 'b.jpg'], await photoWithMetadata({ xmp: { rating: 1 } }));
    await writePhoto(root, ['Con', 'D', 'S', 'c.jpg'], await photoWithMetadata({ xmp: { rating: 3 } }));
    await writePhoto(root, ['Con', 'D', 'S', 'd.jpg'], await photoWithMetadata());
    const lib = make();
    await lib.start();
    expect([...byFile(lib).keys()]).toEqual(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    await lib.setListingOverrides(new Map([['Con', { showRejected: false, minRating: 2 }]]));
    expect([...byFile(lib).keys()]).toEqual(['c.jpg']);
    expect(lib.getEvent('Con')?.photoCount).toBe(1);
    await lib.setListingOverrides(new Map());
    expect([...byFile(lib).keys()]).toEqual(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
  });

  test('without metadata reading (the bench baseline) nothing is read', async (t) => {
    const { root, make } = await open(t, { readMetadata: false });
    await writePhoto(root, ['Con', 'D', 'S', 'a.jpg'], await photoWithMetadata({ xmp: { rating: -1 } }));
    const lib = make();
    await lib.start();
    expect(byFile(lib).get('a.jpg')).toMatchObject({ rating: null, metadata: null });
  });
});
