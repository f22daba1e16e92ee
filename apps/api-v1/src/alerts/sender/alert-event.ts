import { minorUnitsPerMajor, roundPct, toMajor } from '@tcg/domain';
import type { FiredAlert } from '@tcg/persistence';
import { thresholdValue } from '../dto/alert.dto';

/** The event type of an alert whose rule became true. */
export const ALERT_TRIGGERED = 'price_alert.triggered';

/**
 * The body POSTed when an alert fires, in the Standard Webhooks envelope (`type`, `timestamp`,
 * `data`); written once, when it fires, so every attempt sends the same bytes under one id.
 */
export function alertEventBody(fired: FiredAlert, at: Date): string {
  const perMajor = minorUnitsPerMajor(fired.currency);
  return JSON.stringify({
    type: ALERT_TRIGGERED,
    timestamp: at.toISOString(),
    data: {
      alert_id: fired.alertId,
      card_id: fired.cardId,
      card_name: fired.cardName,
      variant_id: fired.variantId,
      region: fired.market,
      currency: fired.currency,
      rule: fired.rule,
      value: thresholdValue(fired.rule, fired.threshold, fired.currency),
      price: fired.price === null ? null : toMajor(fired.price, perMajor),
      change_24h_pct: roundPct(fired.change24h),
      change_7d_pct: roundPct(fired.change7d),
    },
  });
}
