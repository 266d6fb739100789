/**
 * The sales as one caller may see them (docs/contract.md, "The photographer's metadata"): the
 * owner's and staff's tokens see every order; a `photographer:` token sees only its share of
 * each (domain/photographer-share.ts). `visibleOrders` is the one place that decides it; the
 * summary, the breakdown and the lines are all computed from what it returns, so no view can
 * show a photographer a line that is not theirs.
 */
import type { OrderRecord, OrderStatus, SalesSummaryCents } from '../../domain/order.js';
import { ownShares, summaryOfShares } from '../../domain/photographer-share.js';
import {
  type PhotographerOf,
  type PhotographerSales,
  photographerSales,
  type SalesBreakdown,
  salesBreakdown,
  UNKNOWN_PHOTOGRAPHER,
} from '../../domain/sales.js';
import type { PhotoLibrary } from '../photos/types.js';
import type { OrdersPort } from '../store/ports/orders.js';

/** Who asks: `photographer` names a `photographer:` token's photographer; absent, every order is theirs to see. */
export type Viewer = { photographer?: string | undefined };

type Scope = { eventSlug?: string | undefined };

/** The summary's figures; `byPhotographer` when asked for (a photographer sees their one row, even an empty one). */
export type SalesSummary = SalesSummaryCents & { byPhotographer?: PhotographerSales[] };

/** The breakdown, with each event's name from the photo library (null for an event it no longer has). */
export type Breakdown = {
  byDay: SalesBreakdown['byDay'];
  byEvent: (SalesBreakdown['byEvent'][number] & { eventName: string | null })[];
};

/** One order line with the photographer of its photo (`unknown` when its metadata names none). */
export type SaleLine = {
  order: OrderRecord;
  line: OrderRecord['items'][number];
  photographer: string;
};

export interface Sales {
  /** The orders (of these statuses, this event) the viewer may see: a photographer's cut to their lines. */
  visibleOrders(viewer: Viewer, query: Scope & { statuses?: readonly OrderStatus[] }): Promise<OrderRecord[]>;
  /** GET /api/orders/summary: the store's summary, or a photographer's computed from their shares. */
  summary(viewer: Viewer, query: Scope & { byPhotographer: boolean }): Promise<SalesSummary>;
  /** GET /api/orders/summary/breakdown: the visible paid orders by day and by event. */
  breakdown(viewer: Viewer, query: Scope & { timeZone: string }): Promise<Breakdown>;
  /** GET /api/orders/lines: every line of the visible listed orders, newest order first. */
  lines(viewer: Viewer, query: Scope): Promise<SaleLine[]>;
}

/** The photographer a line's photo credits (a photo taken down since still counts for them). */
function libraryPhotographerOf(library: PhotoLibrary): PhotographerOf {
  return (eventSlug, number) =>
    (library.findPhoto(eventSlug, number) ?? library.findHiddenPhoto(eventSlug, number))?.metadata?.photographer;
}

export function createSales(deps: { orders: OrdersPort; photos: PhotoLibrary }): Sales {
  const { orders, photos } = deps;
  const photographerOf = libraryPhotographerOf(photos);

  const visibleOrders: Sales['visibleOrders'] = async (viewer, query) => {
    const listed = await orders.list({
      eventSlug: query.eventSlug,
      ...(query.statuses && { statuses: query.statuses }),
    });
    const own = viewer.photographer;
    return own === undefined ? listed : ownShares(listed, photographerOf, own);
  };

  return {
    visibleOrders,

    async summary(viewer, { eventSlug, byPhotographer }) {
      const own = viewer.photographer;
      // The owner's figures come from the store's own sums; a photographer's from their shares
      // of every listed order (held ones are never listed, as the store's summary leaves them out).
      const shares = own === undefined ? undefined : await visibleOrders(viewer, { eventSlug });
      const summary = shares ? summaryOfShares(shares) : await orders.summary({ eventSlug });
      if (!byPhotographer) return summary;
      const paid = shares ?? (await visibleOrders(viewer, { eventSlug, statuses: ['paid'] }));
      const rows = photographerSales(paid, photographerOf);
      const byPhotographerRows =
        own === undefined || rows.length > 0 ? rows : [{ photographer: own, orders: 0, prints: 0, revenueCents: 0 }];
      return { ...summary, byPhotographer: byPhotographerRows };
    },

    async breakdown(viewer, { eventSlug, timeZone }) {
      const paid = await visibleOrders(viewer, { eventSlug, statuses: ['paid'] });
      const { byDay, byEvent } = salesBreakdown(paid, { timeZone });
      return { byDay, byEvent: byEvent.map((e) => ({ ...e, eventName: photos.getEvent(e.eventSlug)?.name ?? null })) };
    },

    async lines(viewer, { eventSlug }) {
      const shown = await visibleOrders(viewer, { eventSlug });
      return shown.flatMap((order) =>
        order.items.map((line) => ({
          order,
          line,
          photographer: photographerOf(order.eventSlug, line.photoNumber) ?? UNKNOWN_PHOTOGRAPHER,
        })),
      );
    },
  };
}
