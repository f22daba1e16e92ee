import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath, type HeadersObject } from '@nestjs/swagger';
import { ProblemDetailsDto } from '../dto/problem-details.dto';

/** The media type of every v2 error (RFC 7807). */
export const PROBLEM_JSON = 'application/problem+json';

const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;

/** The usage headers the gateway adds to every v2 response (docs/spec/interface.md, docs/spec/decisions.md). */
export const RATE_LIMIT_HEADERS: HeadersObject = {
  RateLimit: {
    description:
      'Usage of the window closest to exhaustion: `limit=<integer>, remaining=<integer>, reset=<seconds>`.',
    schema: string,
    example: 'limit=60, remaining=59, reset=42',
  },
  'RateLimit-Policy': {
    description: 'All three windows of the plan: per minute, per UTC day, per UTC month.',
    schema: string,
    example: '"minute";q=60;w=60, "day";q=2000;w=86400, "month";q=30000;w=2592000',
  },
  'RateLimit-Limit': { description: 'Limit of the window in `RateLimit`.', schema: integer, example: 60 },
  'RateLimit-Remaining': { description: 'Requests left in that window.', schema: integer, example: 59 },
  'RateLimit-Reset': { description: 'Seconds until that window resets.', schema: integer, example: 42 },
};

/** The paging headers of a browse or search page (docs/spec/interface.md GET /v2/cards). */
export const PAGE_HEADERS: HeadersObject = {
  Link: {
    description:
      'RFC 8288 links with relative references: `rel="next"` while more results exist, `rel="prev"` after the first page; they agree with `meta.cursor`.',
    schema: string,
    example:
      '</v2/cards?set=magic-the-gathering-limited-edition-alpha&cursor=eyJrIjpbIm1hZ2ljIiwiMjMyIl19.c2lnbmF0dXJl>; rel="next"',
  },
  'X-Total-Count': {
    description: '`meta.total`; left out when the total could not be counted in time.',
    schema: integer,
    example: 295,
  },
};

const PROBLEMS = {
  400: {
    description:
      'INVALID_REQUEST: a malformed request, an unknown parameter or an unrecognised value, named with what it accepts.',
    title: 'Invalid request',
    slug: 'invalid-request',
    code: 'INVALID_REQUEST',
    detail: "Invalid value 'yes' for 'graded'. Accepted: exclude, only, include.",
  },
  401: {
    description: 'MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid.',
    title: 'Unauthorized',
    slug: 'invalid-api-key',
    code: 'INVALID_API_KEY',
    detail: 'The API key is not valid.',
  },
  404: {
    description: 'NOT_FOUND: no card has this UUID or slug.',
    title: 'Not found',
    slug: 'not-found',
    code: 'NOT_FOUND',
    detail: "Card 'magic-the-gathering-limited-edition-alpha-black-lotus-uncommon' not found.",
  },
  429: {
    description:
      'RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing.',
    title: 'Too many requests',
    slug: 'rate-limit-exceeded',
    code: 'RATE_LIMIT_EXCEEDED',
    detail: 'The per-minute limit of the starter plan is used up (this request costs 1).',
  },
} as const;

/** The RFC 7807 responses a route can give, by status, as `application/problem+json`. */
export function ApiProblemResponses(
  ...statuses: (keyof typeof PROBLEMS)[]
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDetailsDto),
    ...statuses.map((status) => {
      const { description, title, slug, code, detail } = PROBLEMS[status];
      return ApiResponse({
        status,
        description,
        headers:
          status === 429
            ? {
                'Retry-After': { description: 'Seconds until the exhausted window resets.', schema: integer },
              }
            : undefined,
        content: {
          [PROBLEM_JSON]: {
            schema: { $ref: getSchemaPath(ProblemDetailsDto) },
            example: { type: `https://docs.example.com/errors#${slug}`, title, status, detail, code },
          },
        },
      });
    }),
  );
}
