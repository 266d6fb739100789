/** The errors the store throws besides the rules' own (INVALID_TRANSITION, ...). */
import { appError } from '../../errors/catalogue.js';

/** 503 STORE_UNAVAILABLE, telling clients to come back shortly. */
export function storeUnavailable(message: string, cause?: unknown) {
  return appError('STORE_UNAVAILABLE', { message, cause, headers: { 'Retry-After': '5' } });
}

const OUTCOME_UNKNOWN = Symbol('store write outcome unknown');

/**
 * STORE_UNAVAILABLE for a write that may have been committed after all (its commit could not
 * be confirmed on disk). An Idempotency-Key held for it must stay taken: the order and the
 * key's outcome are committed together, so a retry finds the order if it survived.
 */
export function outcomeUnknown(message: string, cause?: unknown) {
  return Object.assign(storeUnavailable(message, cause), { [OUTCOME_UNKNOWN]: true });
}

export function isOutcomeUnknown(err: unknown): boolean {
  return typeof err === 'object' && err !== null && OUTCOME_UNKNOWN in err;
}

export function orderNotFound(ref: string) {
  return appError('ORDER_NOT_FOUND', {
    message: `Order ${ref.slice(0, 100)} not found`,
    details: { ref: ref.slice(0, 100) },
  });
}

/**
 * A create whose id an order has already. Ids are UUIDs, so this is a bug in the caller, not
 * something a client can cause or correct: 500. Nothing of the create is written.
 */
export function duplicateOrderId(id: string) {
  return appError('INTERNAL', { message: `An order with id ${id} exists already`, details: { id } });
}
