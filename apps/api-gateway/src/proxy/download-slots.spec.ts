import fc from 'fast-check';
import { DownloadSlots } from './download-slots';

describe('DownloadSlots', () => {
  it('keeps a connection for a key with none in flight however two greedy keys take theirs', () => {
    const slots = new DownloadSlots(8, 2, 2);
    const taken = ['a', 'a', 'a', 'b', 'b', 'b'].map((k) => slots.take(k));
    expect(taken.map((t) => (typeof t === 'function' ? 'ok' : t))).toEqual([
      'ok',
      'ok',
      'key_share',
      'ok',
      'ok',
      'key_share',
    ]);
    expect(typeof slots.take('c')).toBe('function');
  });

  it('gives the reserve only to keys with nothing in flight, and refuses when full', () => {
    const slots = new DownloadSlots(4, 4, 2);
    expect(typeof slots.take('a')).toBe('function');
    expect(typeof slots.take('a')).toBe('function');
    expect(slots.take('a')).toBe('reserved');
    expect(typeof slots.take('b')).toBe('function');
    expect(typeof slots.take('c')).toBe('function');
    expect(slots.take('d')).toBe('full');
  });

  it('gives a place back once, however often the giver is called', () => {
    const slots = new DownloadSlots(2, 1, 0);
    const give = slots.take('a') as () => void;
    give();
    give();
    expect(slots.inUse).toBe(0);
    expect(typeof slots.take('a')).toBe('function');
    expect(typeof slots.take('b')).toBe('function');
    expect(slots.take('c')).toBe('full');
  });

  it('never exceeds its connections nor a key its share, keeps the reserve for new keys, refuses them only when full', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.boolean()), { maxLength: 60 }),
        (sockets, perKey, reserved, steps) => {
          const slots = new DownloadSlots(sockets, perKey, reserved);
          const held = new Map<string, (() => void)[]>();
          for (const [key, release] of steps) {
            const mine = held.get(key) ?? [];
            held.set(key, mine);
            if (release && mine.length > 0) {
              mine.pop()!();
              continue;
            }
            const before = slots.inUse;
            const got = slots.take(key);
            if (typeof got === 'function') {
              // A key with something in flight never takes one of the reserve.
              if (mine.length > 0) expect(before).toBeLessThan(sockets - slots.reserved);
              mine.push(got);
            } else if (mine.length === 0) expect([got, before]).toEqual(['full', sockets]);
            const total = [...held.values()].reduce((n, g) => n + g.length, 0);
            expect(total).toBe(slots.inUse);
            expect(total).toBeLessThanOrEqual(sockets);
            expect(mine.length).toBeLessThanOrEqual(slots.perKey);
          }
        },
      ),
    );
  });
});
