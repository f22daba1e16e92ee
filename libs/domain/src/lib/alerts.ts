/**
 * Price alerts (docs/alerts.md): a key's watch on one card or variant in one market, delivered by
 * signed webhook when its rule becomes true.
 */

/**
 * `price_above`/`price_below`: the price crosses the threshold (in the market's currency);
 * `change_24h`/`change_7d`: the price moved by more than the threshold's percent, either way.
 */
export const ALERT_RULES = ['price_above', 'price_below', 'change_24h', 'change_7d'] as const;
export type AlertRule = (typeof ALERT_RULES)[number];

export function isPriceRule(rule: AlertRule): boolean {
  return rule === 'price_above' || rule === 'price_below';
}

/** What a key asks to watch, resolved: a card (its highest-priced raw variant) or one variant. */
export interface NewAlert {
  readonly keyId: string;
  readonly cardUuid: string;
  readonly variantUuid: string | null;
  /** The market as the client named it (`US`, `EU`, …). */
  readonly market: string;
  /** Where its prices are stored (`US` and `NA` are one). */
  readonly storageRegion: string;
  readonly currency: string;
  readonly rule: AlertRule;
  /** Minor units for a price rule, a percent for a change rule. */
  readonly threshold: number;
  readonly url: string;
  readonly secret: string;
}

export interface Alert {
  readonly id: string;
  readonly cardId: string;
  readonly cardName: string;
  readonly variantId: string | null;
  readonly market: string;
  readonly currency: string;
  readonly rule: AlertRule;
  readonly threshold: number;
  readonly url: string;
  readonly createdAt: Date;
  /** Whether the rule held at the last evaluation (an alert fires when this turns true). */
  readonly holds: boolean;
  readonly lastFiredAt: Date | null;
  readonly disabledAt: Date | null;
  readonly disabledReason: string | null;
}

/** One attempt to deliver one of an alert's events. */
export interface DeliveryAttempt {
  /** The event's id: the `webhook-id` every attempt of it carries. */
  readonly eventId: string;
  readonly attempt: number;
  readonly at: Date;
  readonly status: number | null;
  readonly durationMs: number;
  readonly error: string | null;
}

/** The attempts `GET /v1/alerts/{id}/deliveries` returns. */
export const DELIVERY_ATTEMPTS_SHOWN = 50;
