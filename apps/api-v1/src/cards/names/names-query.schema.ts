import { invalidParameter } from '@tcg/domain';
import { integer, ParsedBy, requestSchema, required, text } from '@tcg/http-service';

/** Characters of `q`, after trimming: a suggestion is asked for from the second one typed. */
export const NAME_TEXT = { min: 2, max: 64 } as const;
/** Most suggestions one request returns. */
export const MAX_SUGGESTIONS = 20;

/** What was typed, trimmed: 2 to 64 characters, else a 400 naming `q`. */
function typedText(value: string, name: string): string {
  const trimmed = value.trim();
  if ([...trimmed].length < NAME_TEXT.min)
    throw invalidParameter(
      name,
      value,
      `the start of a card name, ${NAME_TEXT.min} to ${NAME_TEXT.max} characters besides surrounding spaces`,
    );
  return trimmed;
}

/**
 * GET /v1/cards/autocomplete: `q` required, `game` optional, `limit` 1 to 20. Unknown parameters
 * are ignored, as on /v1/cards.
 */
export const NAMES_QUERY = requestSchema(
  {
    q: required(
      text({
        maxLength: NAME_TEXT.max,
        schema: { type: 'string', minLength: NAME_TEXT.min, maxLength: NAME_TEXT.max },
        parse: typedText,
        description: `The start of a card name as typed, ${NAME_TEXT.min} to ${NAME_TEXT.max} characters, case-insensitive. A word of the name may start with it (\`bol\` finds Lightning Bolt); a name close to it is suggested too (\`lightnin blot\`).`,
        example: 'bol',
      }),
      `'q' is required: the start of a card name, ${NAME_TEXT.min} to ${NAME_TEXT.max} characters.`,
    ),
    game: text({
      description: "Game ID or, case-insensitively, its display name: that game's names only.",
      example: 'magic-the-gathering',
    }),
    limit: integer({
      minimum: 1,
      maximum: MAX_SUGGESTIONS,
      default: MAX_SUGGESTIONS,
      description: `Most names returned, 1 to ${MAX_SUGGESTIONS}.`,
    }),
  },
  { unknown: 'ignore' },
);

export type NamesQuery = ParsedBy<typeof NAMES_QUERY>;
