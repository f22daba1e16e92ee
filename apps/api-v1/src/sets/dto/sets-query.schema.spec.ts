import { refusalOf } from '@tcg/http-service/testing';
import { QUERY_LIMITS } from '@tcg/http-service';
import { SETS_QUERY } from './sets-query.schema';

const refusal = (raw: Record<string, unknown>) => refusalOf(() => SETS_QUERY.parse(raw));

describe('SETS_QUERY', () => {
  it.each<[Record<string, unknown>, object]>([
    [{ game: 'test-game' }, { game: 'test-game', q: undefined, orderBy: 'name', order: 'desc' }],
    [
      { game: ' Test Game ', q: ' wave ', orderBy: 'RELEASE_DATE', order: 'Asc', foo: 'bar' },
      { game: 'Test Game', q: 'wave', orderBy: 'release_date', order: 'asc' },
    ],
    [
      { game: 'g', q: '' },
      { game: 'g', q: undefined, orderBy: 'name', order: 'desc' },
    ],
    [
      { game: 'g', q: ['a', 'b'] },
      { game: 'g', q: 'a,b', orderBy: 'name', order: 'desc' },
    ],
  ])('reads %j as %j', (raw, parsed) => {
    expect(SETS_QUERY.parse(raw)).toEqual(parsed);
  });

  it.each<[Record<string, unknown>, string, string | RegExp]>([
    [{}, 'game', "'game' is required: a game id or display name."],
    [{ game: '  ' }, 'game', "'game' is required: a game id or display name."],
    [{ game: 'g'.repeat(QUERY_LIMITS.value + 1) }, 'game', /at most 256 characters/],
    [{ game: 'g', q: 'q'.repeat(QUERY_LIMITS.search + 1) }, 'q', /at most 200 characters/],
    [{ game: 'g', q: Array<string>(QUERY_LIMITS.repeats + 1).fill('q') }, 'q', /at most 16 times/],
    [
      { game: 'g', orderBy: 'price' },
      'orderBy',
      "Invalid value for 'orderBy'. Accepted: name, release_date.",
    ],
    [{ game: 'g', order: 'up' }, 'order', "Invalid value for 'order'. Accepted: asc, desc."],
  ])('refuses %j naming %s', (raw, parameter, message) => {
    const error = refusal(raw);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', parameter, status: 400 });
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  it('documents game as required and the others with their defaults', () => {
    expect(SETS_QUERY.names).toEqual(['game', 'q', 'orderBy', 'order']);
    const { game, q, orderBy, order } = SETS_QUERY.params;
    expect(game.doc).toMatchObject({
      required: true,
      schema: { type: 'string', maxLength: QUERY_LIMITS.value },
    });
    expect(q.doc.schema).toEqual({ type: 'string', maxLength: QUERY_LIMITS.search });
    expect(orderBy.doc.schema).toEqual({ type: 'string', enum: ['name', 'release_date'], default: 'name' });
    expect(order.doc.schema).toEqual({ type: 'string', enum: ['asc', 'desc'], default: 'desc' });
  });
});
