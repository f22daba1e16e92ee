import { choice, ParsedBy, QUERY_LIMITS, requestSchema, required, text } from '@tcg/http-service';

/**
 * GET /v1/sets (docs/spec/interface.md): `game` required; `orderBy` name (default) or
 * release_date; `order` desc (default) or asc. Unknown parameters are ignored, as on /v1/cards.
 */
export const SETS_QUERY = requestSchema(
  {
    game: required(
      text({
        description: 'Game ID or, case-insensitively, its display name.',
        example: 'magic-the-gathering',
      }),
      "'game' is required: a game id or display name.",
    ),
    q: text({
      maxLength: QUERY_LIMITS.search,
      description: 'Search sets by name (case-insensitive substring).',
      example: 'alpha',
    }),
    orderBy: choice(['name', 'release_date'], { ignoreCase: true, quiet: true, default: 'name' }),
    order: choice(['asc', 'desc'], { ignoreCase: true, quiet: true, default: 'desc' }),
  },
  { unknown: 'ignore' },
);

export type SetsQuery = ParsedBy<typeof SETS_QUERY>;
