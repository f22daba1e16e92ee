import { Inject, Injectable } from '@nestjs/common';
import { type Alert, DELIVERY_ATTEMPTS_SHOWN, DomainError, isUuid, NotFoundError } from '@tcg/domain';
import type { RenderedCardReads } from '@tcg/rendering';
import type { AlertRepository } from '@tcg/persistence';
import { ALERTS, CARD_READS } from '@tcg/persistence';
import { planOf } from '../common/send-options';
import type { UsageMetadataDto } from '../common/decorators/usage.decorator';
import { Environment } from '../config/environment';
import { checkWebhookUrl, resolvePublicAddresses, type UrlRefusal } from './delivery/address-policy';
import { shownRefusal } from './delivery/shown-outcome';
import { newWebhookSecret } from './delivery/webhook-signature';
import {
  type AlertDto,
  type CreatedAlertDto,
  type DeliveryAttemptDto,
  toAlertDto,
  toDeliveryAttemptDto,
} from './dto/alert.dto';
import { parseCreateAlert } from './dto/create-alert.schema';
import { SecretBox } from './secrets/secret-box';

/** One text for every refusal about the host (docs/alerts.md): no oracle for internal names. */
const refused = (refusal: UrlRefusal) => {
  const r = shownRefusal(refusal);
  return new DomainError('INVALID_REQUEST', `Invalid value for 'url' (rule ${r.rule}): ${r.message}`, 'url');
};

/** A key's price alerts: created, listed, read and deleted for that key only (docs/alerts.md). */
@Injectable()
export class AlertsService {
  private readonly allowPrivate: boolean;

  constructor(
    @Inject(ALERTS) private readonly alerts: AlertRepository,
    @Inject(CARD_READS) private readonly cards: RenderedCardReads,
    private readonly secrets: SecretBox,
    env: Environment,
  ) {
    this.allowPrivate = env.ALERT_PRIVATE_URLS === 'allow';
  }

  /**
   * Checks the body, the URL (its form, then where its host resolves: a public address unless the
   * setting allows private ones) and the watched card or variant, then creates the alert within
   * the plan's cap. The secret is in this answer only.
   */
  async create(body: unknown, keyId: string, usage: UsageMetadataDto): Promise<CreatedAlertDto> {
    const request = parseCreateAlert(body);
    const url = checkWebhookUrl(request.url, this.allowPrivate);
    if (!(url instanceof URL)) throw refused(url);
    const addresses = await resolvePublicAddresses(url.hostname, this.allowPrivate);
    if (!Array.isArray(addresses)) throw refused(addresses);

    const [match] = await this.cards.resolveIdentifiers([
      { ordinal: 0, by: request.by, value: request.identifier },
    ]);
    if (!match) throw new NotFoundError(request.by === 'cardId' ? 'Card' : 'Variant');
    const plan = planOf(usage);
    const secret = newWebhookSecret();
    const alert = await this.alerts.create(
      {
        keyId,
        cardUuid: match.cardUuid,
        variantUuid: request.by === 'variantId' ? match.variantUuid : null,
        market: request.region.code,
        storageRegion: request.region.storageRegion,
        currency: request.region.currency,
        rule: request.rule,
        threshold: request.threshold,
        url: url.href,
        // Sealed at rest; the plain secret is in this answer only.
        secret: this.secrets.seal(secret),
      },
      plan.maxAlerts,
    );
    if (!alert)
      throw new DomainError(
        'FORBIDDEN',
        `The ${usage.apiPlan} plan allows ${plan.maxAlerts} alerts per key; delete one to create another.`,
      );
    return { ...toAlertDto(alert), secret };
  }

  async list(keyId: string): Promise<AlertDto[]> {
    return (await this.alerts.list(keyId)).map(toAlertDto);
  }

  async get(keyId: string, id: string): Promise<AlertDto> {
    return toAlertDto(await this.find(keyId, id));
  }

  async delete(keyId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.alerts.delete(keyId, id))) throw new NotFoundError('Alert');
  }

  async deliveries(keyId: string, id: string): Promise<DeliveryAttemptDto[]> {
    const attempts = isUuid(id) ? await this.alerts.attempts(keyId, id, DELIVERY_ATTEMPTS_SHOWN) : undefined;
    if (!attempts) throw new NotFoundError('Alert');
    return attempts.map(toDeliveryAttemptDto);
  }

  /** The key's alert; a malformed id, another key's alert and a deleted one are all 404. */
  private async find(keyId: string, id: string): Promise<Alert> {
    const alert = isUuid(id) ? await this.alerts.get(keyId, id) : undefined;
    if (!alert) throw new NotFoundError('Alert');
    return alert;
  }
}
