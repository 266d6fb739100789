/**
 * Selling fixtures: the orders app (test/support/orders-fixtures.ts) with offers set through
 * the admin API, and coupons put into the app's store (`addCoupon`).
 *
 * `sellingApp`: event `Anime Expo` with a `digital` size ($8.00), a package of 5 × 4x6 for
 * $20.00, and an early bird of 10 % running until tomorrow.
 */
import exifr from 'exifr';
import sharp from 'sharp';
import type { TestContext } from 'vitest';
import type { CouponRecord } from '../../src/domain/coupons.js';
import { adminHeaders, type TestApp } from '../helpers/build.js';
import { EVENT, type OrdersAppOptions, ordersApp, PRICES } from './orders-fixtures.js';
import { newOrder } from './store-fixtures.js';

const DIGITAL_PRICE = 8;

async function setOffers(app: TestApp, body: Record<string, unknown>): Promise<void> {
  const res = await app.inject({
    method: 'PUT',
    url: '/api/event-config',
    headers: adminHeaders,
    payload: { eventSlug: EVENT, ...body },
  });
  if (res.statusCode !== 200) throw new Error(`event-config: ${res.statusCode} ${res.body}`);
}

export async function sellingApp(
  t: TestContext,
  opts: OrdersAppOptions & { earlyBird?: boolean } = {},
): Promise<TestApp> {
  const app = await ordersApp(t, opts);
  await setOffers(app, {
    prices: { ...PRICES, digital: DIGITAL_PRICE },
    packages: [{ size: '4x6', count: 5, price: 20 }],
    earlyBird:
      opts.earlyBird === false ? null : { percent: 10, until: new Date(Date.now() + 86_400_000).toISOString() },
  });
  return app;
}

function coupon(over: Partial<CouponRecord> = {}): CouponRecord {
  return {
    code: 'SAVE20',
    eventSlug: EVENT,
    kind: 'percent',
    value: 20,
    expiresAt: null,
    maxUses: null,
    uses: 0,
    minSubtotalCents: 0,
    createdAt: new Date().toISOString(),
    ...over,
  };
}

/**
 * Stores the coupon; its `uses` are taken by that many orders placed with it through the
 * store (as the count is only ever moved by orders).
 */
export async function addCoupon(app: TestApp, over: Partial<CouponRecord> = {}): Promise<CouponRecord> {
  const { uses, ...record } = coupon(over);
  await app.store.coupons.create(record);
  for (let i = 0; i < uses; i++) {
    await app.store.orders.create(newOrder({ eventSlug: record.eventSlug ?? EVENT, couponCode: record.code }), {
      by: 'customer',
    });
  }
  return { ...record, uses };
}

/**
 * A photo as a camera writes it: EXIF with copyright, author, camera, capture time,
 * description and GPS position, orientation 6 (stored sideways), a Display P3 profile and
 * XMP. Uniform colour, so a watermark would show as variance.
 */
export async function cameraPhoto(opts: { width?: number; height?: number; copyright?: string } = {}): Promise<Buffer> {
  return sharp({
    create: { width: opts.width ?? 600, height: opts.height ?? 400, channels: 3, background: '#4080c0' },
  })
    .withExif({
      IFD0: {
        ...(opts.copyright === '' ? {} : { Copyright: opts.copyright ?? '(c) 2026 Jane Photographer' }),
        Artist: 'Jane Photographer',
        Make: 'Canon',
        Model: 'EOS R5',
        ImageDescription: 'Backstage, hall B',
      },
      IFD2: { DateTimeOriginal: '2026:07:03 14:05:00', BodySerialNumber: '0123456789' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '34/1 3/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '118/1 15/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .withIccProfile('p3')
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
        '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="Jane"/></rdf:RDF></x:xmpmeta>',
    )
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Every tag exifr finds, from every segment it reads. */
export async function allMetadata(image: Buffer): Promise<Record<string, unknown>> {
  return (
    ((await exifr.parse(image, {
      tiff: true,
      ifd0: {},
      ifd1: true,
      exif: true,
      gps: true,
      interop: true,
      xmp: true,
      iptc: true,
      icc: true,
      jfif: true,
      ihdr: true,
      mergeOutput: true,
    } as never)) as Record<string, unknown> | undefined) ?? {}
  );
}

/** What a download's EXIF may hold: orientation, copyright, and the format tags libvips writes. */
export const ALLOWED_DOWNLOAD_TAGS = new Set([
  'Orientation',
  'Copyright',
  'XResolution',
  'YResolution',
  'ResolutionUnit',
  'YCbCrPositioning',
  'ExifVersion',
  'FlashpixVersion',
  'ColorSpace',
  'ComponentsConfiguration',
  'ExifImageWidth',
  'ExifImageHeight',
  // JFIF header fields (pixel density), not metadata about the photo.
  'JFIFVersion',
  'ResolutionUnit',
  'XResolution',
  'YResolution',
  'ThumbnailWidth',
  'ThumbnailHeight',
]);
