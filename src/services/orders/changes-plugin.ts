/**
 * `fastify.orderChanges`: an admin's change to an order and everything it sets off (address
 * check, refund, mail, push, auto-print), in changes.ts; feedback on an order, in feedback.ts. The routes parse, authorise, call one
 * of these and shape the answer.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Actor, EditableFields, OrderStatus, PickupStatus } from '../../domain/order.js';
import { type ChangeDeps, type ChangeResult, changeOrder, changePickup, changeShipping } from './changes.js';
import { feedbackOn, type LeaveFeedback } from './feedback.js';

export interface OrderChanges {
  /** A status move and/or field edits (PUT /api/orders/{id}, update-status). */
  change(
    ref: string,
    change: { status?: OrderStatus | undefined; fields: Partial<EditableFields> },
    by: Actor,
  ): Promise<ChangeResult>;
  /** Marks shipped (with a tracking number) or undoes it. */
  ship(
    ref: string,
    body: { shipped?: boolean | undefined; trackingNumber?: string | undefined; printAll?: boolean | undefined },
    by: Actor,
  ): Promise<ChangeResult>;
  /** A paid pickup order's booth status. */
  pickup(ref: string, body: { status: PickupStatus; printAll?: boolean | undefined }, by: Actor): Promise<ChangeResult>;
  /** Feedback appended to an order (feedback.ts): `email` is the proof unless `admin`. */
  feedback: LeaveFeedback;
}

declare module 'fastify' {
  interface FastifyInstance {
    orderChanges: OrderChanges;
  }
}

async function orderChangesPlugin(fastify: FastifyInstance) {
  // Looked up at call time: tests swap in a push notifier that trusts their local push service.
  const deps: ChangeDeps = {
    orders: fastify.store.orders,
    get push() {
      return fastify.push;
    },
    get notifier() {
      return fastify.notifier;
    },
    get addressVerifier() {
      return fastify.addressVerifier;
    },
    payments: fastify.payments,
    printing: fastify.printing,
  };
  const changes: OrderChanges = {
    change: (ref, change, by) => changeOrder(deps, ref, change, by),
    ship: (ref, body, by) => changeShipping(deps, ref, body, by),
    pickup: (ref, body, by) => changePickup(deps, ref, body, by),
    feedback: feedbackOn(fastify.store.orders),
  };
  fastify.decorate('orderChanges', changes);
}

export default fp(orderChangesPlugin, {
  name: 'order-changes',
  dependencies: ['store', 'address', 'notifier', 'push', 'payments', 'printing'],
});
