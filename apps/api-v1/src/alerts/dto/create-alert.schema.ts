import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ALERT_RULES,
  type AlertRule,
  DomainError,
  invalidParameter,
  isPriceRule,
  minorUnitsPerMajor,
  nulField,
  nulRejected,
  parseRegion,
  type Region,
} from '@tcg/domain';

/** Longest identifier and URL accepted (the same caps as the query parameters'). */
export const MAX_IDENTIFIER = 200;
export const MAX_URL = 2048;
/** Highest price threshold, in major units, and highest percent. */
const MAX_PRICE = 1_000_000_000;
const MAX_PERCENT = 100_000;

const FIELDS = ['card_id', 'variant_id', 'region', 'rule', 'value', 'url'] as const;

/** The body of `POST /v1/alerts`, for the OpenAPI document. */
export class CreateAlertDto {
  @ApiPropertyOptional({
    maxLength: MAX_IDENTIFIER,
    description:
      'The card to watch (ID or UUID): its highest-priced raw variant, the price cards are sorted by. Give this or `variant_id`.',
    example: 'lightning-bolt-lea',
  })
  card_id?: string;

  @ApiPropertyOptional({
    maxLength: MAX_IDENTIFIER,
    description: 'The one variant to watch (ID or UUID). Give this or `card_id`.',
  })
  variant_id?: string;

  @ApiPropertyOptional({
    description: 'The market (v2 region code or ISO 3166-1 country), default `US`.',
    example: 'US',
  })
  region?: string;

  @ApiProperty({
    enum: ALERT_RULES,
    description:
      '`price_above`/`price_below`: the price goes above/below `value`; `change_24h`/`change_7d`: it moves by more than `value` percent over 24 hours/7 days, up or down.',
  })
  rule!: AlertRule;

  @ApiProperty({
    description: "A positive amount in the market's currency (price rules), or a percent (change rules).",
    example: 450,
  })
  value!: number;

  @ApiProperty({
    maxLength: MAX_URL,
    description:
      'Where events are POSTed: `https` on a public address (checked again at each delivery; redirects are not followed).',
    example: 'https://hooks.example.com/tcg',
  })
  url!: string;
}

export interface AlertRequest {
  readonly by: 'cardId' | 'variantId';
  readonly identifier: string;
  readonly region: Region;
  readonly rule: AlertRule;
  /** Minor units for a price rule, a percent for a change rule. */
  readonly threshold: number;
  readonly url: string;
}

const text = (body: Record<string, unknown>, name: string, max: number): string | undefined => {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > max)
    throw new DomainError('INVALID_REQUEST', `'${name}' must be a string of 1 to ${max} characters.`, name);
  return value.trim();
};

/**
 * The body of `POST /v1/alerts`, checked field by field: each refusal is a 400 naming the field
 * and what it accepts. Unknown fields are refused (a misspelt `rule` must not pass unseen).
 */
export function parseCreateAlert(body: unknown): AlertRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new DomainError(
      'INVALID_REQUEST',
      `The body must be a JSON object with ${FIELDS.map((f) => `'${f}'`).join(', ')}.`,
      'body',
    );
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown !== undefined) throw invalidParameter('body', unknown.slice(0, 64), FIELDS);
  const nul = nulField(fields);
  if (nul !== undefined) throw nulRejected(nul);

  const cardId = text(fields, 'card_id', MAX_IDENTIFIER);
  const variantId = text(fields, 'variant_id', MAX_IDENTIFIER);
  if ((cardId === undefined) === (variantId === undefined))
    throw new DomainError(
      'INVALID_REQUEST',
      "Give exactly one of 'card_id' (a card's ID or UUID) and 'variant_id' (a variant's ID or UUID).",
      'card_id',
    );

  const regionText = text(fields, 'region', 16) ?? 'US';
  const region = parseRegion(regionText);
  if (!region)
    throw invalidParameter(
      'region',
      regionText,
      'a v2 market code (NA, EU, UK, JP, OCE, LATAM, OTHER) or an ISO 3166-1 country code',
    );

  const ruleText = text(fields, 'rule', 32);
  if (ruleText === undefined || !(ALERT_RULES as readonly string[]).includes(ruleText))
    throw invalidParameter('rule', String(ruleText ?? ''), ALERT_RULES);
  const rule = ruleText as AlertRule;

  const value = fields['value'];
  const perMajor = minorUnitsPerMajor(region.currency);
  const price = isPriceRule(rule);
  const max = price ? MAX_PRICE : MAX_PERCENT;
  const threshold =
    typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= max
      ? price
        ? Math.round(value * perMajor)
        : value
      : undefined;
  if (
    threshold === undefined ||
    // A price below the currency's smallest unit would be 0: always above, never below.
    (price && (threshold < 1 || Math.abs(threshold - (value as number) * perMajor) > 1e-6 * perMajor))
  )
    throw invalidParameter(
      'value',
      JSON.stringify(value ?? null).slice(0, 64),
      price
        ? `a number above 0 and at most ${max}, in ${region.currency} with at most ${perMajor === 1 ? 'no' : 'two'} decimals`
        : `a percent above 0 and at most ${max}`,
    );

  const url = text(fields, 'url', MAX_URL);
  if (url === undefined) throw invalidParameter('url', '', `an https URL of at most ${MAX_URL} characters`);
  return {
    by: cardId !== undefined ? 'cardId' : 'variantId',
    identifier: (cardId ?? variantId)!,
    region,
    rule,
    threshold,
    url,
  };
}
