import fc from 'fast-check';
import { sql } from 'kysely';
import { and, compile, db, shared } from './compile';

describe('compile', () => {
  it('numbers plain values in the order they appear', () => {
    expect(compile(sql`SELECT ${1}, ${'a'} WHERE ${and([sql`x = ${2}`, sql`y = ${3}`])}`)).toEqual({
      sql: 'SELECT $1, $2 WHERE x = $3 AND y = $4',
      parameters: [1, 'a', 2, 3],
    });
  });

  it('binds a shared value once however often it is interpolated', () => {
    const region = shared('NA');
    expect(compile(sql`SELECT ${7} WHERE a = ${region} AND b = ${region}::text OR c = ${region}`)).toEqual({
      sql: 'SELECT $1 WHERE a = $2 AND b = $2::text OR c = $2',
      parameters: [7, 'NA'],
    });
  });

  it('keeps shared values apart between statements', () => {
    const region = shared('EU');
    const first = compile(sql`${9} ${region}`);
    const second = compile(sql`${region} ${region}`);
    expect(first).toEqual({ sql: '$1 $2', parameters: [9, 'EU'] });
    expect(second).toEqual({ sql: '$1 $1', parameters: ['EU'] });
  });

  it('shares a value inside the query builder too', () => {
    const game = shared('mtg');
    const query = db
      .selectFrom('cards as c')
      .select('c.uuid')
      .where('c.game_id', '=', game)
      .where(sql<boolean>`${game} IS NOT NULL`);
    expect(compile(query)).toEqual({
      sql: 'select "c"."uuid" from "cards" as "c" where "c"."game_id" = $1 and $1 IS NOT NULL',
      parameters: ['mtg'],
    });
  });

  it('has one parameter per distinct value slot, each placeholder naming one of them', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant('shared'), fc.integer()), { minLength: 1, maxLength: 20 }),
        (slots) => {
          const s = shared('S');
          const { sql: text, parameters } = compile(
            sql.join(
              slots.map((v) => (v === 'shared' ? s : sql`${v}`)),
              sql` `,
            ),
          );
          const plain = slots.filter((v) => v !== 'shared');
          const hasShared = slots.includes('shared');
          expect(parameters).toHaveLength(plain.length + (hasShared ? 1 : 0));
          const placeholders = text.split(' ').map((p) => Number(p.slice(1)));
          placeholders.forEach((n, i) =>
            expect(parameters[n - 1]).toBe(slots[i] === 'shared' ? 'S' : slots[i]),
          );
        },
      ),
    );
  });
});
