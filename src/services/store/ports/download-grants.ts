/**
 * The download grants port (docs/contract.md, "Selling"): per digital order line, how many
 * times its file was downloaded and until when it may be. The checks of the order itself
 * (paid, a digital line) are the downloads service's; this keeps the count, atomically across
 * processes, so a line is never downloaded more than `max` times.
 */
import { z } from 'zod';

/** A digital order line's downloads: a record once the line was first downloaded. */
export const DownloadGrant = z.object({
  orderId: z.string().min(1),
  line: z.number().int().min(1),
  used: z.number().int().min(0),
  /** Set by the first download, kept after. */
  expiresAt: z.iso.datetime({ offset: true }),
  lastAt: z.iso.datetime({ offset: true }),
});
export type DownloadGrant = z.infer<typeof DownloadGrant>;

export type TakeResult = { ok: true; used: number } | { ok: false; reason: 'usedUp' | 'expired'; used: number };

export interface DownloadGrantsPort {
  /**
   * Counts one download of the line if fewer than `max` were made and `expiresAt` (set by the
   * first download, kept after) is ahead of `now`.
   */
  take(orderId: string, line: number, opts: { max: number; expiresAt: Date; now: Date }): Promise<TakeResult>;
  /** Downloads made of the line (0 when none). */
  used(orderId: string, line: number): Promise<number>;
}
