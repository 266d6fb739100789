/** The admin tokens port's conformance suite (src/services/store/ports/admin-tokens.ts), on both engines. */
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

describeOnEngines('admin tokens port', (open) => {
  test('made, listed oldest first, revoked once (kept with who and when), and gone from the active ones everywhere', async (t) => {
    const store = await open(t);
    const { adminTokens } = store;
    expect(await adminTokens.list()).toEqual([]);
    const ana = await adminTokens.create({
      id: 't1',
      role: 'staff',
      label: 'Ana at the booth',
      tokenHash: hash('ana'),
      createdBy: 'admin:0123abcd',
    });
    expect(ana).toMatchObject({ id: 't1', role: 'staff', label: 'Ana at the booth', revokedAt: null, revokedBy: null });
    const bo = await adminTokens.create({
      id: 't2',
      role: 'viewer',
      label: 'Bo',
      tokenHash: hash('bo'),
      createdBy: 'admin:1',
    });
    expect((await adminTokens.list()).map((r) => r.id)).toEqual(['t1', 't2']);
    const other = await reopenStore(t, store);
    expect((await other.adminTokens.active()).map((r) => r.tokenHash)).toEqual([hash('ana'), hash('bo')]);

    const revoked = await adminTokens.revoke('t1', 'admin:0123abcd');
    expect(revoked?.revokedBy).toBe('admin:0123abcd');
    expect(Number.isNaN(Date.parse(revoked?.revokedAt ?? ''))).toBe(false);
    // Again: nothing changes (the first revocation is kept).
    expect(await other.adminTokens.revoke('t1', 'admin:ffffffff')).toEqual(revoked);
    expect(await adminTokens.revoke('nope', 'admin:1')).toBeNull();
    expect((await other.adminTokens.active()).map((r) => r.id)).toEqual([bo.id]);
    expect((await adminTokens.list()).map((r) => [r.id, r.revokedAt !== null])).toEqual([
      ['t1', true],
      ['t2', false],
    ]);
  });

  test('a hash is stored once: a second token with the same hash is refused and nothing is added', async (t) => {
    const { adminTokens } = await open(t);
    await adminTokens.create({ id: 'a', role: 'staff', label: '', tokenHash: hash('x'), createdBy: 'admin:1' });
    await expect(
      adminTokens.create({ id: 'b', role: 'staff', label: '', tokenHash: hash('x'), createdBy: 'admin:1' }),
    ).rejects.toThrow();
    expect((await adminTokens.list()).map((r) => r.id)).toEqual(['a']);
  });
});
