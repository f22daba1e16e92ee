import { QueryFailedError } from 'typeorm';
import { databaseUnavailable } from './data-source';

const withCode = (code: string, message = 'x', extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { code, ...extra });

describe('databaseUnavailable', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['connection reset', withCode('ECONNRESET')],
    ['a write to a closed socket', withCode('EPIPE', 'write EPIPE')],
    ['pool wait past its deadline', new Error('timeout exceeded when trying to connect')],
    ['connect past its deadline', new Error('Connection terminated due to connection timeout')],
    ['connection lost mid-query', new Error('Connection terminated unexpectedly')],
    ['client-side query deadline', new Error('Query read timeout')],
    [
      'a client that lost its connection',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['statement_timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['admin shutdown', withCode('57P01', 'terminating connection due to administrator command')],
    ['starting up', withCode('57P03', 'the database system is starting up')],
    ['too many connections', withCode('53300', 'sorry, too many clients already')],
    ['connection failure', withCode('08006')],
    ['idle in transaction timeout', withCode('25P03')],
    ['deadlock', withCode('40P01')],
    ['wrapped by TypeORM', new QueryFailedError('SELECT 1', [], withCode('57014'))],
    ['as a cause', new Error('lookup failed', { cause: new Error('Query read timeout') })],
  ])('%s: yes', (_, error) => {
    expect(databaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['invalid input syntax', withCode('22P02', 'invalid input syntax for type integer')],
    ['unique violation', new QueryFailedError('INSERT', [], withCode('23505'))],
    ['undefined column', withCode('42703')],
    ['not an error', 'Query read timeout'],
    ['nothing', undefined],
  ])('%s: no', (_, error) => {
    expect(databaseUnavailable(error)).toBe(false);
  });
});
