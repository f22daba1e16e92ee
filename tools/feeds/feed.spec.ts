import fc from 'fast-check';
import { pacedBy } from './feed';

describe('pacedBy: a sync resting after each write unit', () => {
  /**
   * Units of the given milliseconds, each after `betweenMs` of other work (reading the next batch),
   * on a clock that only they, that work and the rests move (by whole milliseconds: exact sums).
   */
  async function paceUnits(restRatio: number, unitMs: readonly number[], betweenMs = 0) {
    let clock = 0;
    const rests: number[] = [];
    const paced = pacedBy(
      restRatio,
      async (ms) => {
        rests.push(ms);
        clock += Math.ceil(ms);
      },
      () => clock,
    );
    const results: number[] = [];
    for (const [i, ms] of unitMs.entries()) {
      clock += betweenMs;
      results.push(
        await paced(async () => {
          clock += ms;
          return i;
        }),
      );
    }
    return { rests, results };
  }

  it('rests `restRatio` times as long as each unit took, after it, and gives what the unit gave', async () => {
    expect(await paceUnits(3, [10, 20, 30])).toEqual({ rests: [30, 60, 90], results: [0, 1, 2] });
    expect(await paceUnits(0.5, [8, 2])).toEqual({ rests: [4, 1], results: [0, 1] });
  });

  it('never rests with a ratio of 0, nor after a unit that took no time', async () => {
    expect(await paceUnits(0, [10, 20, 30])).toEqual({ rests: [], results: [0, 1, 2] });
    expect((await paceUnits(3, [0, 5])).rests).toEqual([15]);
  });

  it('times each unit alone: neither the rest before it nor the work between units counts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.array(fc.integer({ min: 0, max: 60_000 }), { maxLength: 20 }),
        fc.integer({ min: 0, max: 60_000 }),
        async (ratio, unitMs, betweenMs) => {
          const { rests } = await paceUnits(ratio, unitMs, betweenMs);
          expect(rests).toEqual(unitMs.map((ms) => ms * ratio).filter((ms) => ms > 0));
        },
      ),
    );
  });

  it('does not rest after a unit that throws, and lets its error through', async () => {
    const rests: number[] = [];
    let clock = 0;
    const paced = pacedBy(
      3,
      async (ms) => rests.push(ms),
      () => clock,
    );
    await expect(
      paced(async () => {
        clock += 10;
        throw new Error('the batch rolled back');
      }),
    ).rejects.toThrow('the batch rolled back');
    expect(rests).toEqual([]);
  });
});
