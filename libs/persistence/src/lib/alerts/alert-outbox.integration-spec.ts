import type { NewAlert } from '@tcg/domain';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { testAlert, tinyCatalogue, useTestClient, useTestDatabase, workerDatabaseUrl } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { PriceIngestRepository } from '../prices';
import { TypeOrmApiKeyRepository } from '../keys';
import { refreshSummaries } from '../summaries';
import type { Connection } from '../sql/run';
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
  const newAlert = (over: Partial<NewAlert> = {}): NewAlert =>
    testAlert({ keyId: KEY, cardUuid: card.uuid, variantUuid: nm!.uuid, secret: 'whsec_c2VjcmV0', ...over });

  useTestDatabase((opened) => (ds = opened));
  useTestClient((opened) => (client = opened));
  beforeAll(() => {
    alerts = new TypeOrmAlertRepository(ds);
  });

  beforeEach(async () => {
    await writeCatalogue(ds, cat);
    await setPrice(900);
  });

  it('gives one host one destination however its name is spelt', async () => {
    const urls = [
      'https://Hooks.Example.com/a',
      'https://hooks.example.com./b',
      'https://hooks.example.com..:443/c',
      'https://hooks.example.com.:8443/d',
      'https://[2001:db8::1]:8443/e',
    ];
    // As the service stores them: WHATWG-serialised (lower-case host, no default port).
    for (const url of urls) await alerts.create(newAlert({ url: new URL(url).href }), 10);
    const rows: { destination: string }[] = await ds.query('SELECT destination FROM alerts ORDER BY url');
    expect(rows.map((r) => r.destination).sort()).toEqual([
      '[2001:db8::1]:8443',
      'hooks.example.com',
      'hooks.example.com',
      'hooks.example.com',
      'hooks.example.com:8443',
    ]);
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

  describe('claims, fair per key and bounded by what is claimable', () => {
    const PER_KEY = 4;
    /**
     * `n` events of `alertId`, due `agoS` seconds ago and a millisecond apart (oldest first), each
     * with a body of an event's size (about 350 bytes), so that a claim reading them all reads
     * their pages; `delivered`: already delivered, as a vacuumed history.
     */
    const queue = (alertId: string, n: number, agoS: number, delivered = false): Promise<unknown> =>
      ds.query(
        `INSERT INTO alert_events (id, alert_id, payload, due_at, delivered_at)
         SELECT gen_random_uuid(), $1, repeat('x', 350), now() - $3 * interval '1 second' + i * interval '1 millisecond',
                CASE WHEN $4 THEN now() END
         FROM generate_series(1, $2) i`,
        [alertId, n, agoS, delivered],
      );
    /** Leases `alertId`'s `n` oldest events to a sender still sending them. */
    const inFlight = (alertId: string, n: number): Promise<unknown> =>
      ds.query(
        `UPDATE alert_events SET claimed_until = now() + interval '1 minute', attempts = 1
         WHERE id IN (SELECT id FROM alert_events WHERE alert_id = $1 ORDER BY due_at, id LIMIT $2)`,
        [alertId, n],
      );

    interface PlanNode {
      'Node Type': string;
      'Relation Name'?: string;
      'Actual Rows': number;
      'Actual Loops': number;
      'Rows Removed by Filter'?: number;
      'Rows Removed by Index Recheck'?: number;
      'Shared Hit Blocks': number;
      'Shared Read Blocks': number;
      'Temp Read Blocks': number;
      'Temp Written Blocks': number;
      Plans?: PlanNode[];
    }
    /** Rows of alert_events the plan's scans read (returned or filtered out, every loop). */
    const eventRowsRead = (node: PlanNode): number =>
      (node['Relation Name'] === 'alert_events' && node['Node Type'].endsWith('Scan')
        ? (node['Actual Rows'] +
            (node['Rows Removed by Filter'] ?? 0) +
            (node['Rows Removed by Index Recheck'] ?? 0)) *
          node['Actual Loops']
        : 0) + (node.Plans ?? []).reduce((sum, child) => sum + eventRowsRead(child), 0);

    /**
     * Claims through a client that first runs each statement under EXPLAIN (ANALYZE, BUFFERS) in a
     * transaction it rolls back, then for real: the claim's result, and what its statement read.
     */
    const claimExplained = async (limit: number) => {
      const plans: PlanNode[] = [];
      const explaining: Connection = {
        query: async ({ text, values }) => {
          await client.query('BEGIN');
          try {
            const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
              `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
              values,
            );
            plans.push(rows[0]!['QUERY PLAN'][0]!.Plan);
          } finally {
            await client.query('ROLLBACK');
          }
          return client.query(text, values);
        },
      };
      const claimed = await claimDueEvents(explaining, limit, 60_000, { perKey: PER_KEY });
      expect(plans).toHaveLength(1);
      const plan = plans[0]!;
      return {
        claimed,
        rowsRead: eventRowsRead(plan),
        blocks: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'],
        tempBlocks: plan['Temp Read Blocks'] + plan['Temp Written Blocks'],
      };
    };

    it("claims another key's event whether one key's long backlog is idle or at its cap, without reading that backlog", async () => {
      const a = (await alerts.create(newAlert(), 10))!;
      const b = (await alerts.create(newAlert({ keyId: OTHER_KEY }), 10))!;
      await queue(a.id, 5_000, 7200, true); // A's history
      await queue(a.id, 20_000, 3600);
      await queue(b.id, 1, 60); // due after every one of A's
      await ds.query('ANALYZE alert_events');
      const oldestOfA = await ds.query<{ id: string }[]>(
        'SELECT id FROM alert_events WHERE alert_id = $1 AND delivered_at IS NULL ORDER BY due_at, id LIMIT 8',
        [a.id],
      );
      const [firstOfB] = await ds.query<{ id: string }[]>('SELECT id FROM alert_events WHERE alert_id = $1', [
        b.id,
      ]);
      const ids = (claimed: { id: string }[]) => claimed.map((e) => e.id).sort();
      const bounded = (read: { rowsRead: number; blocks: number; tempBlocks: number }) => {
        // Neither A's 20,000 due events nor its 5,000 delivered ones are read: what is read grows
        // with the alerts that have events pending and the events in flight, not with the backlog.
        expect(read.rowsRead).toBeLessThan(50);
        expect(read.blocks).toBeLessThan(400);
        expect(read.tempBlocks).toBe(0);
      };

      // A idle: A's first 4 and B's first, one place each round.
      const first = await claimExplained(32);
      expect(ids(first.claimed)).toEqual(ids([...oldestOfA.slice(0, PER_KEY), firstOfB!]));
      bounded(first);

      // A at its cap: B's next event is claimed, and none of A's.
      await queue(b.id, 1, 30);
      const second = await claimExplained(32);
      expect(second.claimed.map((e) => e.alertId)).toEqual([b.id]);
      bounded(second);

      // A's events in flight delivered: A's next 4.
      await ds.query(
        `UPDATE alert_events SET claimed_until = NULL, delivered_at = now() WHERE claimed_until > now()`,
      );
      const third = await claimExplained(32);
      expect(ids(third.claimed)).toEqual(ids(oldestOfA.slice(PER_KEY)));
      bounded(third);
    });

    it("takes a key's oldest across its alerts, round-robin across keys, its events in flight counted", async () => {
      const a1 = (await alerts.create(newAlert({ url: 'https://a.example.com/1' }), 10))!;
      const a2 = (await alerts.create(newAlert({ url: 'https://a.example.com/2' }), 10))!;
      const b = (await alerts.create(newAlert({ keyId: OTHER_KEY }), 10))!;
      await queue(a1.id, 3, 100); // A: 100 s ago, +1 ms, +2 ms
      await queue(a2.id, 3, 50); // A: 50 s ago…
      await queue(b.id, 6, 80); // B: 80 s ago…, one in flight
      await inFlight(b.id, 1);
      const due = await ds.query<{ id: string; alert_id: string }[]>(
        'SELECT id, alert_id FROM alert_events WHERE claimed_until IS NULL ORDER BY due_at, id',
      );
      const of = (alertId: string) => due.filter((e) => e.alert_id === alertId).map((e) => e.id);
      const [a1s, a2s, bs] = [of(a1.id), of(a2.id), of(b.id)];
      const ids = (claimed: { id: string }[]) => claimed.map((e) => e.id).sort();
      // Places: A's 1st; A's 2nd and B's 1st (its 2nd counting the one in flight); A's 3rd and B's
      // 2nd; then B's 3rd and A's 4th (the older first within a place), past the limit of 5. The
      // next claim: what is left of each key's 4, nothing after.
      const claimed = await claimDueEvents(client, 5, 60_000, { perKey: PER_KEY });
      expect(ids(claimed)).toEqual([a1s[0], a1s[1], bs[0], a1s[2], bs[1]].sort());
      const rest = await claimDueEvents(client, 10, 60_000, { perKey: PER_KEY });
      expect(ids(rest)).toEqual([a2s[0], bs[2]].sort());
      expect(await claimDueEvents(client, 10, 60_000, { perKey: PER_KEY })).toEqual([]);
    });
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
