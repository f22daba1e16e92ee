import {
  filterAnswer,
  INTERNAL_FAILURES,
  itAnswersEachDatabaseFailure,
  parserError,
  quietNestLogger,
} from '@tcg/http-service/testing';
import { Environment } from '../../config/environment';
import { ProblemDetailsFilter } from './problem-details.filter';

const DOCS_URL = 'https://docs.example.com/errors';

const answer = (exception: unknown) =>
  filterAnswer(new ProblemDetailsFilter(Object.assign(new Environment(), { DOCS_URL })), exception);

describe('ProblemDetailsFilter', () => {
  quietNestLogger();

  itAnswersEachDatabaseFailure('a 503 problem with Retry-After, without the driver message', answer, {
    type: 'application/problem+json',
    body: {
      type: `${DOCS_URL}#service-unavailable`,
      title: 'Service unavailable',
      status: 503,
      detail: 'The database is unavailable. Retry shortly.',
      code: 'SERVICE_UNAVAILABLE',
    },
  });

  it.each([
    ['entity.too.large', 413, 'PAYLOAD_TOO_LARGE', 'Payload too large', /at most 524288 bytes/],
    ['charset.unsupported', 415, 'INVALID_REQUEST', 'Unsupported media type', /Accepted: utf-8/],
    ['request.size.invalid', 400, 'INVALID_REQUEST', 'Invalid request', /Content-Length/],
  ])('a body the parser refused as %s: a %d %s problem', (type, status, code, title, detail) => {
    const sent = answer(parserError(status, 'parser message', { type, limit: 524288 }));
    expect(sent.status).toBe(status);
    expect(sent.body).toMatchObject({ status, code, title, detail: expect.stringMatching(detail) });
  });

  it.each(INTERNAL_FAILURES)('%s: a generic 500 problem without Retry-After', (_, error) => {
    const sent = answer(error);
    expect(sent.status).toBe(500);
    expect(sent.headers).toEqual({});
    expect(sent.body).toMatchObject({ code: 'INTERNAL_ERROR', detail: 'An unexpected error occurred.' });
  });
});
