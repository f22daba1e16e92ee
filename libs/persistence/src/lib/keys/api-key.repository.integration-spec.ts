import { DataSource } from 'typeorm';
import { useTestDatabase } from '../../testing';
import { ApiKeySigner, generateLegacyApiKey, hashApiKey } from '@tcg/domain';
import { compile } from '../sql/compile';
import { ACTIVE_LEGACY_KEY_HASHES, TypeOrmApiKeyRepository } from './api-key.repository';

describe('TypeOrmApiKeyRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let keys: TypeOrmApiKeyRepository;

  useTestDatabase((opened) => {
    ds = opened;
    keys = new TypeOrmApiKeyRepository(ds);
  });

  it('stores only a hash, finds the key by its clear value, and shows a prefix', async () => {
    const { key, record } = await keys.create('starter', 'shop');
    expect(key).toMatch(/^tcg_[0-9A-Za-z]{43}$/);
    expect(new ApiKeySigner(undefined).verify(key)).toBe(true);
    expect(record.prefix).toBe(key.slice(0, 12));
    const [row] = await ds.query('SELECT key_hash, key_prefix FROM api_keys');
    expect(row.key_hash).toEqual(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(await keys.findActiveByHash(hashApiKey(key))).toMatchObject({
      id: record.id,
      plan: 'starter',
      label: 'shop',
    });
    expect(await keys.findActiveByHash(hashApiKey(`${key}x`))).toBeNull();
  });

  it('revokes and changes plans by id or prefix, and refuses an ambiguous prefix', async () => {
    const a = await keys.create('free', 'a', 'tcg_SAMEPREFIXoneAAAAAAAAAAAAAAAAAAA');
    await keys.create('free', 'b', 'tcg_SAMEPREFIXtwoAAAAAAAAAAAAAAAAAAA');
    await expect(keys.revoke('tcg_SAMEPREF')).rejects.toThrow('several keys');
    expect(await keys.changePlan(a.record.id, 'enterprise')).toBe(true);
    expect((await keys.findActiveByHash(hashApiKey('tcg_SAMEPREFIXoneAAAAAAAAAAAAAAAAAAA')))?.plan).toBe(
      'enterprise',
    );
    expect(await keys.revoke(a.record.id)).toBe(true);
    expect(await keys.findActiveByHash(hashApiKey('tcg_SAMEPREFIXoneAAAAAAAAAAAAAAAAAAA'))).toBeNull();
    expect(await keys.revoke('tcg_nothing')).toBe(false);
  });

  it('finds many keys in one statement, each in its place: active, revoked or unknown', async () => {
    const a = await keys.create('starter', 'a');
    const b = await keys.create('enterprise', 'b');
    const revoked = await keys.create('free', 'c');
    await keys.revoke(revoked.record.id);
    const hashes = [b.key, 'tcg_unknownAAAAAAAAAAAAAAAAAAAAAAAA', revoked.key, a.key, b.key].map(hashApiKey);
    const found = await keys.findActiveByHashes(hashes);
    expect(found.map((r) => (r instanceof Error ? r : (r?.id ?? null)))).toEqual([
      b.record.id,
      null,
      null,
      a.record.id,
      b.record.id,
    ]);
    expect(found[3]).toMatchObject({ plan: 'starter', label: 'a', revokedAt: null });
    expect(await keys.findActiveByHashes([])).toEqual([]);
  });

  it('gives a key of a plan this build does not know as an Error in its place, the others as found', async () => {
    const known = await keys.create('starter', 'known');
    await ds.query(
      `INSERT INTO plans (name, per_minute, per_day, per_month, max_limit, max_batch) VALUES ('platinum', 1, 1, 1, 1, 1)`,
    );
    const newer = await keys.create('starter', 'newer');
    await ds.query(`UPDATE api_keys SET plan = 'platinum' WHERE id = $1`, [newer.record.id]);
    const [a, b] = await keys.findActiveByHashes([hashApiKey(newer.key), hashApiKey(known.key)]);
    expect(a).toBeInstanceOf(Error);
    expect((a as Error).message).toContain('unknown plan platinum');
    expect(b).toMatchObject({ id: known.record.id, plan: 'starter' });
  });

  it('ensure creates a key once, and a revoked one stays revoked at the next ensure', async () => {
    const clear = 'tcg_DEMOkeyAAAAAAAAAAAAAAAAAAAAAAAAA';
    const created = await keys.ensure(clear, 'starter', 'demo');
    expect(created).toMatchObject({ plan: 'starter', label: 'demo', revokedAt: null });
    expect((await keys.ensure(clear, 'free', 'demo')).id).toBe(created.id);
    expect(await keys.revoke(created.id)).toBe(true);

    const again = await keys.ensure(clear, 'starter', 'demo');
    expect(again.id).toBe(created.id);
    expect(again.revokedAt).toBeInstanceOf(Date);
    expect(await keys.findActiveByHash(hashApiKey(clear))).toBeNull();
    expect(await keys.list()).toHaveLength(1);
  });

  it('issues keys checked under its signer, and lists the active legacy keys only', async () => {
    const signer = new ApiKeySigner('integration-secret-0123456789');
    const signed = new TypeOrmApiKeyRepository(ds, signer);
    const { key } = await signed.create('free', 'checked');
    expect(signer.verify(key)).toBe(true);
    const legacy = await signed.create('free', 'legacy', generateLegacyApiKey());
    const revoked = await signed.create('free', 'legacy, revoked', generateLegacyApiKey());
    await signed.revoke(revoked.record.id);
    expect(await signed.activeLegacyKeyHashes()).toEqual([hashApiKey(legacy.key)]);
    const rows: { label: string; legacy: boolean }[] = await ds.query(
      'SELECT label, legacy FROM api_keys ORDER BY created_at, label',
    );
    expect(rows.map((r) => [r.label, r.legacy])).toEqual([
      ['checked', false],
      ['legacy', true],
      ['legacy, revoked', true],
    ]);
  });

  it('reads the active legacy keys through their partial index, not the whole table', async () => {
    const plan: { 'QUERY PLAN': string }[] = await ds.transaction(async (m) => {
      // The test table is tiny: ask whether the index can answer the query, not whether it is cheaper.
      await m.query('SET LOCAL enable_seqscan = off');
      return m.query(`EXPLAIN ${compile(ACTIVE_LEGACY_KEY_HASHES).sql}`);
    });
    // Index-only, or a bitmap over it when the table's statistics say many rows match (seen in CI,
    // after other suites' keys): either way the partial index, not a scan of every key.
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(/(Index Only Scan using|Bitmap Index Scan on) api_keys_active_legacy_idx/);
    expect(text).not.toMatch(/Seq Scan/);
  });

  it('refuses to store a key of another shape, which the gateway would never look up', async () => {
    await expect(keys.create('free', 'short', 'tcg_short')).rejects.toThrow(/tcg_/);
    await expect(keys.ensure('demo-key-of-my-own', 'free', 'demo')).rejects.toThrow(/tcg_/);
    expect(await keys.list()).toEqual([]);
  });
});
