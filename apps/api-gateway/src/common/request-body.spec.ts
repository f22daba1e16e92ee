import { bodyFraming } from './request-body';

const CAP = 1_000;

describe('bodyFraming', () => {
  it.each([
    ['GET', {}, { kind: 'none' }],
    ['GET', { 'content-length': '0' }, { kind: 'none' }],
    ['POST', {}, { kind: 'none' }],
    ['POST', { 'content-length': '0' }, { kind: 'none' }],
    ['POST', { 'content-length': '12' }, { kind: 'body', length: 12 }],
    ['POST', { 'transfer-encoding': 'chunked' }, { kind: 'body', length: undefined }],
  ])('%s %o is %o', (method, headers, expected) => {
    expect(bodyFraming(method, headers, CAP)).toEqual(expected);
  });

  it.each([
    ['GET', { 'content-length': '5' }, 400],
    ['HEAD', { 'content-length': '5' }, 400],
    ['DELETE', { 'transfer-encoding': 'chunked' }, 400],
    ['OPTIONS', { 'transfer-encoding': 'chunked' }, 400],
    ['GET', { 'transfer-encoding': 'chunked', 'content-length': '0' }, 400],
    ['POST', { 'transfer-encoding': 'chunked', 'content-length': '5' }, 400],
    ['POST', { 'transfer-encoding': 'gzip, chunked' }, 400],
    ['POST', { 'content-length': '-1' }, 400],
    ['POST', { 'content-length': '5, 5' }, 400],
    ['POST', { 'content-length': String(CAP + 1) }, 413],
  ])('refuses %s %o with %d', (method, headers, status) => {
    expect(bodyFraming(method, headers, CAP)).toMatchObject({ status });
  });
});
