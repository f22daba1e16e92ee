import { DownloadLeases, type DownloadLeaseStore, MemoryDownloadLeaseStore } from './download-leases';
import { Failover } from './failover';

/** A shared store that answers from `held` until `down` is set, then fails every call. */
function sharedStore(): DownloadLeaseStore & { down: boolean; held: Map<string, string> } {
  const store = {
    down: false,
    held: new Map<string, string>(),
    take: async (keyId: string, leaseId: string, limit: number) => {
      if (store.down) throw new Error('connection lost');
      if ([...store.held.values()].filter((k) => k === keyId).length >= limit) return false;
      store.held.set(leaseId, keyId);
      return true;
    },
    renew: async () => undefined,
    release: async (_keyId: string, leaseId: string) => void store.held.delete(leaseId),
  };
  return store;
}

describe('DownloadLeases', () => {
  const failover = () =>
    new Failover({
      name: 'redis',
      isReady: () => true,
      probe: async () => undefined,
      log: () => undefined,
      timeoutMs: 100,
    });

  it('takes a key’s places in the shared store, up to its limit, and gives them back there', async () => {
    const shared = sharedStore();
    const leases = new DownloadLeases(shared, new MemoryDownloadLeaseStore(), failover(), 60_000);
    const [a, b] = [await leases.take('k', 2), await leases.take('k', 2)];
    expect(await leases.take('k', 2)).toBeUndefined();
    expect(shared.held.size).toBe(2);
    a!.release();
    a!.release();
    await new Promise((r) => setImmediate(r));
    expect(shared.held.size).toBe(1);
    expect(await leases.take('k', 2)).toBeDefined();
    b!.release();
  });

  it('lets a key with one place download again as soon as the last download ends, its release still on the way', async () => {
    const shared = sharedStore();
    // A release the store answers 50 ms later (a commit under load), the lease gone only then.
    const release = shared.release;
    shared.release = (keyId, leaseId) =>
      new Promise((done) => setTimeout(() => void release(keyId, leaseId).then(done), 50));
    const leases = new DownloadLeases(shared, new MemoryDownloadLeaseStore(), failover(), 60_000);
    for (let i = 0; i < 3; i++) {
      const lease = await leases.take('k', 1);
      expect(lease).toBeDefined();
      lease!.release();
    }
    // Another key does not wait for this one's releases: the last is still on its way.
    expect(await leases.take('other', 1)).toBeDefined();
    expect([...shared.held.values()].sort()).toEqual(['k', 'other']);
  });

  it('counts in this instance’s memory, with the same limit, while the shared store is away', async () => {
    const shared = sharedStore();
    shared.down = true;
    const leases = new DownloadLeases(shared, new MemoryDownloadLeaseStore(), failover(), 60_000);
    const first = await leases.take('k', 1);
    expect(first).toBeDefined();
    expect(await leases.take('k', 1)).toBeUndefined();
    first!.release();
    expect(await leases.take('k', 1)).toBeDefined();
  });
});
