/**
 * An event's batch of labels (docs/contract.md, "Fulfilment"): every paid order of the event
 * that ships and has not shipped yet, oldest first, as one PDF (each label followed by the
 * order's packing slip, on request) or one DOCX. Thumbnails for the slips come from the images.
 * No order waiting: NOTHING_TO_PRINT, or EVENT_NOT_FOUND when there is no such event and no order.
 */
import type { Readable } from 'node:stream';
import { printLines } from '../../domain/offers.js';
import { type OrderRecord, oldestFirst } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import type { Logger } from '../../lib/logger.js';
import type { EventCatalog } from '../events/catalog.js';
import type { ImageService } from '../images/types.js';
import type { PhotoLibrary } from '../photos/types.js';
import type { OrdersPort } from '../store/ports/orders.js';
import type { LabelRenderer, SlipLine } from './types.js';

export type BatchRequest = { eventSlug: string; format: 'pdf' | 'docx'; slips: boolean };

/** The batch: how many labels, and the file (a PDF is streamed while it is laid out). */
export type LabelBatch = { count: number; fileName: string; format: 'pdf' | 'docx'; body: Buffer | Readable };

/** Paid, shipping and not shipped yet: the orders whose parcels are still to be packed. */
function waitingToShip(order: OrderRecord): boolean {
  return (
    order.status === 'paid' &&
    order.fulfillmentType === 'ship' &&
    order.shippingStatus === 'ship' &&
    // digital files alone are downloaded, not posted (docs/contract.md, "Selling")
    printLines(order.items).length > 0
  );
}

export function createEventBatch(deps: {
  renderer: Pick<LabelRenderer, 'batchPdf' | 'batchDocx'>;
  orders: Pick<OrdersPort, 'list'>;
  events: Pick<EventCatalog, 'get'>;
  photos: Pick<PhotoLibrary, 'findPhoto'>;
  images: Pick<ImageService, 'get'>;
  log: Logger;
}): (request: BatchRequest) => Promise<LabelBatch> {
  /** A line's thumbnail, or nothing when the photo is gone or cannot be rendered. */
  async function thumbnail(order: OrderRecord, photoNumber: string): Promise<Buffer | undefined> {
    const photo = deps.photos.findPhoto(order.eventSlug, photoNumber);
    if (!photo) return undefined;
    try {
      return (await deps.images.get('thumbnail', photo)).body;
    } catch (err) {
      deps.log.warn({ err, photoNumber, orderNumber: order.orderNumber }, 'no thumbnail for a packing slip');
      return undefined;
    }
  }

  return async ({ eventSlug, format, slips }) => {
    const [listed, event] = await Promise.all([
      deps.orders.list({ eventSlug, statuses: ['paid'] }),
      deps.events.get(eventSlug),
    ]);
    const orders = listed.filter(waitingToShip).sort(oldestFirst);
    if (orders.length === 0) {
      if (!event && listed.length === 0) {
        throw appError('EVENT_NOT_FOUND', {
          message: `Event ${eventSlug.slice(0, 100)} not found`,
          details: { eventSlug },
        });
      }
      throw appError('NOTHING_TO_PRINT', {
        message: `No paid order of ${event?.name ?? eventSlug} is waiting to ship`,
        details: { eventSlug },
      });
    }
    const eventName = event?.name ?? eventSlug;
    const title = `Shipping labels · ${eventName}`;
    // The labels alone and the labels with their packing slips are different files: different names.
    const fileName = `${format === 'pdf' && slips ? 'labels-and-slips' : 'labels'}-${eventSlug}.${format}`;
    const batch = { count: orders.length, fileName, format };
    if (format === 'docx') return { ...batch, body: (await deps.renderer.batchDocx(orders, title)).content };
    const slip = async (order: OrderRecord): Promise<SlipLine[]> =>
      Promise.all(
        printLines(order.items).map(async (line) => ({ line, thumbnail: await thumbnail(order, line.photoNumber) })),
      );
    const pdfOpts = { title, eventName: () => eventName, slip: slips ? slip : undefined };
    return { ...batch, body: await deps.renderer.batchPdf(orders, pdfOpts) };
  };
}
