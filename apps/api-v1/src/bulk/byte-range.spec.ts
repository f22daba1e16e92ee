import { byteRange } from './byte-range';

const validators = { etag: '"abc"', lastModified: 'Thu, 26 Nov 2026 20:00:00 GMT' };
const range = (header: string | undefined, size = 1000, ifRange?: string) =>
  byteRange(header, ifRange, size, validators);

describe('byteRange', () => {
  it('reads one range in each of its three forms, clamped to the file', () => {
    expect(range('bytes=0-99')).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(range('bytes=500-')).toEqual({ kind: 'partial', start: 500, end: 999 });
    expect(range('bytes=-100')).toEqual({ kind: 'partial', start: 900, end: 999 });
    expect(range('bytes=-5000')).toEqual({ kind: 'partial', start: 0, end: 999 });
    expect(range('bytes=900-5000')).toEqual({ kind: 'partial', start: 900, end: 999 });
    expect(range('BYTES=1-1')).toEqual({ kind: 'partial', start: 1, end: 1 });
  });

  it('is unsatisfiable from the end of the file on, and for an empty suffix', () => {
    expect(range('bytes=1000-')).toEqual({ kind: 'unsatisfiable' });
    expect(range('bytes=1000-2000')).toEqual({ kind: 'unsatisfiable' });
    expect(range('bytes=-0')).toEqual({ kind: 'unsatisfiable' });
    expect(range('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores what it may ignore: several ranges, other units, invalid or malformed sets', () => {
    for (const header of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-2', 'bytes=-', 'bytes=a-b', 'bytes 0-1'])
      expect(range(header)).toEqual({ kind: 'full' });
    expect(range(undefined)).toEqual({ kind: 'full' });
  });

  it('applies the range only when If-Range names the current file', () => {
    expect(range('bytes=10-', 1000, '"abc"')).toEqual({ kind: 'partial', start: 10, end: 999 });
    expect(range('bytes=10-', 1000, validators.lastModified)).toEqual({
      kind: 'partial',
      start: 10,
      end: 999,
    });
    for (const ifRange of ['"old"', 'W/"abc"', 'Thu, 26 Nov 2026 20:00:01 GMT', 'yesterday'])
      expect(range('bytes=10-', 1000, ifRange)).toEqual({ kind: 'full' });
  });
});
