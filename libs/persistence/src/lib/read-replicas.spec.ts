import { DataSource } from 'typeorm';
import { ReadReplicas, replicaName } from './read-replicas';

/** A stand-in for a replica's data source: its replayed version, and whether it answers. */
function fakeServer(name: string, version: number) {
  const server = {
    name,
    version,
    down: false,
    ds: {
      name,
      isInitialized: true,
      initialize: async () => undefined,
      query: async () => {
        if (server.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return [{ version: String(server.version) }];
      },
    } as unknown as DataSource,
  };
  return server;
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

const PRIMARY = { name: 'primary' } as unknown as DataSource;
/** Which data source a read ran on. */
const where = (ds: DataSource) => Promise.resolve((ds as unknown as { name: string }).name);

describe('ReadReplicas', () => {
  let router: ReadReplicas | undefined;
  afterEach(async () => router?.stop());

  it('takes turns among the replicas that have replayed the current version', async () => {
    const a = fakeServer('a', 5);
    const b = fakeServer('b', 5);
    router = new ReadReplicas(
      PRIMARY,
      [a, b].map((s) => ({ name: s.name, ds: s.ds })),
      {
        versions: versions(5),
      },
    );
    await router.start();
    const reads = await Promise.all(Array.from({ length: 4 }, () => router!.read(where)));
    expect(reads).toEqual(['a', 'b', 'a', 'b']);
    expect(router.routing().primaryReads).toBe(0);
  });

  it.each([
    ['the primary announces a version the replica lacks', 6, 5, 'primary'],
    ['the replica has the announced version', 6, 6, 'a'],
    ['the replica is ahead of the announcement (the primary has it too)', 5, 6, 'a'],
  ])('when %s (announced %i, replayed %i), the read goes to %s', async (_, announced, replayed, expected) => {
    const a = fakeServer('a', replayed);
    const v = versions(5);
    router = new ReadReplicas(PRIMARY, [{ name: 'a', ds: a.ds }], { versions: v });
    await router.start();
    v.announce(announced);
    expect(await router.read(where)).toBe(expected);
  });

  it('never goes back: a replica behind another one it already saw waits until it catches up', async () => {
    const a = fakeServer('a', 7);
    const b = fakeServer('b', 6);
    router = new ReadReplicas(
      PRIMARY,
      [a, b].map((s) => ({ name: s.name, ds: s.ds })),
      {
        versions: versions(6),
      },
    );
    await router.start();
    // The floor is 7 (read on a), though the primary's announcement of 7 has not arrived yet.
    expect(router.routing().floor).toBe(7);
    expect(await Promise.all([router.read(where), router.read(where)])).toEqual(['a', 'a']);
  });

  it('runs a read the replica could not serve again on the primary, and sends it no more until a check succeeds', async () => {
    const a = fakeServer('a', 5);
    const errors: string[] = [];
    router = new ReadReplicas(PRIMARY, [{ name: 'a', ds: a.ds }], {
      versions: versions(5),
      onError: (name, e) => errors.push(`${name}: ${e.message}`),
    });
    await router.start();
    let attempts = 0;
    const answer = await router.read(async (ds) => {
      attempts++;
      if (ds === a.ds) throw Object.assign(new Error('Connection terminated unexpectedly'), {});
      return 'from the primary';
    });
    expect([answer, attempts]).toEqual(['from the primary', 2]);
    expect(router.routing().replicas[0]).toMatchObject({
      up: false,
      eligible: false,
      reads: 1,
      failedOver: 1,
    });
    expect(await router.read(where)).toBe('primary');
    expect(errors).toEqual(['a: Connection terminated unexpectedly']);
  });

  it.each([
    ['a statement past its timeout (slow everywhere)', { code: '57014' }],
    ['a bug in the query', { code: '42601' }],
  ])('does not run %s again on the primary', async (_, fields) => {
    const a = fakeServer('a', 5);
    router = new ReadReplicas(PRIMARY, [{ name: 'a', ds: a.ds }], { versions: versions(5) });
    await router.start();
    let attempts = 0;
    await expect(
      router.read(async () => {
        attempts++;
        throw Object.assign(new Error('no'), fields);
      }),
    ).rejects.toThrow('no');
    expect(attempts).toBe(1);
    expect(router.routing().replicas[0]!.up).toBe(true);
  });

  it('reads on the primary while no replica answers, and on a replica again once it does', async () => {
    const a = fakeServer('a', 5);
    a.down = true;
    router = new ReadReplicas(PRIMARY, [{ name: 'a', ds: a.ds }], {
      versions: versions(5),
      checkEveryMs: 10,
    });
    await router.start();
    expect(await router.read(where)).toBe('primary');
    a.down = false;
    for (let i = 0; i < 100 && !router.routing().replicas[0]!.eligible; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(await router.read(where)).toBe('a');
  });

  it.each([
    ['postgres://user:secret@db-replica-1:6432/tcg?sslmode=require', 'db-replica-1:6432/tcg'],
    ['postgresql://10.0.0.7/tcg', '10.0.0.7:5432/tcg'],
  ])('names %s without its credentials', (url, name) => {
    expect(replicaName(url)).toBe(name);
  });
});
