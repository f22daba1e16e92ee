import { BinaryCopyRows } from './binary-copy';

/** The payload's bytes after the 19-byte header, without the 2-byte trailer. */
function body(rows: BinaryCopyRows): Buffer {
  const all = rows.finish();
  return all.subarray(19, all.length - 2);
}

describe('BinaryCopyRows.int4Array', () => {
  it('writes each element as a 4-byte length and the value big-endian, negatives in two’s complement', () => {
    const values = [0, 1, 255, 256, 65_536, -1, -2_147_483_648, 2_147_483_647, 1_234_567];
    const expected = Buffer.alloc(4 + 20 + 8 * values.length);
    expected.writeInt32BE(20 + 8 * values.length, 0);
    [1, 0, 23, values.length, 1].forEach((w, i) => expected.writeInt32BE(w, 4 + 4 * i));
    values.forEach((v, i) => {
      expected.writeInt32BE(4, 24 + 8 * i);
      expected.writeInt32BE(v, 28 + 8 * i);
    });
    expect(body(new BinaryCopyRows().int4Array(values))).toEqual(expected);
  });

  it('grows its buffer past the first MiB', () => {
    const values = Array.from({ length: 200_000 }, (_, i) => i * 7 - 500_000);
    const out = body(new BinaryCopyRows().int4Array(values));
    expect(out.length).toBe(4 + 20 + 8 * values.length);
    expect(out.readInt32BE(24 + 8 * 199_999 + 4)).toBe(199_999 * 7 - 500_000);
  });

  it.each([2_147_483_648, -2_147_483_649, 1.5, NaN])('refuses %p, which int4 cannot hold', (v) => {
    expect(() => new BinaryCopyRows().int4Array([1, v])).toThrow(RangeError);
  });
});
