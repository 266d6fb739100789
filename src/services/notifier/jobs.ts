/**
 * The outbox jobs the rest of the service enqueues, atomically with the change that causes
 * them (`orders.create(order, { mail })`, `orders.setShipping(..., { mail })`, ...). A job names
 * the order; the message itself is rendered from the order as it is when it is sent.
 */
import { isDigitalSize } from '../../domain/offers.js';
import type { MailJobInput } from '../store/ports/mail-outbox.js';

/** The receipt (labels attached) for a new order, or for a held order once confirmed. */
export function receiptJob(orderId: string): MailJobInput {
  return { kind: 'receipt', orderId, payload: {} };
}

/**
 * When an order becomes paid: its receipt again, now with the download links, if it has
 * digital files (docs/contract.md, "Selling"); nothing otherwise.
 */
export function paidJobs(order: { id: string; items: readonly { size: string }[] }): MailJobInput[] {
  return order.items.some((l) => isDigitalSize(l.size)) ? [receiptJob(order.id)] : [];
}

/** The shipped notice (tracking number from the order at send time). */
export function shippedJob(orderId: string): MailJobInput {
  return { kind: 'shipped', orderId, payload: {} };
}

/** The "ready for pickup" notice (skipped if the order is no longer ready when it is sent). */
export function readyJob(orderId: string): MailJobInput {
  return { kind: 'ready', orderId, payload: {} };
}

/** The high-value confirmation carrying the signed link. */
function verificationJob(orderId: string, verifyUrl: string): MailJobInput {
  return { kind: 'verification', orderId, payload: { verifyUrl } };
}

/** `Notifier.jobsForNewOrder`: the confirmation link for a held order, else the receipt. */
export function jobsForNewOrder(order: { id: string; held: boolean }, verifyUrl?: string): MailJobInput[] {
  if (order.held) {
    if (!verifyUrl) throw new Error('a held order needs the confirmation link (verifyUrl)');
    return [verificationJob(order.id, verifyUrl)];
  }
  return [receiptJob(order.id)];
}
