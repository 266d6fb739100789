/**
 * docs/contract.md's "Roles" table, generated from the route table the admin-auth plugin
 * keeps (every route's declared access), so the document can't drift from what is checked.
 * `npm run openapi` writes it between the markers; a test fails when it is stale.
 */
import { ACTIONS, type Role } from '../domain/roles.js';
import type { RouteAccessEntry } from '../services/admin-auth/types.js';

export const ROLE_TABLE_START = '<!-- roles-table:start (npm run openapi) -->';
export const ROLE_TABLE_END = '<!-- roles-table:end -->';

const mark = (ok: boolean) => (ok ? 'yes' : '—');
const allows = (need: Role) => ({ owner: true, staff: need !== 'owner', viewer: need === 'viewer' });

export function renderRoleTable(routes: readonly RouteAccessEntry[]): string {
  const rows = [...routes].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  const lines = [
    '| route | owner | staff | viewer | photographer | without credentials |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const can = allows(r.role);
    const url = r.url.replace(/:(\w+)/g, '{$1}');
    lines.push(
      `| \`${r.method} ${url}\` | ${mark(can.owner)} | ${mark(can.staff)} | ${mark(can.viewer)} | ${r.photographer ? 'own' : '—'} | ${r.public ?? '—'} |`,
    );
    for (const action of r.actions) {
      const a = ACTIONS[action];
      const ac = allows(a.role);
      lines.push(`| ↳ ${a.what} | ${mark(ac.owner)} | ${mark(ac.staff)} | ${mark(ac.viewer)} | — | — |`);
    }
  }
  return lines.join('\n');
}

/** `doc` with the table between the markers replaced. */
export function replaceRoleTable(doc: string, table: string): string {
  const start = doc.indexOf(ROLE_TABLE_START);
  const end = doc.indexOf(ROLE_TABLE_END);
  if (start < 0 || end < start) throw new Error('docs/contract.md has no roles table markers');
  return `${doc.slice(0, start + ROLE_TABLE_START.length)}\n${table}\n${doc.slice(end)}`;
}
