import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ALERT_RULES,
  type Alert,
  type AlertRule,
  type DeliveryAttempt,
  isPriceRule,
  minorUnitsPerMajor,
  toMajor,
} from '@tcg/domain';
import { UsageMetadataDto } from '../../common/decorators/usage.decorator';

/** A price alert as `GET /v1/alerts/{id}` shows it. */
export class AlertDto {
  @ApiProperty({ format: 'uuid', example: '6f1c2a7e-5d8b-4c3f-9a0e-1b2c3d4e5f60' })
  id!: string;

  @ApiProperty({ description: "The watched card's ID.", example: 'lightning-bolt-lea' })
  card_id!: string;

  @ApiProperty({ example: 'Lightning Bolt' })
  card_name!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The watched variant's ID; null: the card's highest-priced raw variant.",
    example: null,
  })
  variant_id!: string | null;

  @ApiProperty({ description: 'The market whose price is watched.', example: 'US' })
  region!: string;

  @ApiProperty({ description: "The market's currency (ISO 4217).", example: 'USD' })
  currency!: string;

  @ApiProperty({ enum: ALERT_RULES, example: 'price_above' })
  rule!: AlertRule;

  @ApiProperty({
    description: 'The threshold: an amount in `currency` for a price rule, a percent for a change rule.',
    example: 450,
  })
  value!: number;

  @ApiProperty({ description: 'Where events are POSTed.', example: 'https://hooks.example.com/tcg' })
  url!: string;

  @ApiProperty({
    enum: ['active', 'disabled'],
    description: '`disabled`: its deliveries failed for 24 h (see `disabled_reason`); it sends nothing more.',
  })
  status!: 'active' | 'disabled';

  @ApiProperty({
    description:
      'Whether the rule held at the last evaluation. An alert fires when this turns true, once; it fires again only after it has turned false.',
    example: false,
  })
  holds!: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  last_fired_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  disabled_at!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: null })
  disabled_reason!: string | null;
}

/** The alert just created, with its signing secret: shown this once. */
export class CreatedAlertDto extends AlertDto {
  @ApiProperty({
    description:
      'The Standard Webhooks signing secret (`whsec_` and base64): verify `webhook-signature` with it. Shown only in this answer.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;
}

export class AlertResponseDto {
  @ApiProperty({ type: () => AlertDto })
  data!: AlertDto;

  @ApiProperty({ type: () => UsageMetadataDto })
  _metadata!: UsageMetadataDto;
}

export class CreatedAlertResponseDto {
  @ApiProperty({ type: () => CreatedAlertDto })
  data!: CreatedAlertDto;

  @ApiProperty({ type: () => UsageMetadataDto })
  _metadata!: UsageMetadataDto;
}

export class AlertListResponseDto {
  @ApiProperty({ type: () => [AlertDto], description: "The key's alerts, oldest first." })
  data!: AlertDto[];

  @ApiProperty({ type: () => UsageMetadataDto })
  _metadata!: UsageMetadataDto;
}

/** One attempt to deliver an event. */
export class DeliveryAttemptDto {
  @ApiProperty({ description: 'The event (its `webhook-id`; every attempt of it carries the same).' })
  event_id!: string;

  @ApiProperty({ type: 'integer', description: "The attempt's number for this event, from 1.", example: 1 })
  attempt!: number;

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: "The receiver's HTTP status; null when none came.",
    example: 200,
  })
  status!: number | null;

  @ApiProperty({ type: 'integer', description: 'Milliseconds from the attempt to its outcome.', example: 84 })
  duration_ms!: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Why it failed: `no_response` (no HTTP status came: no connection, a reset, TLS, or no answer in time), ' +
      '`destination_refused` (the host resolved to a refused address, or to none: nothing sent), ' +
      '`redirect_not_followed`, `http_<status>`, `internal_error`; null when delivered.',
    example: null,
  })
  error!: string | null;
}

export class DeliveryAttemptsResponseDto {
  @ApiProperty({ type: () => [DeliveryAttemptDto], description: 'The last 50 attempts, latest first.' })
  data!: DeliveryAttemptDto[];

  @ApiProperty({ type: () => UsageMetadataDto })
  _metadata!: UsageMetadataDto;
}

/** The threshold as the client wrote it: a price in major units, or a percent. */
export function thresholdValue(rule: AlertRule, threshold: number, currency: string): number {
  return isPriceRule(rule) ? toMajor(threshold, minorUnitsPerMajor(currency)) : threshold;
}

export function toAlertDto(a: Alert): AlertDto {
  return {
    id: a.id,
    card_id: a.cardId,
    card_name: a.cardName,
    variant_id: a.variantId,
    region: a.market,
    currency: a.currency,
    rule: a.rule,
    value: thresholdValue(a.rule, a.threshold, a.currency),
    url: a.url,
    status: a.disabledAt ? 'disabled' : 'active',
    holds: a.holds,
    created_at: a.createdAt.toISOString(),
    last_fired_at: a.lastFiredAt?.toISOString() ?? null,
    disabled_at: a.disabledAt?.toISOString() ?? null,
    disabled_reason: a.disabledReason,
  };
}

export function toDeliveryAttemptDto(d: DeliveryAttempt): DeliveryAttemptDto {
  return {
    event_id: d.eventId,
    attempt: d.attempt,
    at: d.at.toISOString(),
    status: d.status,
    duration_ms: d.durationMs,
    error: d.error,
  };
}
