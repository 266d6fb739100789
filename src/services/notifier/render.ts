/**
 * Turns an outbox job into a message draft at send time, from the order as it is now: an
 * admin who corrects a customer's email before the mail goes out fixes the mail too. A job
 * whose message no longer makes sense (a shipped notice for an un-shipped order) is skipped,
 * the reason in `sentVia`; any other failure throws and the job is retried. Cheap, on the
 * main thread; labels are rendered at delivery, off it.
 */
import { parseMailbox } from '../../adapters/mail.js';
import type { BusinessSettings } from '../../domain/business.js';
import type { OrderRecord } from '../../domain/order.js';
import { parsePhotoCode, photoCodeUrl } from '../../domain/photo-code.js';
import type { MailJob } from '../store/ports/mail-outbox.js';
import { domainOf, type MailAddress, type MailDraft } from './message.js';
import { headerText, isSafeAddress } from './sanitize.js';
import type { MessageContent, TemplateContext } from './templates/letter.js';
import { codeConfirmContent, photosContent, takedownContent, takedownNoticeContent } from './templates/notices.js';
import { readyContent, receiptContent, shippedContent, verificationContent } from './templates/orders.js';

export type RenderResult = { draft: MailDraft } | { skip: string };

export type RenderDeps = {
  getOrder(ref: string): Promise<OrderRecord | null>;
  /**
   * The business settings as they are when a message is rendered (docs/contract.md, "Business
   * settings"): the sender, the name it is signed with, the links' address, how to pay, and
   * the return address on a receipt's labels.
   */
  business(): Promise<
    Pick<BusinessSettings, 'businessName' | 'mailFrom' | 'publicBaseUrl' | 'paymentInstructions' | 'returnAddress'>
  >;
  operatorEmail: string | undefined;
  /** The download links of a paid order (the downloads service), for the receipt. */
  downloadLinks?: TemplateContext['downloadLinks'];
};

export type RenderJob = (job: MailJob) => Promise<RenderResult>;

