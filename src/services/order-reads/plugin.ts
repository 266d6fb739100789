/**
 * `fastify.orderReads`: the admin's reads of orders (one order, the lists, the export for the
 * books), so that those routes parse, authorise, call this and shape the answer. The lists
 * come as ready bytes with their ETag (list-bytes.ts, the `admin` bench's machinery).
 */
import fp from 'fastify-plugin';
import { type OrderRecord, type OrderStatus, oldestFirst } from '../../domain/order.js';
import type { PhotoRefs } from '../../schemas/order.js';
import { loadOrder } from '../orders/load-order.js';
import type { OrderListQuery } from '../store/ports/orders.js';
import { createOrderListBytes, type ListBody } from './list-bytes.js';
import { libraryPhotoRefs } from './photo-refs.js';

export interface OrderReads {
  /** The order `ref` (its id or order number, any case) names, held ones too; else 404 ORDER_NOT_FOUND. */
  get(ref: string): Promise<OrderRecord>;
  /** An admin list (newest first, no held orders) as bytes of Orders with its ETag, from memory while unchanged. */
  list(statuses: readonly OrderStatus[], eventSlug: string | undefined): Promise<ListBody>;
  /** The orders for the books: created within [from, to] (ms, inclusive), no held ones, oldest first. */
  booked(query: Pick<OrderListQuery, 'eventSlug' | 'statuses'> & { from: number; to: number }): Promise<OrderRecord[]>;
  /** Each order line's photo in the library, for the admin views of an order (the lists use the same). */
  readonly photos: PhotoRefs;
}

declare module 'fastify' {
  interface FastifyInstance {
    orderReads: OrderReads;
  }
}

export default fp(
  async function orderReadsPlugin(fastify) {
    const { orders } = fastify.store;
    const photos = libraryPhotoRefs(fastify.photos, fastify.config.publicBaseUrl);
    const listBytes = createOrderListBytes({ photos });
    const reads: OrderReads = {
      get: (ref) => loadOrder(orders, ref),
      async list(statuses, eventSlug) {
        const records = await orders.list({ statuses, eventSlug });
        return listBytes.get(`${statuses.join(',')}\u0000${eventSlug ?? ''}`, records);
      },
      async booked({ eventSlug, statuses, from, to }) {
        const listed = await orders.list({ eventSlug, statuses });
        return listed.filter((o) => from <= Date.parse(o.createdAt) && Date.parse(o.createdAt) <= to).sort(oldestFirst);
      },
      photos,
    };
    fastify.decorate('orderReads', reads);
  },
  { name: 'order-reads', dependencies: ['store', 'photos'] },
);
