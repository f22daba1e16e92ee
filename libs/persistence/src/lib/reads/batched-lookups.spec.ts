import { AsyncLocalStorage } from 'node:async_hooks';
import { databaseUnavailable } from '../db/data-source';
import {
  LookupBatcher,
  LookupsOverloadedError,
  LOOKUPS_PER_STATEMENT,
  MAX_WAIT_MS,
  MAX_WAITING,
  STATEMENTS_IN_FLIGHT,
} from './batched-lookups';

/** A batcher whose statements are recorded and finish when the test says. */
function recording(clock: () => number = Date.now) {
  const statements: { keys: readonly string[]; finish: (error?: Error) => void }[] = [];
  const batcher = new LookupBatcher<string>(
    (keys) =>
      new Promise((resolve, reject) =>
        statements.push({
          keys,
          finish: (error) =>
            error
              ? reject(error)
              : resolve(new Map(keys.filter((k) => k !== 'none').map((k) => [k, `card ${k}`]))),
        }),
      ),
    clock,
  );
  return { batcher, statements };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('LookupBatcher', () => {
  it('reads the lookups of one turn in one statement, each key once, and answers each', async () => {
    const { batcher, statements } = recording();
    const answers = Promise.all(['a', 'b', 'a', 'none'].map((k) => batcher.load(k)));
    await turn();
    expect(statements.map((s) => s.keys)).toEqual([['a', 'b', 'none']]);
    statements[0]!.finish();
    expect(await answers).toEqual(['card a', 'card b', 'card a', undefined]);
  });

  it('sends a lone lookup at once, and holds the next ones while STATEMENTS_IN_FLIGHT run', async () => {
    const { batcher, statements } = recording();
    const first = [];
    for (let i = 0; i < STATEMENTS_IN_FLIGHT; i++) {
      first.push(batcher.load(`k${i}`));
      await turn();
    }
    expect(statements.map((s) => s.keys)).toEqual(first.map((_, i) => [`k${i}`]));
    const waiting = Promise.all(['x', 'y', 'z'].map((k) => batcher.load(k)));
    await turn();
    expect(statements).toHaveLength(STATEMENTS_IN_FLIGHT);
    statements[0]!.finish();
    await turn();
    await turn();
    expect(statements.map((s) => s.keys).at(-1)).toEqual(['x', 'y', 'z']);
    statements.at(-1)!.finish();
    expect(await waiting).toEqual(['card x', 'card y', 'card z']);
  });

  it('splits what waits into statements of at most LOOKUPS_PER_STATEMENT', async () => {
    const { batcher, statements } = recording();
    const keys = Array.from({ length: LOOKUPS_PER_STATEMENT + 5 }, (_, i) => `k${i}`);
    const answers = Promise.all(keys.map((k) => batcher.load(k)));
    await turn();
    expect(statements.map((s) => s.keys.length)).toEqual([LOOKUPS_PER_STATEMENT, 5]);
    statements.forEach((s) => s.finish());
    expect(await answers).toEqual(keys.map((k) => `card ${k}`));
  });

  it('fails every lookup of a statement that fails, and only those', async () => {
    const { batcher, statements } = recording();
    const failed = [batcher.load('a'), batcher.load('b')];
    await turn();
    const later = batcher.load('c');
    await turn();
    statements[0]!.finish(new Error('statement timeout'));
    statements[1]!.finish();
    for (const lookup of failed) await expect(lookup).rejects.toThrow('statement timeout');
    expect(await later).toBe('card c');
  });

  it('refuses lookups past MAX_WAITING, and sends none that waited MAX_WAIT_MS', async () => {
    let now = 0;
    const { batcher, statements } = recording(() => now);
    const held = [];
    for (let i = 0; i < STATEMENTS_IN_FLIGHT; i++) {
      held.push(batcher.load(`h${i}`));
      await turn();
    }
    const old = batcher.load('old');
    now += MAX_WAIT_MS;
    const fresh = Array.from({ length: MAX_WAITING - 1 }, (_, i) => batcher.load(`w${i}`));
    const refused = await batcher.load('one too many').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LookupsOverloadedError);
    // A 503 the client may retry, as when the pool has no connection to give.
    expect(databaseUnavailable(refused)).toBe(true);
    statements[0]!.finish();
    await expect(old).rejects.toThrow(`waited more than ${MAX_WAIT_MS} ms`);
    await turn();
    expect(statements[STATEMENTS_IN_FLIGHT]!.keys).toEqual(
      Array.from({ length: LOOKUPS_PER_STATEMENT - 1 }, (_, i) => `w${i}`),
    );
    for (let finished = 1; finished < statements.length; finished++) {
      statements[finished]!.finish();
      await turn();
    }
    expect(await Promise.all([...held, ...fresh])).toEqual([
      ...held.map((_, i) => `card h${i}`),
      ...fresh.map((_, i) => `card w${i}`),
    ]);
  });

  it('runs each statement in the async context of its first lookup (what it logs names that request)', async () => {
    const request = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const batcher = new LookupBatcher<string>(async (keys) => {
      seen.push(request.getStore());
      return new Map(keys.map((k) => [k, k]));
    });
    await Promise.all([
      request.run('first', () => batcher.load('a')),
      request.run('second', () => batcher.load('b')),
    ]);
    await request.run('third', () => batcher.load('c'));
    expect(seen).toEqual(['first', 'third']);
  });
});