export function createRenderer(deps: RenderDeps): RenderJob {
  /** What this message is written with: read when it is rendered, so a save in the dashboard applies at once. */
  async function context(): Promise<{ ctx: TemplateContext; from: MailAddress; returnAddress: string }> {
    const b = await deps.business();
    const from = parseMailbox(b.mailFrom);
    const ctx: TemplateContext = {
      publicBaseUrl: b.publicBaseUrl,
      senderName: headerText(b.businessName) || headerText(from.name) || 'Convention Photos',
      paymentInstructions: b.paymentInstructions,
      ...(deps.downloadLinks ? { downloadLinks: deps.downloadLinks } : {}),
    };
    return { ctx, from, returnAddress: b.returnAddress };
  }

  function customer(order: OrderRecord): MailAddress {
    const address = order.customerEmail.trim();
    if (!isSafeAddress(address)) {
      throw new Error(`order ${order.orderNumber} has no usable email address; correct it and the mail is retried`);
    }
    return { name: headerText(order.customerName, 100), address };
  }

  function operatorCopy(to: MailAddress): MailAddress[] {
    const op = deps.operatorEmail;
    if (!op || op.toLowerCase() === to.address.toLowerCase()) return [];
    return [{ name: '', address: op }];
  }

  function envelope(
    { from, returnAddress }: { from: MailAddress; returnAddress: string },
    job: MailJob,
    order: OrderRecord | null,
    to: MailAddress[],
    cc: MailAddress[],
    content: MessageContent,
    labelsOf: OrderRecord | null = null,
  ): RenderResult {
    // Digital files alone have no label (docs/contract.md, "Selling"): nothing is attached.
    const labels = labelsOf?.fulfillmentType === 'digital' ? null : labelsOf;
    return {
      draft: {
        from: { name: headerText(from.name), address: from.address },
        to,
        cc,
        ...content,
        labelsOf: labels,
        ...(labels ? { returnAddress } : {}),
        messageId: `<mail-${job.id}@${domainOf(from.address)}>`,
        meta: { jobId: job.id, kind: job.kind, orderNumber: order?.orderNumber ?? null, createdAt: job.createdAt },
      },
    };
  }

  async function orderOf(job: MailJob): Promise<OrderRecord> {
    if (!job.orderId) throw new Error(`${job.kind} mail ${job.id} names no order`);
    const order = await deps.getOrder(job.orderId);
    if (!order) throw new Error(`${job.kind} mail ${job.id}: order ${job.orderId} not found`);
    return order;
  }

  return async function render(job) {
    const c = await context();
    const { ctx } = c;
    switch (job.kind) {
      case 'receipt': {
        const order = await orderOf(job);
        if (order.customerEmail.trim() === '') {
          // A booth order without an email: the operator's copy only, if there is one.
          if (!deps.operatorEmail) return { skip: 'no customer email (booth order) and no OPERATOR_EMAIL' };
          const op = { name: '', address: deps.operatorEmail };
          return envelope(c, job, order, [op], [], receiptContent(order, ctx), order);
        }
        const to = customer(order);
        return envelope(c, job, order, [to], operatorCopy(to), receiptContent(order, ctx), order);
      }
      case 'shipped': {
        const order = await orderOf(job);
        if (order.shippingStatus !== 'shipped') return { skip: 'order is no longer marked shipped' };
        if (order.customerEmail.trim() === '') return { skip: 'no customer email (booth order)' };
        return envelope(c, job, order, [customer(order)], [], shippedContent(order, ctx));
      }
      case 'ready': {
        const order = await orderOf(job);
        if (order.pickupStatus !== 'ready') return { skip: `order is no longer ready (it is ${order.pickupStatus})` };
        return envelope(c, job, order, [customer(order)], [], readyContent(order, ctx));
      }
      case 'verification': {
        const order = await orderOf(job);
        if (!order.held) return { skip: 'order was confirmed already' };
        if (order.status !== 'pending') return { skip: `order is ${order.status}` };
        const verifyUrl = job.payload.verifyUrl;
        if (typeof verifyUrl !== 'string' || !/^https?:\/\//i.test(verifyUrl)) {
          throw new Error(`verification mail ${job.id} has no http(s) verifyUrl`);
        }
        return envelope(c, job, order, [customer(order)], [], verificationContent(order, ctx, verifyUrl));
      }
      case 'photos': {
        const code = typeof job.payload.code === 'string' ? parsePhotoCode(job.payload.code) : undefined;
        const to = typeof job.payload.to === 'string' ? job.payload.to.trim() : '';
        if (!code) throw new Error(`photos mail ${job.id} names no photo code`);
        if (!isSafeAddress(to)) return { skip: "the subscriber's email address is not usable" };
        const added = typeof job.payload.added === 'number' && job.payload.added > 0 ? job.payload.added : 1;
        const content = photosContent(code, added, photoCodeUrl(ctx.publicBaseUrl, code), ctx);
        return envelope(c, job, null, [{ name: '', address: to }], [], content);
      }
      case 'code-confirm': {
        const code = typeof job.payload.code === 'string' ? parsePhotoCode(job.payload.code) : undefined;
        const to = typeof job.payload.to === 'string' ? job.payload.to.trim() : '';
        const confirmUrl = job.payload.confirmUrl;
        if (!code) throw new Error(`code-confirm mail ${job.id} names no photo code`);
        if (typeof confirmUrl !== 'string' || !/^https?:\/\//i.test(confirmUrl)) {
          throw new Error(`code-confirm mail ${job.id} has no http(s) confirmUrl`);
        }
        if (!isSafeAddress(to)) return { skip: "the subscriber's email address is not usable" };
        return envelope(c, job, null, [{ name: '', address: to }], [], codeConfirmContent(code, confirmUrl, ctx));
      }
      case 'takedown': {
        // The requester, not a customer of an order: everything the message needs is in the payload.
        const { email, decision, eventName, photoNumber } = job.payload;
        if (typeof email !== 'string' || !isSafeAddress(email.trim())) {
          return { skip: 'the requester gave no usable email address' };
        }
        if ((decision !== 'remove' && decision !== 'restore') || typeof photoNumber !== 'string') {
          throw new Error(`takedown mail ${job.id} has no decision or photo`);
        }
        const content = takedownContent(
          { decision, eventName: typeof eventName === 'string' ? eventName : '', photoNumber },
          ctx,
        );
        return envelope(c, job, null, [{ name: '', address: email.trim() }], [], content);
      }
      case 'operator': {
        // A notice for the photographer (OPERATOR_EMAIL): a new takedown request.
        if (!deps.operatorEmail) return { skip: 'no OPERATOR_EMAIL' };
        const p = job.payload;
        if (p.about !== 'takedown' || typeof p.photoNumber !== 'string') {
          return { skip: `no message for operator notice ${String(p.about)}` };
        }
        const content = takedownNoticeContent(
          {
            eventName: typeof p.eventName === 'string' ? p.eventName : '',
            photoNumber: p.photoNumber,
            reason: typeof p.reason === 'string' ? p.reason : 'other',
            email: typeof p.email === 'string' ? p.email : '',
            message: typeof p.message === 'string' ? p.message : '',
            hidden: p.hidden === true,
          },
          ctx,
        );
        return envelope(c, job, null, [{ name: '', address: deps.operatorEmail }], [], content);
      }
      default:
        // A kind the store's outbox knows but this version never enqueues.
        return { skip: `no message for ${job.kind} mail` };
    }
  };
}
