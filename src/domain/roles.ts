/**
 * Admin roles (docs/contract.md, "Roles"), ordered viewer < staff < owner: what each kind of
 * admin token may do, in one table. A token without a known prefix is an owner token.
 * A route declares the least role it needs (`config: { access }`, checked by the admin-auth
 * plugin); a route whose calls differ (status `paid` vs `void`) checks the finer rule with
 * `fastify.adminAuth.check(request, action)` against ACTIONS.
 */
import { createHash } from 'node:crypto';
import type { Actor } from './order.js';

export const ROLES = ['viewer', 'staff', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** Whether `have` may do what needs `need`. */
export function roleAtLeast(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/**
 * The finer rules: actions inside one route that need more than the route itself. Each is
 * checked where it happens, through `adminAuth.check(request, action)`.
 */
export const ACTIONS = {
  'status:paid': { role: 'staff', what: 'mark an order paid' },
  'status:pending': { role: 'staff', what: 'undo "paid" within 15 minutes' },
  'status:void': { role: 'owner', what: 'void an order (refund)' },
  'status:cancelled': { role: 'owner', what: 'cancel an order' },
} as const satisfies Record<string, { role: Role; what: string }>;
export type Action = keyof typeof ACTIONS;

/**
 * What a route declares as `config.access`:
 * - a role: an admin-only route, for that role and above;
 * - an object, for routes open to the public too (`public` says how: "with a CAPTCHA", ...):
 *   `role` is what admin credentials must carry for the call to count as an admin's (a weaker
 *   role is 403, not silently treated as a customer); `actions` names the finer rules the
 *   handler checks. Admin-only routes with finer rules use the object form without `public`.
 */
export type RouteAccess = Role | { role: Role; public?: string; actions?: readonly Action[] };

/** The declaration in its long form. */
export type AccessRule = { role: Role; public: string | undefined; actions: readonly Action[] };

export function accessRule(access: RouteAccess): AccessRule {
  if (typeof access === 'string') return { role: access, public: undefined, actions: [] };
  return { role: access.role, public: access.public, actions: access.actions ?? [] };
}

const PHOTOGRAPHER_PREFIX = 'photographer:';

/**
 * One ADMIN_TOKENS entry: `owner:`, `staff:` or `viewer:` and the token; no known prefix is an
 * owner token. `photographer:<name>:<token>` is a viewer limited to the sales of the photos whose
 * metadata names `<name>` (docs/contract.md, "The photographer's metadata"): the token is what
 * follows the last colon, the name what lies between (a name missing is an empty `photographer`,
 * which the configuration refuses, never an owner token).
 */
export function parseTokenEntry(entry: string): { role: Role; token: string; photographer?: string } {
  if (entry.startsWith(PHOTOGRAPHER_PREFIX)) {
    const rest = entry.slice(PHOTOGRAPHER_PREFIX.length);
    const at = rest.lastIndexOf(':');
    return { role: 'viewer', token: rest.slice(at + 1), photographer: at < 0 ? '' : rest.slice(0, at).trim() };
  }
  const m = /^(owner|staff|viewer):(.*)$/.exec(entry);
  if (m) return { role: m[1] as Role, token: m[2] as string };
  return { role: 'owner', token: entry };
}

/**
 * Who acted, for the order history: `admin:` (owner) or `staff:` (or `viewer:`) and the first 8
 * hex digits of the SHA-256 of the token part, which tells admins apart without revealing one.
 */
export function actorFor(role: Role, token: string): Actor {
  const hash = createHash('sha256').update(token, 'utf8').digest('hex').slice(0, 8);
  return `${role === 'owner' ? 'admin' : role}:${hash}`;
}

/** The sentence every admin route's OpenAPI description ends with. */
export function accessNote(rule: AccessRule): string {
  const who =
    rule.role === 'owner'
      ? '`owner` only'
      : rule.role === 'staff'
        ? '`staff` and `owner`'
        : 'every role (`viewer`, `staff`, `owner`)';
  const weaker = rule.role === 'viewer' ? '' : ' A token of a weaker role: 403 `FORBIDDEN`.';
  const parts = [
    rule.public
      ? `**Access**: public ${rule.public}, or with admin credentials (${who}).${weaker}`
      : `**Role**: ${who} (docs/contract.md, "Roles").${weaker}`,
  ];
  for (const action of rule.actions) {
    const a = ACTIONS[action];
    parts.push(`To ${a.what}: ${a.role === 'owner' ? '`owner` only' : '`staff` and `owner`'}.`);
  }
  return parts.join(' ');
}

/** What every admin route's OpenAPI description says about `photographer:` tokens. */
export function photographerNote(view: string | undefined): string {
  return view === undefined ? 'A `photographer:` token: 403 `FORBIDDEN`.' : `A \`photographer:\` token: ${view}`;
}
