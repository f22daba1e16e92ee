import { BadRequestException } from '@nestjs/common';
import {
  filterAnswer,
  INTERNAL_FAILURES,
  itAnswersEachDatabaseFailure,
  parserError,
  quietNestLogger,
} from '@tcg/http-service/testing';
import { V1ExceptionFilter } from './v1-exception.filter';

const answer = (exception: unknown) => filterAnswer(new V1ExceptionFilter(), exception);

describe('V1ExceptionFilter', () => {
  quietNestLogger();

  itAnswersEachDatabaseFailure(
    '503 SERVICE_UNAVAILABLE with Retry-After, without the driver message',
    answer,
    {
      body: { error: 'The database is unavailable. Retry shortly.', code: 'SERVICE_UNAVAILABLE' },
    },
  );

  it.each([
    ['entity.too.large', 413, 'PAYLOAD_TOO_LARGE', /at most 524288 bytes/],
    ['charset.unsupported', 415, 'INVALID_REQUEST', /Accepted: utf-8/],
    ['encoding.unsupported', 415, 'INVALID_REQUEST', /Content-Encoding/],
    ['request.size.invalid', 400, 'INVALID_REQUEST', /Content-Length/],
  ])('a body the parser refused as %s: %d %s in the v1 shape', (type, status, code, message) => {
    const sent = answer(parserError(status, 'parser message', { type, limit: 524288 }));
    expect(sent.status).toBe(status);
    expect(sent.body).toEqual({ error: expect.stringMatching(message), code });
  });

  it('keeps an HttpException as it is', () => {
    expect(answer(new BadRequestException('bad'))).toMatchObject({
      status: 400,
      body: { code: 'INVALID_REQUEST' },
    });
  });

  it.each<readonly [string, Error]>([
    ...INTERNAL_FAILURES,
    [
      'a server-side parser error in a 5xx http-error',
      parserError(500, 'stream encoding should not be set', { type: 'stream.encoding.set' }),
    ],
  ])('%s: a generic 500 without Retry-After', (_, error) => {
    const sent = answer(error);
    expect(sent).toEqual({
      status: 500,
      headers: {},
      body: { error: 'Internal server error.', code: 'INTERNAL_ERROR' },
    });
  });
});
