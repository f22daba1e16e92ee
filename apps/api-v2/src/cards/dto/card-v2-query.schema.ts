import { ParsedBy } from '@tcg/http-service';
import { CARDS_V2_QUERY, CardsV2Query, SHAPE_PARAMETERS, toCardShape } from './cards-v2-query.schema';

/**
 * GET /v2/cards/{id} (docs/spec/interface.md): the parameters that shape one card, declared once
 * with GET /v2/cards' so the two routes cannot read them differently; anything else is a 400.
 */
export const CARD_V2_QUERY = CARDS_V2_QUERY.pick(SHAPE_PARAMETERS);

/** docs/spec/interface.md "GET /v2/cards/{id}" query parameters. */
export const CARD_PARAMETERS = CARD_V2_QUERY.names;

export type CardV2Params = ParsedBy<typeof CARD_V2_QUERY>;

/** What shapes one card: regions, graded scope, include, language and the currency it is also shown in. */
export type CardShape = Pick<CardsV2Query, 'regions' | 'filter' | 'include' | 'currency'>;

/** GET /v2/cards/{id}: the query string, validated, as the read side's terms. */
export function parseCardV2Query(raw: Record<string, unknown>): CardShape {
  return toCardShape(CARD_V2_QUERY.parse(raw), raw);
}
