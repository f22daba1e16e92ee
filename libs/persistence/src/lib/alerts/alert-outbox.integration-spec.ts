import type { NewAlert } from '@tcg/domain';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { testDataSource, tinyCatalogue, truncateAll, workerDatabaseUrl } from '../../testing';
import { writeCatalogue } from '../catalogue-writer';
import { PriceIngestRepository } from '../prices/price-ingest.repository';
import { TypeOrmApiKeyRepository } from '../repositories/api-key.repository';
import { refreshSummaries } from '../summaries';
import { PLANS } from '@tcg/domain';
import { claimDueEvents, disableUnentitledAlerts, evaluateAlerts, recordAttempt } from './alert-outbox';
import { TypeOrmAlertRepository } from './alert.repository';

const KEY = '00000000-0000-4000-8000-00000000000a';
const OTHER_KEY = '00000000-0000-4000-8000-00000000000b';

describe('price alerts (PostgreSQL)', () => {
  let ds: DataSource;
  let client: Client;
  let alerts: TypeOrmAlertRepository;
  const cat = tinyCatalogue();
  const [nm] = cat.variants;
  const card = cat.cards[0]!;

  let t = 1_790_000_000;
  /** A new observation of the NM variant in NA, an hour after the last, as an import writes it. */
  const setPrice = async (minor: number) => {
    t += 3600;
    await new PriceIngestRepository(ds).ingest([{ variantUuid: nm!.uuid, region: 'NA', t, price: minor }]);
    await refreshSummaries(ds);
  };
  const evaluate = () => evaluateAlerts(client, (f) => JSON.stringify({ alert: f.alertId, price: f.price }));
  const events = async (): Promise<{ alert_id: string; payload: string }[]> =>
    ds.query('SELECT alert_id, payload FROM alert_events ORDER BY created_at, id');
  const newAlert = (over: Partial<NewAlert> = {}): NewAlert => ({
    keyId: KEY,
    cardUuid: card.uuid,
    variantUuid: nm!.uuid,
    market: 'US',
    storageRegion: 'NA',
    currency: 'USD',
    rule: 'price_above',
    threshold: 1000,
    url: 'https://hooks.example.com/a',
    secret: 'whsec_c2VjcmV0',
    ...over,
  });

  beforeAll(async () => {
    ds = await testDataSource();
    client = new Client({ connectionString: workerDatabaseUrl() });
    await client.connect();
    alerts = new TypeOrmAlertRepository(ds);
  });

  beforeEach(async () => {
    await truncateAll(ds);
    await writeCatalogue(ds, cat);
    await setPrice(900);
  });

  afterAll(async () => {
    await client.end();
    await ds.destroy();
  });

  it("keeps a key's alerts to that key, within the plan's cap", async () => {
    const a = await alerts.create(newAlert(), 2);
    expect(a).toMatchObject({
      cardId: card.id,
      variantId: nm!.id,
      rule: 'price_above',
      threshold: 1000,
      holds: false,
    });
    expect(await alerts.create(newAlert(), 2)).toBeDefined();
    expect(await alerts.create(newAlert(), 2)).toBeUndefined();
    expect(await alerts.create(newAlert({ keyId: OTHER_KEY }), 2)).toBeDefined();
    expect(await alerts.list(KEY)).toHaveLength(2);
    expect(await alerts.get(OTHER_KEY, a!.id)).toBeUndefined();
    expect(await alerts.delete(OTHER_KEY, a!.id)).toBe(false);
    expect(await alerts.attempts(OTHER_KEY, a!.id, 50)).toBeUndefined();
    expect(await alerts.delete(KEY, a!.id)).toBe(true);
    expect(await alerts.list(KEY)).toHaveLength(1);
  });

  it('fires when the rule becomes true, not while it stays true, and again after it cleared', async () => {
    const a = (await alerts.create(newAlert(), 10))!;
    expect(await evaluate()).toEqual({ ran: true, evaluated: 1, fired: 0, cleared: 0 });
    await setPrice(1100);
    expect(await evaluate()).toEqual({ ran: true, evaluated: 1, fired: 1, cleared: 0 });
    expect(await events()).toEqual([
      { alert_id: a.id, payload: JSON.stringify({ alert: a.id, price: 1100 }) },
    ]);
    await setPrice(1200);
    expect(await evaluate()).toMatchObject({ fired: 0 });
    await setPrice(950);
    expect(await evaluate()).toEqual({ ran: true, evaluated: 1, fired: 0, cleared: 1 });
    await setPrice(1001);
    expect(await evaluate()).toMatchObject({ fired: 1 });
    expect(await events()).toHaveLength(2);
    expect((await alerts.get(KEY, a.id))!.lastFiredAt).toBeInstanceOf(Date);
  });

  it("disables a key's alerts when the key is revoked (nobody could delete them afterwards)", async () => {
    const keys = new TypeOrmApiKeyRepository(ds);
    const { record } = await keys.create('starter', 'alerts');
    const a = (await alerts.create(newAlert({ keyId: record.id }), 10))!;
    const other = (await alerts.create(newAlert(), 10))!;
    expect(await keys.revoke(record.id)).toBe(true);
    expect(await alerts.get(record.id, a.id)).toMatchObject({ disabledReason: 'key revoked' });
    expect(await alerts.get(KEY, other.id)).toMatchObject({ disabledAt: null });
  });

  it('starts from the rule as it holds at creation: no event for a price already past the threshold', async () => {
    await setPrice(5000);
    const a = (await alerts.create(newAlert(), 10))!;
    expect(a.holds).toBe(true);
    expect(await evaluate()).toMatchObject({ fired: 0 });
  });

  it("watches a card's highest-priced raw variant, and percent changes either way", async () => {
    await alerts.create(newAlert({ variantUuid: null, threshold: 1000 }), 10);
    await alerts.create(newAlert({ rule: 'change_24h', threshold: 10 }), 10);
    await setPrice(1500); // +67% over 24 h
    expect(await evaluate()).toMatchObject({ evaluated: 2, fired: 2 });
  });

  it('lets one instance evaluate at a time; the other skips, as the one evaluating answers for it', async () => {
    await alerts.create(newAlert(), 10);
    const other = new Client({ connectionString: workerDatabaseUrl() });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('tcg_alerts'), 1)`);
      expect(await evaluate()).toEqual({ ran: false, evaluated: 0, fired: 0, cleared: 0 });
      await other.query('COMMIT');
      expect(await evaluate()).toMatchObject({ ran: true, evaluated: 1 });
    } finally {
      await other.end();
    }
  });

  it('lets one claimer have an event until its lease passes, and records what followed', async () => {
    const a = (await alerts.create(newAlert(), 10))!;
    await setPrice(1100);
    await evaluate();
    const other = new Client({ connectionString: workerDatabaseUrl() });
    await other.connect();
    try {
      const [mine, theirs] = await Promise.all([
        claimDueEvents(client, 10, 300),
        claimDueEvents(other, 10, 300),
      ]);
      expect(mine.length + theirs.length).toBe(1);
      const event = [...mine, ...theirs][0]!;
      expect(event).toMatchObject({ alertId: a.id, attempt: 1, url: 'https://hooks.example.com/a' });
      expect(await claimDueEvents(other, 10, 300)).toEqual([]);
      // The claimer "died": once the lease has passed, the event is claimed again.
      await new Promise((r) => setTimeout(r, 400));
      const [again] = await claimDueEvents(other, 10, 60_000);
      expect(again).toMatchObject({ id: event.id, attempt: 2 });
      const at = new Date();
      await recordAttempt(
        other,
        again!,
        { at, ok: false, status: 503, durationMs: 12, error: 'http_503' },
        {
          retryAt: new Date(Date.now() + 60_000),
        },
      );
      expect(await claimDueEvents(other, 10, 60_000)).toEqual([]);
      // The first claimer's late answer: its attempt is no longer the event's, so nothing is recorded.
      expect(
        await recordAttempt(
          client,
          event,
          { at, ok: true, status: 204, durationMs: 9000, error: null },
          undefined,
        ),
      ).toBe(false);
      expect(await alerts.attempts(KEY, a.id, 50)).toEqual([
        { eventId: event.id, attempt: 2, at, status: 503, durationMs: 12, error: 'http_503' },
      ]);
      await recordAttempt(
        other,
        again!,
        { at, ok: false, status: null, durationMs: 5, error: 'timeout' },
        {
          giveUp: 'deliveries failed for 24 h',
        },
      );
      expect(await alerts.get(KEY, a.id)).toMatchObject({ disabledReason: 'deliveries failed for 24 h' });
      expect(await ds.query('SELECT count(*)::int AS n FROM alert_events WHERE failed_at IS NULL')).toEqual([
        { n: 0 },
      ]);
      expect((await alerts.get(KEY, a.id))!.disabledAt).toBeInstanceOf(Date);
      // A disabled alert is not evaluated.
      await setPrice(100);
      expect(await evaluate()).toMatchObject({ evaluated: 0 });
    } finally {
      await other.end();
    }
  });

  describe("a key's status, whatever changed it", () => {
    const caps = Object.fromEntries(Object.entries(PLANS).map(([plan, limits]) => [plan, limits.maxAlerts]));
    const keys = () => new TypeOrmApiKeyRepository(ds);
    const fireAll = (ids: string[]) =>
      ds.query(
        `INSERT INTO alert_events (id, alert_id, payload) SELECT gen_random_uuid(), a, '{}' FROM unnest($1::uuid[]) a`,
        [ids],
      );

    it("sends nothing for a revoked key's alerts, and disables them, even when revoked without the CLI", async () => {
      const { record } = await keys().create('starter', 'revoked elsewhere');
      const a = (await alerts.create(newAlert({ keyId: record.id }), 10))!;
      await fireAll([a.id]);
      await ds.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [record.id]);
      expect(await claimDueEvents(client, 10, 60_000)).toEqual([]);
      expect(await disableUnentitledAlerts(client, caps)).toEqual({ revoked: 1, overCap: 0 });
      expect(await alerts.get(record.id, a.id)).toMatchObject({ disabledReason: 'key revoked' });
    });

    it("disables the newest alerts past a downgraded plan's cap, and sends none of their events", async () => {
      const { record } = await keys().create('enterprise', 'downgraded');
      const made: string[] = [];
      for (let i = 0; i < 7; i++) made.push((await alerts.create(newAlert({ keyId: record.id }), 5000))!.id);
      await fireAll(made);
      expect(await keys().changePlan(record.id, 'free')).toBe(true); // free: 5 alerts
      expect(await disableUnentitledAlerts(client, caps)).toEqual({ revoked: 0, overCap: 2 });
      const listed = await alerts.list(record.id);
      expect(listed.map((x) => x.disabledReason)).toEqual([
        null,
        null,
        null,
        null,
        null,
        'over the free plan’s 5 alerts',
        'over the free plan’s 5 alerts',
      ]);
      const claimed = await claimDueEvents(client, 10, 60_000, { perKey: 10 });
      expect(claimed.map((e) => e.alertId).sort()).toEqual(made.slice(0, 5).sort());
      // Run again: nothing more to do.
      expect(await disableUnentitledAlerts(client, caps)).toEqual({ revoked: 0, overCap: 0 });
    });
  });
});
