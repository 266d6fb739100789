/** Admin tokens on either engine (ports/admin-tokens.ts): table `admin_tokens`. */
import { AdminTokenRecord, type AdminTokensPort, type NewAdminToken } from '../ports/admin-tokens.js';
import type { Db } from './db.js';
import { recordTable } from './record-table.js';

export const TOKENS = recordTable('admin_tokens', AdminTokenRecord);
const COLUMNS = TOKENS.select;
const toRecord = TOKENS.toRecord;
const INSERT_SQL = TOKENS.insertSql();

export class SqlAdminTokens implements AdminTokensPort {
  constructor(private readonly db: Db) {}

  async create(token: NewAdminToken): Promise<AdminTokenRecord> {
    const record = AdminTokenRecord.parse({
      ...token,
      createdAt: new Date().toISOString(),
      revokedAt: null,
      revokedBy: null,
    });
    await this.db.transaction((tx) => tx.run(INSERT_SQL, TOKENS.values(record)));
    return record;
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
