/** `GET /api/admin/mirror` (src/routes/admin/mirror.ts): admin only; with the mirror off it says so. */
import { expect, test } from 'vitest';
import { ADMIN_TOKEN, build } from '../../helpers/build.js';

test('admin only; with GOOGLE_SHEETS_ID unset the mirror is off and /readyz carries no mirror field', async (t) => {
  const app = await build(t);
  const anonymous = await app.inject({ url: '/api/admin/mirror' });
  expect(anonymous.statusCode).toBe(401);
  expect(anonymous.json().code).toBe('UNAUTHORIZED');
  const res = await app.inject({ url: '/api/admin/mirror', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ enabled: false, pending: 0, lastError: null, conflicts: [] });
  const ready = await app.inject({ url: '/readyz' });
  expect(ready.statusCode).toBe(200);
  expect(ready.json().mirror).toBeUndefined();
});
