import { join } from 'node:path';
import { hashApiKey } from '@tcg/domain';
import { itMatchesSqlSnapshots, type SqlCase, statementCase } from '../../testing/sql-snapshot';
import {
  ACTIVE_LEGACY_KEY_HASHES,
  apiKeyByHashStatement,
  apiKeyIdsStatement,
  apiKeysByHashesStatement,
  apiKeysStatement,
  changeApiKeyPlanStatement,
  disableAlertsOfRevokedKeyStatement,
  insertApiKeyStatement,
  revokeApiKeyStatement,
} from './api-key.repository';
import {
  insertLeaseStatement,
  leaseCommitAsyncStatement,
  liveLeasesStatement,
  lockLeasesStatement,
  releaseLeaseStatement,
  renewLeaseStatement,
} from './download-lease.repository';
import {
  consumeQuotaStatement,
  quotaUsedStatement,
  reconcileQuotaStatement,
  sweepQuotaCountersStatement,
  sweepQuotaReconciliationsStatement,
} from './quota-counter.repository';

// The statements of the keys, quotas and leases, for fixed arguments, compared with the files
// under `sql/` (see reads/sql-snapshots.spec.ts). `npm run sql:snapshots` rewrites the files.

const KEY_ID = '3e9a1c52-7b4d-4f8e-9a06-1c2d3e4f5a6b';
const CLEAR_KEY = 'tcg_4Kq7bN2xR9mW3pL8vT5yH6jD1fG0sZ7cA2eU9iO4kM3';
const LEASE_ID = 'b71f0d3e-52c4-4a98-8e16-7f2a3b4c5d6e';
const NOW = new Date('2026-07-01T12:00:30.000Z');
const MINUTE_END = new Date('2026-07-01T12:01:10.000Z');
const DAY_END = new Date('2026-07-02T00:00:10.000Z');
const MONTH_END = new Date('2026-08-01T00:00:10.000Z');

const FILES: Readonly<Record<string, readonly SqlCase[]>> = {
  'api-key.repository': [
    statementCase(
      'create',
      insertApiKeyStatement({
        id: KEY_ID,
        keyHash: hashApiKey(CLEAR_KEY),
        keyPrefix: CLEAR_KEY.slice(0, 12),
        plan: 'starter',
        label: 'shop',
        createdAt: NOW,
        legacy: false,
      }),
    ),
    statementCase('find by hash (the gateway, ensure)', apiKeyByHashStatement(hashApiKey(CLEAR_KEY))),
    statementCase(
      'find by hashes (the gateway, refreshing the keys it holds)',
      apiKeysByHashesStatement([hashApiKey(CLEAR_KEY), hashApiKey(`${CLEAR_KEY}2`)]),
    ),
    statementCase('active legacy key hashes (the gateway, every minute)', ACTIVE_LEGACY_KEY_HASHES),
    statementCase('list', apiKeysStatement()),
    statementCase('resolve an id', apiKeyIdsStatement(KEY_ID)),
    statementCase('resolve a displayed prefix', apiKeyIdsStatement(CLEAR_KEY.slice(0, 12))),
    statementCase('revoke: the key', revokeApiKeyStatement(KEY_ID, NOW)),
    statementCase('revoke: its alerts disabled', disableAlertsOfRevokedKeyStatement(KEY_ID)),
    statementCase('change plan (ensure, changePlan)', changeApiKeyPlanStatement(KEY_ID, 'professional')),
  ],
  'quota-counter.repository': [
    statementCase(
      'consume (a request, without Redis)',
      consumeQuotaStatement(
        KEY_ID,
        ['m:29715120', 'd:20260701', 'M:202607'],
        [60, 10_000, 100_000],
        [MINUTE_END, DAY_END, MONTH_END],
        1,
        NOW,
      ),
    ),
    statementCase(
      'reconcile',
      reconcileQuotaStatement(
        ['batch-1', 'batch-2'],
        [KEY_ID, KEY_ID],
        ['d:20260701', 'M:202607'],
        [12, 12],
        [DAY_END, MONTH_END],
      ),
    ),
    statementCase('used', quotaUsedStatement(KEY_ID, 'd:20260701')),
    statementCase('sweep: counters', sweepQuotaCountersStatement(NOW)),
    statementCase('sweep: reconciliation marks', sweepQuotaReconciliationsStatement(NOW)),
  ],
  'download-lease.repository': [
    statementCase('take: commit without waiting for the flush', leaseCommitAsyncStatement()),
    statementCase('take: the key lock', lockLeasesStatement(`downloads:${KEY_ID}`)),
    statementCase('take: live leases', liveLeasesStatement(`downloads:${KEY_ID}`, NOW)),
    statementCase('take: the lease', insertLeaseStatement(`downloads:${KEY_ID}`, LEASE_ID, MINUTE_END)),
    statementCase('renew', renewLeaseStatement(`downloads:${KEY_ID}`, LEASE_ID, MINUTE_END)),
    statementCase('release', releaseLeaseStatement(`downloads:${KEY_ID}`, LEASE_ID)),
  ],
};

describe('SQL of the keys, quotas and leases', () => {
  itMatchesSqlSnapshots(join(__dirname, 'sql'), FILES);
});
