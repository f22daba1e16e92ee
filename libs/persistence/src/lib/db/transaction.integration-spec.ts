import { DataSource } from 'typeorm';
import { useTestDatabase } from '../../testing';
import { withSessionLock } from './transaction';

/** A key no other suite locks. */
const KEY = 7_399;

describe('withSessionLock (PostgreSQL)', () => {
  let ds: DataSource;

  useTestDatabase((opened) => (ds = opened), { truncate: 'never' });

  it('runs one holder at a time: a second either waits for the first or, not waiting, is refused', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    let started!: () => void;
    const first = withSessionLock(ds, KEY, async () => {
      order.push('first');
      started();
      await held;
      order.push('first done');
      return 1;
    });
    await new Promise<void>((done) => (started = done));

    expect(await withSessionLock(ds, KEY, async () => 2, { wait: false })).toBeUndefined();
    const second = withSessionLock(ds, KEY, async () => {
      order.push('second');
      return 3;
    });
    release();
    expect(await first).toEqual({ value: 1 });
    expect(await second).toEqual({ value: 3 });
    expect(order).toEqual(['first', 'first done', 'second']);

    expect(await withSessionLock(ds, KEY, async () => 4, { wait: false })).toEqual({ value: 4 });
  });
});
