import { bodyRefusal } from './request-body-error';

/** An error of the shape Express's body parser (`http-errors`) passes on. */
function parserError(status: number, fields: Record<string, unknown>): Error {
  return Object.assign(new Error('parser message'), { status, statusCode: status, expose: true }, fields);
}

describe('bodyRefusal', () => {
  it.each([
    ['entity.too.large', 413, 413, 'PAYLOAD_TOO_LARGE', /at most 524288 bytes/],
    ['parameters.too.many', 413, 413, 'PAYLOAD_TOO_LARGE', /too many parameters/],
    ['entity.parse.failed', 400, 400, 'INVALID_REQUEST', /not valid JSON/],
    ['charset.unsupported', 415, 415, 'INVALID_REQUEST', /Accepted: utf-8/],
    ['encoding.unsupported', 415, 415, 'INVALID_REQUEST', /Content-Encoding/],
    ['request.size.invalid', 400, 400, 'INVALID_REQUEST', /Content-Length/],
    ['request.aborted', 400, 400, 'INVALID_REQUEST', /could not be read/],
  ])('%s (%d) is a %d %s naming what is accepted', (type, status, answered, code, message) => {
    const refusal = bodyRefusal(parserError(status, { type, limit: 524288 }));
    expect(refusal).toEqual({ status: answered, code, message: expect.stringMatching(message) });
    expect(refusal?.message).not.toContain('parser message');
  });

  it.each([
    ['a plain error', new Error('boom')],
    ['a server-side parser error', parserError(500, { type: 'stream.encoding.set' })],
    ['no error object', 'entity.too.large'],
    ['null', null],
  ])('leaves %s to the filter', (_, error) => {
    expect(bodyRefusal(error)).toBeUndefined();
  });
});
