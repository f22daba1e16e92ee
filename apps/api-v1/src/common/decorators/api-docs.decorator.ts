import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorDto } from '../dto/error.dto';

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds until the exhausted window resets.', schema: { type: 'integer' } },
};

/** What each error status means on v1 (docs/spec/interface.md "Codes", docs/spec/decisions.md "Plans, limits and usage"). */
const ERRORS = {
  400: {
    description:
      'INVALID_REQUEST: a malformed request or an unrecognised parameter value, named with what it accepts.',
    example: {
      error:
        "Invalid value 'Klingon' for 'language'. Accepted: English, Japanese, French, German, Spanish, Italian, Chinese (S), Chinese (T), Portuguese, Russian, Korean.",
      code: 'INVALID_REQUEST',
    },
  },
  401: {
    description: 'MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid.',
    example: { error: 'The API key is not valid.', code: 'INVALID_API_KEY' },
  },
  403: {
    description: "FORBIDDEN: the plan does not allow it (a key's alerts are capped per plan).",
    example: {
      error: 'The free plan allows 5 alerts per key; delete one to create another.',
      code: 'FORBIDDEN',
    },
  },
  404: {
    description: "NOT_FOUND: no such resource for this key (another key's alert is not found either).",
    example: { error: 'Alert not found.', code: 'NOT_FOUND' },
  },
  413: {
    description: "PAYLOAD_TOO_LARGE: more items than the plan's batch size (at most 200).",
    example: {
      error: 'At most 100 items per batch on the starter plan; this batch has 150.',
      code: 'PAYLOAD_TOO_LARGE',
    },
  },
  429: {
    description:
      'RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing.',
    example: {
      error: 'The per-minute limit of the starter plan is used up (this request costs 1).',
      code: 'RATE_LIMIT_EXCEEDED',
    },
    headers: RETRY_AFTER,
  },
} as const;

/** The v1 `{ error, code }` responses a route can give, by status. */
export function ApiErrorResponses(...statuses: (keyof typeof ERRORS)[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, type: ErrorDto, ...ERRORS[status] })),
  );
}
