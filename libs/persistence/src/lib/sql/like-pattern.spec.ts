import fc from 'fast-check';
import { escapeLike } from './like-pattern';

/**
 * PostgreSQL's LIKE, slowly and obviously: `%` any run of characters, `_` one character (a code
 * point), `\` takes the next character as itself.
 */
function like(value: string, pattern: string): boolean {
  let source = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') source += escapeRegExp(chars[++i] ?? '');
    else if (c === '%') source += '.*';
    else if (c === '_') source += '.';
    else source += escapeRegExp(c);
  }
  return new RegExp(`^${source}$`, 'su').test(value);
}

const escapeRegExp = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Texts made mostly of the characters LIKE treats specially, and some that are not. */
const text = fc.string({ unit: fc.constantFrom('%', '_', '\\', 'a', 'B', 'é', '日', '🃏', ' ') });

describe('escapeLike', () => {
  it.each([
    ['', ''],
    ['bolt', 'bolt'],
    ['100%', '100\\%'],
    ['a_b', 'a\\_b'],
    ['back\\slash', 'back\\\\slash'],
    ['%_\\', '\\%\\_\\\\'],
    ['\\%', '\\\\\\%'],
    ['Æther Vial', 'Æther Vial'],
    ['ポケモン_%', 'ポケモン\\_\\%'],
    ['🃏%', '🃏\\%'],
  ])('%j → %j', (input, escaped) => {
    expect(escapeLike(input)).toBe(escaped);
  });

  it('matches exactly the text it was made from', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(like(b, escapeLike(a))).toBe(a === b);
      }),
    );
  });

  it('as a substring pattern, matches exactly the values that contain the text', () => {
    fc.assert(
      fc.property(text, text, text, (a, before, after) => {
        const value = before + after;
        expect(like(value, `%${escapeLike(a)}%`)).toBe(value.includes(a));
        expect(like(before + a + after, `%${escapeLike(a)}%`)).toBe(true);
      }),
    );
  });

  it('as a prefix pattern, matches exactly the values that start with the text', () => {
    fc.assert(
      fc.property(text, text, (a, value) => {
        expect(like(value, `${escapeLike(a)}%`)).toBe(value.startsWith(a));
      }),
    );
  });
});
