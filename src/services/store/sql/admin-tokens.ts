/** Admin tokens on either engine (ports/admin-tokens.ts): table `admin_tokens`. */
import { AdminTokenRecord, type AdminTokensPort, type NewAdminToken } from '../ports/admin-tokens.js';
import type { Db, Row } from './db.js';
import { camelRow } from './values.js';

const COLUMNS = 'id, role, label, token_hash, created_at, created_by, revoked_at, revoked_by';

const toRecord = (r: Row): AdminTokenRecord => AdminTokenRecord.parse(camelRow(r));

export class SqlAdminTokens implements AdminTokensPort {
  constructor(private readonly db: Db) {}

  async create(token: NewAdminToken): Promise<AdminTokenRecord> {
    const createdAt = new Date().toISOString();
    await this.db.transaction((tx) =>
      tx.run(
        `INSERT INTO admin_tokens (id, role, label, token_hash, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?)`,
        [token.id, token.role, token.label, token.tokenHash, createdAt, token.createdBy],
      ),
    );
    return toRecord({ ...toRow(token), created_at: createdAt, revoked_at: null, revoked_by: null });
  }

  async list(): Promise<AdminTokenRecord[]> {
    const rows = await this.db.all(`SELECT ${COLUMNS} FROM admin_tokens ORDER BY created_at, id`);
    return rows.map(toRecord);
  }

  async active(): Promise<AdminTokenRecord[]> {
    const rows = await this.db.all(
      `SELECT ${COLUMNS} FROM admin_tokens WHERE revoked_at IS NULL ORDER BY created_at, id`,
    );
    return rows.map(toRecord);
  }

  revoke(id: string, by: string): Promise<AdminTokenRecord | null> {
    const at = new Date().toISOString();
    return this.db.transaction(async (tx) => {
      // Only the first revocation writes: the row keeps when and by whom it was revoked.
      await tx.run('UPDATE admin_tokens SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL', [
        at,
        by,
        id,
      ]);
      const row = await tx.get(`SELECT ${COLUMNS} FROM admin_tokens WHERE id = ?`, [id]);
      return row ? toRecord(row) : null;
    });
  }
}

function toRow(t: NewAdminToken): Row {
  return { id: t.id, role: t.role, label: t.label, token_hash: t.tokenHash, created_by: t.createdBy };
}
