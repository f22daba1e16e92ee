import type { Alert, DeliveryAttempt, NewAlert } from '@tcg/domain';

/**
 * The port the alerts' routes use (apps/api-v1's `AlertsService`, through `@Inject(ALERTS)`): a
 * key's alerts, stored; another key's alert is never found. It lives beside its one
 * implementation, `TypeOrmAlertRepository`, as the rest of the capability does (docs/alerts.md).
 */
export interface AlertRepository {
  /** Creates the alert, its rule evaluated at once; undefined when the key has `cap` already. */
  create(alert: NewAlert, cap: number): Promise<Alert | undefined>;
  list(keyId: string): Promise<Alert[]>;
  get(keyId: string, id: string): Promise<Alert | undefined>;
  delete(keyId: string, id: string): Promise<boolean>;
  /** The latest attempts first; undefined when the key has no such alert. */
  attempts(keyId: string, id: string, limit: number): Promise<DeliveryAttempt[] | undefined>;
}

/** The `AlertRepository` bound to the primary: inject with `@Inject(ALERTS)`. */
export const ALERTS = Symbol('AlertRepository');
