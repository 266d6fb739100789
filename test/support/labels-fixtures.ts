/**
 * Label test helpers: orders as the store returns them (parsed with OrderRecord, so a
 * fixture can never be an order the service would not hold), ink measurements on the
 * rendered PNG, and the text of a DOCX opened back up (it is a zip; fflate reads it).
 */
import { strFromU8, unzipSync } from 'fflate';
import sharp from 'sharp';
import { type OrderLine, OrderRecord } from '../../src/domain/order.js';
import type { Region } from '../../src/services/labels/png.js';

export const RETURN_ADDRESS = 'Convention Photos\n123 Main St\nSpringfield, IL 62701';

export function labelOrder(over: Partial<OrderRecord> = {}): OrderRecord {
  const items: OrderLine[] = over.items ?? [
    { photoNumber: '12', size: '4x6', quantity: 2, unitCents: 500, lineCents: 1000 },
    { photoNumber: '130', size: '5x7', quantity: 1, unitCents: 1000, lineCents: 1000 },
  ];
  const subtotalCents = items.reduce((sum, l) => sum + l.lineCents, 0);
  return OrderRecord.parse({
    id: '8d3f1c2e-5b7a-4e1f-9c3d-2a6b8e4f0a11',
    orderNumber: 'AX25-0001',
    eventSlug: 'AX2025',
    createdAt: '2026-07-03T18:00:00.000Z',
    updatedAt: '2026-07-03T18:00:00.000Z',
    customerName: 'Jane Q. Customer',
    customerEmail: 'jane@example.com',
    customerPhone: '',
    fulfillmentType: 'ship',
    shippingAddress: '1600 Pennsylvania Ave NW',
    city: 'Washington',
    state: 'DC',
    zipCode: '20500-0003',
    items,
    subtotalCents,
    shippingFeeCents: 500,
    totalCents: subtotalCents + 500,
    discountCents: 0,
    couponCode: null,
    payment: null,
    status: 'pending',
    shippingStatus: 'ship',
    trackingNumber: '',
    feedback: '',
    held: false,
    holdExpiresAt: null,
    addressVerified: true,
    channel: 'web',
    version: 1,
    history: [{ at: '2026-07-03T18:00:00.000Z', action: 'create', to: 'pending', by: 'customer' }],
    pickupStatus: over.fulfillmentType === 'pickup' ? 'waiting' : null,
    printed: [],
    ...over,
  });
}

/** `count` lines, photo numbers from 1000, all sizes and quantities up to 99. */
export function manyItems(count: number): OrderLine[] {
  const sizes = ['4x6', '5x7', '8x10'];
  return Array.from({ length: count }, (_, i) => ({
    photoNumber: String(1000 + i),
    size: sizes[i % 3] as string,
    quantity: (i % 99) + 1,
    unitCents: 500,
    lineCents: 500 * ((i % 99) + 1),
  }));
}

export type Grey = { data: Buffer; width: number; height: number };

/** The PNG as one band of grey (0 black, 255 white). */
export async function greyPixels(png: Buffer): Promise<Grey> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected one band, got ${info.channels}`);
  return { data, width: info.width, height: info.height };
}

export type Ink = { count: number; left: number; top: number; right: number; bottom: number };

/** Dark pixels (below `threshold`) in a region, and the box that holds them. */
export function inkIn(img: Grey, r: Region, threshold = 128): Ink {
  const ink: Ink = { count: 0, left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
  for (let y = r.top; y < r.top + r.height; y++) {
    for (let x = r.left; x < r.left + r.width; x++) {
      if ((img.data[y * img.width + x] as number) < threshold) {
        ink.count++;
        if (x < ink.left) ink.left = x;
        if (x > ink.right) ink.right = x;
        if (y < ink.top) ink.top = y;
        if (y > ink.bottom) ink.bottom = y;
      }
    }
  }
  return ink;
}

/** The files of a DOCX. */
export function docxFiles(docx: Buffer): Record<string, string> {
  const files = unzipSync(new Uint8Array(docx));
  return Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

const XML_ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&apos;': "'" };
const unescapeXml = (s: string) => s.replace(/&(?:lt|gt|amp|quot|apos);/g, (e) => XML_ENTITIES[e] as string);

/** The text of each paragraph of word/document.xml, in order (runs joined). */
export function docxParagraphs(docx: Buffer): string[] {
  const xml = docxFiles(docx)['word/document.xml'];
  if (!xml) throw new Error('no word/document.xml in the DOCX');
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
    [...p[0].matchAll(/<w:t(?: [^>]*)?>([\s\S]*?)<\/w:t>/g)].map((t) => unescapeXml(t[1] as string)).join(''),
  );
}
