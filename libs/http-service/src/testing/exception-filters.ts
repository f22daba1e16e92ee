import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';

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
