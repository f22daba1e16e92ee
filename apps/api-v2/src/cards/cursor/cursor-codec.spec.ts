import { DomainError } from '@tcg/domain';
import { CursorCodec, MAX_CURSOR_LENGTH } from './cursor-codec';

describe('CursorCodec', () => {
  const codec = new CursorCodec('a-secret-of-sixteen-or-more');
  const position = {
    key: ['test-game-first-edition\u001f0000000007\u001f7', 'f75d8ec4-5929-5811-9f38-f84de27709e5'],
    backward: false,
  };

  it('gives back the position it sealed, for the same query', () => {
    expect(codec.decode(codec.encode(position, 'query-a'), 'query-a')).toEqual(position);
    const back = { ...position, backward: true };
    expect(codec.decode(codec.encode(back, 'query-a'), 'query-a')).toEqual(back);
    const counted = { ...position, total: 38_778 };
    expect(codec.decode(codec.encode(counted, 'query-a'), 'query-a')).toEqual(counted);
  });

  const refused = (cursor: string, fingerprint = 'query-a') => {
    try {
      codec.decode(cursor, fingerprint);
    } catch (error) {
      return error as DomainError;
    }
    throw new Error('accepted');
  };

  it('refuses a cursor replayed with another query', () => {
    const error = refused(codec.encode(position, 'query-a'), 'query-b');
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', parameter: 'cursor' });
    expect(error.message).toMatch(/other filters/);
  });

  it.each([
    ['a flipped payload character', (c: string) => (c[0] === 'e' ? 'f' : 'e') + c.slice(1)],
    ['a flipped signature character', (c: string) => c.slice(0, -1) + (c.endsWith('A') ? 'B' : 'A')],
    ['a truncated cursor', (c: string) => c.slice(0, c.length - 5)],
    ['no signature', (c: string) => c.split('.')[0]!],
    ['an extra part', (c: string) => `${c}.x`],
    ['garbage', () => 'not-a-cursor'],
  ])('refuses %s as altered', (_name, alter) => {
    const error = refused(alter(codec.encode(position, 'query-a')));
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', parameter: 'cursor' });
    expect(error.message).toMatch(/altered/);
  });

  it('refuses a cursor past its cap before reading it, and accepts ours well under it', () => {
    const long = {
      ...position,
      key: ['0.123456789', `${'s'.repeat(100)}\u001f0000000007\u001f7`, position.key[1]!],
    };
    expect(codec.encode({ ...long, total: 38_778 }, 'query-a').length).toBeLessThan(MAX_CURSOR_LENGTH / 2);
    const error = refused(`${'A'.repeat(3000)}.${'B'.repeat(43)}`);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', parameter: 'cursor' });
    expect(error.message).toMatch(/at most 1024 characters/);
  });

  it('refuses a cursor sealed with another secret', () => {
    const other = new CursorCodec('another-secret-sixteen-plus').encode(position, 'query-a');
    expect(refused(other).message).toMatch(/altered/);
  });
});
