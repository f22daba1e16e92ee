export {
  TcgClient,
  V1,
  V1Alerts,
  V1Cards,
  V1Games,
  V1Sets,
  V2,
  V2Cards,
  V2Ids,
  type TcgClientOptions,
} from './client.js';
export {
  TcgAbortError,
  TcgApiError,
  TcgBadRequestError,
  TcgError,
  TcgForbiddenError,
  TcgNetworkError,
  TcgNotFoundError,
  TcgRateLimitError,
  TcgResponseTooLargeError,
  TcgServerError,
  TcgTimeoutError,
  TcgUnauthorizedError,
  type TcgApiErrorKind,
} from './errors.js';
export { parseRetryAfter, type RetryPolicy, type Sleep } from './transport.js';
export type * from './types.js';
