import { Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';

/** What an exception filter sent: the status, the media type it set (if any), headers, body. */
export interface SentAnswer {
  status: number;
  type?: string;
  headers: Record<string, string>;
  body: unknown;
}

/** What `filter` answers to `exception`, through a stand-in for Express's response. */
export function filterAnswer(filter: ExceptionFilter, exception: unknown): SentAnswer {
  const sent: SentAnswer = { status: 0, headers: {}, body: undefined };
  const res = {
    setHeader: (name: string, value: string) => (sent.headers[name.toLowerCase()] = value),
    status: (s: number) => ((sent.status = s), res),
    type: (t: string) => ((sent.type = t), res),
    json: (b: unknown) => ((sent.body = b), res),
  };
  const host = { switchToHttp: () => ({ getResponse: () => res }) } as unknown as ArgumentsHost;
  filter.catch(exception, host);
  return sent;
}

/** What Express's body parser passes on (an `http-errors` object). */
export const parserError = (status: number, message: string, fields: Record<string, unknown>): Error =>
  Object.assign(new Error(message), { status, statusCode: status, expose: status < 500, ...fields });

/** A driver error with a PostgreSQL SQLSTATE. */
export const sqlState = (code: string, message: string): Error =>
  Object.assign(new Error(message), { code, severity: 'ERROR' });

/**
 * A filter spec's hooks: Nest's logger quiet during the suite (a filter logs every 5xx it maps),
 * its real methods back after.
 */
export function quietNestLogger(): void {
  beforeAll(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterAll(() => jest.restoreAllMocks());
}

/** What a driver throws when the database is away, slow or refusing: each must be a 503. */
export const DATABASE_UNAVAILABLE: readonly (readonly [string, Error])[] = [
  ['a pool wait past its deadline', new Error('timeout exceeded when trying to connect')],
  ['a query the server never answered', new Error('Query read timeout')],
  ['a cancelled statement', new QueryFailedError('SELECT 1', [], sqlState('57014', 'canceling statement'))],
  [
    'a refused connection',
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  ],
  ['too many connections', sqlState('53300', 'sorry, too many clients already')],
  ['an administrator shutdown', sqlState('57P01', 'terminating connection due to administrator command')],
];

/**
 * One test per DATABASE_UNAVAILABLE case, named `%s: ${title}`: `answer` makes it a 503 with
 * Retry-After, of media type `type` (undefined: none set) and exactly `body`, so the driver's
 * message goes nowhere.
 */
export function itAnswersEachDatabaseFailure(
  title: string,
  answer: (exception: unknown) => SentAnswer,
  expected: { type?: string; body: unknown },
): void {
  it.each(DATABASE_UNAVAILABLE)(`%s: ${title}`, (_, error) => {
    const sent = answer(error);
    expect(sent.status).toBe(503);
    expect(sent.type).toBe(expected.type);
    expect(Number(sent.headers['retry-after'])).toBeGreaterThan(0);
    expect(sent.body).toEqual(expected.body);
  });
}

/** Failures that are the service's own (a bug, a constraint it broke): each must be a generic 500. */
export const INTERNAL_FAILURES: readonly (readonly [string, Error])[] = [
  ['a bug', new TypeError("Cannot read properties of undefined (reading 'uuid')")],
  ['a constraint violation', new QueryFailedError('INSERT', [], sqlState('23505', 'duplicate key value'))],
];
