import { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { readDataVersion } from '../db/data-version';
import { ReadReplicas, replicaName, type VersionProbe } from './read-replicas';

const CLUSTER = '7712020608059541632';

/**
 * A stand-in for a server: its data version (what a read on it sees, and what it reports after),
 * whether it answers, and its cluster. Its pool's `query` is the version read after a read;
 * `probe` the replica's checks.
 */
interface FakeServer {
  name: string;
  version: number;
  identifier: string;
  down: boolean;
  ds: DataSource;
  probe: VersionProbe;
}

function server(name: string, version: number, identifier = CLUSTER): FakeServer {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  const s: FakeServer = {
    name,
    version,
    identifier,
    down: false,
    ds: {
      name,
      isInitialized: true,
      initialize: async () => undefined,
      driver: {
        master: {
          query: async () => {
            if (s.down) throw refused();
            return { rows: [{ version: String(s.version) }], rowCount: 1 };
          },
        },
      },
    } as unknown as DataSource,
    probe: {
      version: async () => {
        if (s.down) throw refused();
        return s.version;
      },
      systemIdentifier: async () => {
        if (s.down) throw refused();
        return s.identifier;
      },
      close: async () => undefined,
    } as VersionProbe,
  };
  return s;
}

function versions(initial: number | null) {
  let current = initial;
  const listeners = new Set<(v: number | null) => void>();
  return {
    current: () => current,
    onChange: (l: (v: number | null) => void) => (listeners.add(l), () => listeners.delete(l)),
    announce(v: number) {
      current = v;
      for (const l of listeners) l(v);
    },
  };
}

/** A read that answers which server ran it and the version it saw there. */
const where = async (ds: DataSource) => {
  const d = ds as unknown as { name: string };
  return `${d.name}@${await readDataVersion(poolOf(ds))}`;
};

describe('ReadReplicas', () => {
  let router: ReadReplicas | undefined;
  let primary: FakeServer;
  beforeEach(() => (primary = server('primary', 5)));
  afterEach(async () => router?.stop());

  const start = async (
    replicas: FakeServer[],
    announced: ReturnType<typeof versions>,
    checkEveryMs = 1000,
  ) => {
    router = new ReadReplicas(primary.ds, replicas, {
      versions: announced,
      primarySystemIdentifier: async () => CLUSTER,
      checkEveryMs,
    });
    await router.start();
    return router;
  };

  it('takes turns among the replicas that have replayed the current version', async () => {
    const r = await start([server('a', 5), server('b', 5)], versions(5));
    const reads = await Promise.all(Array.from({ length: 4 }, () => r.read(where)));
    expect(reads).toEqual(['a@5', 'b@5', 'a@5', 'b@5']);
    expect(r.routing().primaryReads).toBe(0);
  });

  it.each([
    ['the primary announces a version the replica lacks', 6, 5, 'primary@6'],
    ['the replica has the announced version', 6, 6, 'a@6'],
    ['the replica is ahead of the announcement', 5, 6, 'a@6'],
  ])('when %s (announced %i, replayed %i), the read goes to %s', async (_, announced, replayed, expected) => {
    const a = server('a', replayed);
    primary.version = Math.max(announced, replayed);
    const v = versions(5);
    const r = await start([a], v);
    v.announce(announced);
    expect(await r.read(where)).toBe(expected);
  });

  it('never goes back after a read on the primary: the floor rises to what the primary served', async () => {
    const a = server('a', 10);
    primary.version = 10;
    const r = await start([a], versions(10));
    expect(await r.read(where)).toBe('a@10');
    // An import commits 11; its announcement has not arrived (or the watcher is down).
    primary.version = 11;
    // A recovery conflict sends the next read to the primary, which serves 11.
    const conflict = Object.assign(new Error('canceling statement due to conflict with recovery'), {
      code: '40001',
    });
    expect(
      await r.read(async (ds) => {
        if (ds === a.ds) throw conflict;
        return where(ds);
      }),
    ).toBe('primary@11');
    await (r as unknown as { checkAll(): Promise<void> }).checkAll(); // the replica is back up, still at 10
    expect(r.routing().replicas[0]).toMatchObject({ up: true, replayedVersion: 10, eligible: false });
    expect(await r.read(where)).toBe('primary@11');
  });

  it('never goes back between replicas: one read at a newer version takes the lagging one out', async () => {
    const a = server('a', 7);
    const b = server('b', 7);
    primary.version = 8;
    const r = await start([a, b], versions(7));
    a.version = 8; // a replays 8 after its check, before the announcement arrives
    expect(await r.read(where)).toBe('a@8');
    expect(r.routing().floor).toBe(8);
    expect(await Promise.all([r.read(where), r.read(where)])).toEqual(['primary@8', 'primary@8']);
  });

  it('never reads a server of another cluster, however new its version', async () => {
    const stray = server('stray', 900_000, '1111');
    const r = await start([stray, server('a', 5)], versions(5));
    expect(await Promise.all([r.read(where), r.read(where)])).toEqual(['a@5', 'a@5']);
    expect(r.routing().floor).toBe(5);
  });

  it('runs a read the replica could not serve again on the primary, and sends it no more until a check succeeds', async () => {
    const a = server('a', 5);
    const r = await start([a], versions(5));
    a.down = true;
    expect(await r.read(where)).toBe('primary@5');
    expect(r.routing().replicas[0]).toMatchObject({ up: false, eligible: false, reads: 1, failedOver: 1 });
    a.down = false;
    expect(await r.read(where)).toBe('primary@5');
    await (r as unknown as { checkAll(): Promise<void> }).checkAll();
    expect(await r.read(where)).toBe('a@5');
  });

  it.each([
    ['no pooled connection in time', 'timeout exceeded when trying to connect', undefined],
    ['a column the replica has not replayed yet', 'column "x" does not exist', '42703'],
  ])('runs a read that met %s on the primary, and keeps the replica', async (_, message, code) => {
    const a = server('a', 5);
    const r = await start([a], versions(5));
    let attempts = 0;
    const answer = await r.read(async (ds) => {
      attempts++;
      if (ds === a.ds) throw Object.assign(new Error(message), { code });
      return where(ds);
    });
    expect([answer, attempts]).toEqual(['primary@5', 2]);
    expect(r.routing().replicas[0]).toMatchObject({ up: true, eligible: true });
  });

  it.each([
    ['a statement past its timeout (slow everywhere)', { code: '57014' }],
    ['a bug in the query', { code: '42601' }],
  ])('does not run %s again on the primary', async (_, fields) => {
    const r = await start([server('a', 5)], versions(5));
    let attempts = 0;
    await expect(
      r.read(async () => {
        attempts++;
        throw Object.assign(new Error('no'), fields);
      }),
    ).rejects.toThrow('no');
    expect(attempts).toBe(1);
    expect(r.routing().replicas[0]!.up).toBe(true);
  });

  it('reads on the primary while no replica answers, and on a replica again once it does', async () => {
    const a = server('a', 5);
    a.down = true;
    const r = await start([a], versions(5), 10);
    expect(await r.read(where)).toBe('primary@5');
    a.down = false;
    for (let i = 0; i < 100 && !r.routing().replicas[0]!.eligible; i++)
      await new Promise((done) => setTimeout(done, 10));
    expect(await r.read(where)).toBe('a@5');
  });

  it.each([
    ['postgres://user:secret@db-replica-1:6432/tcg?sslmode=require', 'db-replica-1:6432/tcg'],
    ['postgresql://10.0.0.7/tcg', '10.0.0.7:5432/tcg'],
  ])('names %s without its credentials', (url, name) => {
    expect(replicaName(url)).toBe(name);
  });
});
