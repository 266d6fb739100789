/** Shapes of the admin's takedown queue (docs/contract.md, "Takedown requests"). */
import { z } from 'zod';
import { TakedownDecision, TakedownRecord, TakedownStatus } from '../../services/store/ports/takedowns.js';

export const TakedownListQuery = z.object({
  status: TakedownStatus.optional().describe('`open` (waiting for a decision) or `decided`; both when absent'),
});

export const TakedownIdParams = z.object({ id: z.string().min(1).max(100) });

export const TakedownDecisionBody = z
  .strictObject({
    decision: TakedownDecision.describe('`remove`: hidden for good, renders deleted; `restore`: listed again'),
  })
  .meta({ id: 'TakedownDecisionRequest' });

/** The request as the queue shows it: the record's fields (src/services/store/ports/takedowns.ts), in its place. */
const record = TakedownRecord.shape;
export const Takedown = z
  .object({
    id: record.id,
    eventSlug: record.eventSlug,
    eventName: z.string(),
    photo: z.object({
      id: record.photoId,
      number: record.photoNumber,
      thumbnail: z
        .string()
        .nullable()
        .describe(
          'Admin URL of the photo’s thumbnail (needs the token; null once removed for good or gone from the library)',
        ),
    }),
    reason: record.reason,
    email: record.email,
    message: record.message,
    hidden: z.boolean().describe('Whether the photo is kept from the public now'),
    createdAt: record.createdAt,
    status: record.status,
    decision: record.decision,
    decidedAt: record.decidedAt,
    decidedBy: record.decidedBy,
  })
  .meta({ id: 'Takedown' });
export type Takedown = z.infer<typeof Takedown>;

export const TakedownList = z.object({ takedowns: z.array(Takedown) }).meta({ id: 'TakedownList' });

export const TakedownDecided = z
  .object({
    changed: z.boolean().describe('false: it was decided so already'),
    takedowns: z
      .array(Takedown)
      .describe('The request, and the other open requests for the same photo decided with it'),
    flaggedOrders: z.array(z.string()).describe('Unpaid orders holding the photo, flagged (`remove` only)'),
  })
  .meta({ id: 'TakedownDecided' });
