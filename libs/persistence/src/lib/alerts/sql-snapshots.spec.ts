import { join } from 'node:path';
import { testAlert } from '../../testing/fixtures';
import {
  itMatchesSqlSnapshots,
  SNAPSHOT_CARD_A,
  SNAPSHOT_VARIANT_A,
  type SqlCase,
  statementCase,
} from '../../testing/sql-snapshot';
import {
  alertSecretsStatement,
  claimDueEventsStatement,
  deferDestinationStatement,
  disableAlertStatement,
  disableUnentitledAlertsStatement,
  evaluationLockStatement,
  evaluationStatement,
  failPendingEventsStatement,
  insertAttemptStatement,
  insertEventsStatement,
  purgeSettledEventsStatement,
  releaseClaimStatement,
  resealSecretsStatement,
  settleEventStatement,
  trimAttemptsStatement,
} from './alert-outbox';
import {
  countKeyAlertsStatement,
  deleteAlertStatement,
  deliveryAttemptsStatement,
  evaluateNewAlertStatement,
  getAlertStatement,
  insertAlertStatement,
  listAlertsStatement,
  lockKeyAlertsStatement,
} from './alert.repository';

// The statements the alerts send, for fixed arguments, compared with the files under `sql/` (see
// reads/sql-snapshots.spec.ts). `npm run sql:snapshots` rewrites the files.

const KEY = '00000000-0000-4000-8000-00000000000a';
const ALERT = '5f1d7c2a-3b4e-4c6d-8e9f-0a1b2c3d4e5f';
const OTHER_ALERT = '6a2e8d3b-4c5f-4d7e-9f0a-1b2c3d4e5f60';
const EVENT = '7b3f9e4c-5d60-4e8f-a01b-2c3d4e5f6071';
const OTHER_EVENT = '8c40af5d-6e71-4f90-b12c-3d4e5f607182';
const AT = new Date('2026-07-01T12:00:00.000Z');
const CLAIMED = { id: EVENT, alertId: ALERT, attempt: 2 };

const NEW_ALERT = testAlert({
  keyId: KEY,
  cardUuid: SNAPSHOT_CARD_A,
  variantUuid: SNAPSHOT_VARIANT_A,
  secret: 'v1.sealed-secret',
});

const FILES: Readonly<Record<string, readonly SqlCase[]>> = {
  'alert.repository': [
    statementCase('create: the key lock', lockKeyAlertsStatement(KEY)),
    statementCase('create: count of the key', countKeyAlertsStatement(KEY)),
    statementCase('create: insert', insertAlertStatement(ALERT, NEW_ALERT)),
    statementCase(
      'create: insert of a card alert',
      insertAlertStatement(ALERT, { ...NEW_ALERT, variantUuid: null }),
    ),
    statementCase('create: whether the rule holds now', evaluateNewAlertStatement(ALERT)),
    statementCase('list', listAlertsStatement(KEY)),
    statementCase('get', getAlertStatement(KEY, ALERT)),
    statementCase('delete', deleteAlertStatement(KEY, ALERT)),
    statementCase('delivery attempts', deliveryAttemptsStatement(ALERT, 50)),
  ],
  'alert-outbox': [
    statementCase('evaluation: the lock', evaluationLockStatement()),
    statementCase('evaluation', evaluationStatement()),
    statementCase(
      'evaluation: events of the fired alerts',
      insertEventsStatement([EVENT, OTHER_EVENT], [ALERT, OTHER_ALERT], ['{"alert":1}', '{"alert":2}']),
    ),
    statementCase('claim', claimDueEventsStatement(32, 30_000, { perKey: 4 })),
    statementCase(
      'claim, lanes skipped',
      claimDueEventsStatement(32, 30_000, { perKey: 4, skipLanes: [`${KEY} hooks.example.com`] }),
    ),
    statementCase('release of a claim', releaseClaimStatement(CLAIMED, AT)),
    statementCase('deferral of a lane', deferDestinationStatement(KEY, 'hooks.example.com', AT)),
    statementCase('record: delivered', settleEventStatement(CLAIMED, true, undefined, false)),
    statementCase('record: due again', settleEventStatement(CLAIMED, false, AT, false)),
    statementCase('record: failed', settleEventStatement(CLAIMED, false, undefined, true)),
    statementCase(
      'record: the attempt',
      insertAttemptStatement(CLAIMED, {
        at: AT,
        ok: false,
        status: 503,
        durationMs: 212,
        error: 'status 503',
      }),
    ),
    statementCase('record: the alert disabled', disableAlertStatement(ALERT, 'deliveries failed for 24 h')),
    statementCase('record: its other events failed', failPendingEventsStatement(ALERT)),
    statementCase('record: the oldest attempts deleted', trimAttemptsStatement(ALERT)),
    statementCase('purge of settled events', purgeSettledEventsStatement()),
    statementCase('reseal: a batch of secrets', alertSecretsStatement(ALERT, 500)),
    statementCase(
      'reseal: the batch written',
      resealSecretsStatement([ALERT, OTHER_ALERT], ['plain-1', 'v0.old'], ['v1.new-1', 'v1.new-2']),
    ),
    statementCase(
      'alerts past their entitlement disabled',
      disableUnentitledAlertsStatement({ free: 5, starter: 50, professional: 500, enterprise: 5_000 }),
    ),
  ],
};

describe('SQL of the alerts', () => {
  itMatchesSqlSnapshots(join(__dirname, 'sql'), FILES);
});
