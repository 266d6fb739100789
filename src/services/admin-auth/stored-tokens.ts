/**
 * Admin tokens the owner makes in the dashboard (docs/contract.md, "Roles"), beside ADMIN_TOKENS:
 * made with a role and a label, shown once, kept only as the SHA-256 of the token in the system
 * of record, revoked by id. Every server process checks requests against the record's tokens
 * that are not revoked, as a snapshot read at most REFRESH_MS before the request: a token
 * revoked through any process fails everywhere within about a second, and at once in the
 * process that revoked it.
 */
import { createHash } from 'node:crypto';
import type { Actor } from '../../domain/order.js';
import { actorFor, type Role } from '../../domain/roles.js';
import { newId } from '../../lib/ids.js';
import type { AdminTokenRecord, AdminTokensPort, StoredTokenRole } from '../store/ports/admin-tokens.js';
import { generateAdminToken } from './credentials.js';

/** How long a snapshot of the record's tokens is trusted before the record is asked again. */
const REFRESH_MS = 1000;

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** A token as the owner sees it: never the token, nor its hash. */
export type AdminTokenView = Pick<
  AdminTokenRecord,
  'id' | 'role' | 'label' | 'createdAt' | 'createdBy' | 'revokedAt' | 'revokedBy'
> & {
  /** How the order history names it: `staff:<8 hex>` (the start of the token's SHA-256). */
  by: Actor;
};

const view = (r: AdminTokenRecord): AdminTokenView => ({
  id: r.id,
  role: r.role,
  label: r.label,
  // actorFor hashes the token; the record has the hash already: the same first 8 hex digits.
  by: `${r.role}:${r.tokenHash.slice(0, 8)}`,
  createdAt: r.createdAt,
  createdBy: r.createdBy,
  revokedAt: r.revokedAt,
  revokedBy: r.revokedBy,
});

export interface StoredTokens {
  /** The role of a token the record holds and has not revoked (as of the last refresh); undefined otherwise. */
  find(token: string): Role | undefined;
  /** Reads the record again when the snapshot is older than REFRESH_MS. Throws when the store can't be read. */
  fresh(): Promise<void>;
  /** A new token: stored hashed; the token itself is in the answer only. */
  create(role: StoredTokenRole, label: string, by: Actor): Promise<AdminTokenView & { token: string }>;
  list(): Promise<AdminTokenView[]>;
  /** Revoked at once in this process; null for an unknown id. */
  revoke(id: string, by: Actor): Promise<AdminTokenView | null>;
}

export function createStoredTokens(port: AdminTokensPort): StoredTokens {
  let active = new Map<string, Role>();
  let fetchedAt = 0;
  let inflight: Promise<void> | undefined;
  /** Revoked here since the snapshot was read: refused even by a snapshot read before the revocation committed. */
  const revokedHere = new Set<string>();

  function adopt(records: AdminTokenRecord[], readAt: number): void {
    active = new Map(records.filter((r) => !revokedHere.has(r.tokenHash)).map((r) => [r.tokenHash, r.role]));
    fetchedAt = readAt;
  }

  return {
    find(token) {
      return active.get(hashOf(token));
    },
    async fresh() {
      if (Date.now() - fetchedAt <= REFRESH_MS) return;
      const readAt = Date.now();
      inflight ??= port
        .active()
        .then((records) => adopt(records, readAt))
        .finally(() => {
          inflight = undefined;
        });
      await inflight;
    },
    async create(role, label, by) {
      const token = generateAdminToken();
      const record = await port.create({ id: newId(), role, label, tokenHash: hashOf(token), createdBy: by });
      active.set(record.tokenHash, record.role);
      // The history names it as it names ADMIN_TOKENS entries.
      return { ...view(record), by: actorFor(role, token), token };
    },
    async list() {
      return (await port.list()).map(view);
    },
    async revoke(id, by) {
      const record = await port.revoke(id, by);
      if (!record) return null;
      revokedHere.add(record.tokenHash);
      active.delete(record.tokenHash);
      return view(record);
    },
  };
}
