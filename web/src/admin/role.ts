/**
 * The signed-in token's role (GET /api/admin/me: docs/contract.md, "Roles"): the dashboard shows
 * it and hides what the role can't use, from the server's own route table.
 */
import { useEffect, useState } from 'preact/hooks';
import { adminApi, ok } from '../lib/api.js';
import type { AdminMe } from '../lib/api-schema.js';

export type { AdminMe };

let cached: { token: string; me: Promise<AdminMe> } | undefined;

export function useAdminMe(token: string | null): AdminMe | null {
  const [me, setMe] = useState<AdminMe | null>(null);
  useEffect(() => {
    if (!token) return;
    if (cached?.token !== token) cached = { token, me: ok(adminApi.GET('/api/admin/me')) };
    let live = true;
    cached.me.then(
      (m) => live && setMe(m),
      () => {
        cached = undefined;
      },
    );
    return () => {
      live = false;
    };
  }, [token]);
  return me;
}

/** Whether the role may call `METHOD /path` (as the route table writes it) or use a finer rule. */
export function may(me: AdminMe | null, what: string): boolean {
  if (!me) return false;
  return me.routes.includes(what) || me.actions.includes(what);
}
