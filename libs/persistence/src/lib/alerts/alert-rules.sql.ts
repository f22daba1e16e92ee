import { ALERT_RULES, type AlertRule } from '@tcg/domain';
import { sql } from 'kysely';

/**
 * The price an alert watches and whether its rule holds on it, as SQL over `alerts a`: a variant
 * alert reads its variant's price in its region; a card alert the card's highest-priced raw
 * variant there (`card_tops`, the price cards are sorted by). No price: the rule does not hold.
 */
export const WATCHED_PRICE_JOINS = sql`
  LEFT JOIN variant_prices vp ON vp.variant_uuid = a.variant_uuid AND vp.region = a.region
  LEFT JOIN card_tops t ON a.variant_uuid IS NULL AND t.card_uuid = a.card_uuid AND t.region = a.region AND t.scope = 'raw'`;

export const WATCHED = {
  price: sql`COALESCE(vp.price, t.price)`,
  change24h: sql`COALESCE(vp.change_24h, t.change_24h)`,
  change7d: sql`COALESCE(vp.change_7d, t.change_7d)`,
} as const;

/** The rule on the watched price (`threshold`: minor units, or a percent either way). */
export const RULE_HOLDS = sql<boolean>`COALESCE(CASE a.rule
    WHEN 'price_above' THEN ${WATCHED.price} > a.threshold
    WHEN 'price_below' THEN ${WATCHED.price} < a.threshold
    WHEN 'change_24h' THEN abs(${WATCHED.change24h}) > a.threshold
    WHEN 'change_7d' THEN abs(${WATCHED.change7d}) > a.threshold
  END, false)`;

/** An `alerts.rule` as read, as its type: the column's CHECK allows no other value. */
export function ruleOf(text: string): AlertRule {
  const rule = ALERT_RULES.find((r) => r === text);
  if (rule === undefined) throw new TypeError(`alerts: unknown rule ${JSON.stringify(text)}`);
  return rule;
}
