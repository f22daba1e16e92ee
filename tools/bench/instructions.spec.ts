import { instructionsOfDump, netPerLookup } from './instructions.bench';

describe('instructionsOfDump', () => {
  it("reads the instructions of a callgrind dump's summary line", () => {
    const dump = [
      'version: 1',
      'creator: callgrind-3.19.0',
      'events: Ir',
      'fn=(1) main',
      '3 12',
      'summary: 4330115462',
      'totals: 4330115462',
    ];
    expect(instructionsOfDump(dump.join('\n'))).toBe(4_330_115_462);
  });

  it('reads the totals line of a dump without a summary', () => {
    expect(instructionsOfDump('events: Ir\nfn=(1) main\n3 12\ntotals: 1619228546\n')).toBe(1_619_228_546);
  });

  it('finds nothing in a dump cut before its end', () => {
    expect(instructionsOfDump('version: 1\nevents: Ir\nfn=(1) main\n3 12\n')).toBeUndefined();
  });
});

describe('netPerLookup', () => {
  it("takes the process's idle rate over the lookups' time off their count", () => {
    // 800 lookups in 60 s counted 3.3 G; idle, the process runs 5 M instructions a second.
    expect(netPerLookup(3_300_000_000, 800, 60, 5_000_000)).toEqual({
      perLookup: 3_750_000,
      idlePerSecond: 5_000_000,
      grossPerLookup: 4_125_000,
    });
  });
});
