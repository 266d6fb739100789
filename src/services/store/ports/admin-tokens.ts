/**
 * The admin tokens port: tokens the owner made in the dashboard for helpers (docs/contract.md,
 * "Roles"). Only the SHA-256 of a token is stored; the token itself is shown once, when made.
 * A revoked token is kept (its row says when and by whom) so the history's names stay readable.
 */
import { z } from 'zod';

export const StoredTokenRole = z.enum(['staff', 'viewer']);
export type StoredTokenRole = z.infer<typeof StoredTokenRole>;

export const AdminTokenRecord = z.object({
  id: z.string().min(1),
  role: StoredTokenRole.describe('`staff` (a booth helper) or `viewer` (reads only)'),
  label: z.string(),
  /** Hex SHA-256 of the token. */
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.iso.datetime({ offset: true }).describe('ISO 8601'),
  createdBy: z.string().describe('Who made it (`admin:<8 hex>`)'),
  revokedAt: z.iso.datetime({ offset: true }).nullable().describe('ISO 8601; null while it works'),
  revokedBy: z.string().nullable(),
});
export type AdminTokenRecord = z.infer<typeof AdminTokenRecord>;

export type NewAdminToken = Pick<AdminTokenRecord, 'id' | 'role' | 'label' | 'tokenHash' | 'createdBy'>;

export interface AdminTokensPort {
  /** Stores a new token (its hash); durable when it resolves. A taken id or hash throws. */
  create(token: NewAdminToken): Promise<AdminTokenRecord>;
  /** Every token, revoked ones included, oldest first. */
  list(): Promise<AdminTokenRecord[]>;
  /** The tokens that work now (not revoked): what every server checks a request against. */
  active(): Promise<AdminTokenRecord[]>;
  /**
   * Revokes a token; it fails at once in this process and within the others' refresh
   * (src/services/admin-auth/stored-tokens.ts). Revoking it again changes nothing. Null: no such id.
   */
  revoke(id: string, by: string): Promise<AdminTokenRecord | null>;
}
