import { Injectable } from '@nestjs/common';
import { ServiceMetrics } from '@tcg/http-service';
import type { Counter, Histogram } from 'prom-client';
import type { KeyLookupResult } from '../access/api-key-cache.service';
import type { Admission } from '../access/access.service';
import { Limits } from '../limits/limits.module';
import type { CutReason, UpstreamFailure } from '../proxy/upstream-client';

/**
 * The gateway's own series, beside the HTTP ones every app has: admission decisions by outcome,
 * units charged, the services' latency and failures as the gateway sees them, the key cache's
 * lookups, and where quotas are counted (a fall back to memory is worth an alert).
 */
@Injectable()
export class GatewayMetrics {
  private readonly admissions: Counter<'outcome'>;
  private readonly admitted: Counter.Internal;
  private readonly charged: Record<string, Counter.Internal>;
  private readonly upstreamDuration: Histogram<'upstream' | 'status'>;
  private readonly upstreamSeries = new Map<string, Histogram.Internal<'upstream' | 'status'>>();
  private readonly upstreamErrors: Counter<'upstream' | 'kind'>;
  private readonly keyLookups: Counter<'result'>;
  private readonly cuts: Counter<'upstream' | 'reason'>;
  private readonly concurrencyRefusals: Counter<'limit'>;
  private readonly badKeyUndelayed: Counter;
  private downloads = 0;
  private badKeysWaiting: () => number = () => 0;

  constructor(metrics: ServiceMetrics, limits: Limits) {
    this.admissions = metrics.counter(
      'gateway_admissions_total',
      'Admission decisions on /v1 and /v2 requests: `admitted`, or the refusal code (401, 429, 503).',
      ['outcome'],
    );
    // The hot path's children made once: prom-client hashes the labels on every call otherwise.
    this.admitted = this.admissions.labels({ outcome: 'admitted' });
    const charged = metrics.counter(
      'gateway_charged_units_total',
      'Quota units charged to admitted requests.',
      ['version'],
    );
    this.charged = { v1: charged.labels({ version: 'v1' }), v2: charged.labels({ version: 'v2' }) };
    this.upstreamDuration = metrics.histogram(
      'upstream_response_duration_seconds',
      'From dispatch to a service (pool wait included) until its response headers.',
      ['upstream', 'status'],
    );
    this.upstreamErrors = metrics.counter(
      'upstream_errors_total',
      'Requests a service did not answer: timeout (504), busy (too many in flight, 503), unavailable (503).',
      ['upstream', 'kind'],
    );
    this.keyLookups = metrics.counter(
      'gateway_api_key_cache_lookups_total',
      'API-key lookups by result: hit, negative_hit (a known invalid key), miss (the database answered), stale, unavailable.',
      ['result'],
    );
    this.cuts = metrics.counter(
      'gateway_responses_cut_total',
      'Responses the gateway cut because of the client: write_idle (took nothing for WRITE_IDLE_TIMEOUT_MS), ' +
        'too_slow (a download below DOWNLOAD_MIN_BYTES_PER_SECOND), max_duration (DOWNLOAD_MAX_DURATION_MS), ' +
        'by upstream (api-v1-downloads: bulk downloads).',
      ['upstream', 'reason'],
    );
    this.concurrencyRefusals = metrics.counter(
      'gateway_concurrency_refusals_total',
      'Requests refused with 429 because their key had its plan’s requests (or downloads) in progress at once.',
      ['limit'],
    );
    this.badKeyUndelayed = metrics.counter(
      'gateway_bad_key_answers_undelayed_total',
      'Answers to a bad key (401, or the 429 of an address blocked for bad keys) sent at once, with ' +
        'Connection: close, because AUTH_FAILURE_MAX_DELAYED answers were already waiting their AUTH_FAILURE_DELAY_MS.',
    );
    metrics.gaugeAtScrape(
      'gateway_bad_key_answers_waiting',
      'Answers to a bad key waiting their AUTH_FAILURE_DELAY_MS.',
      [],
      () => [{ labels: {}, value: this.badKeysWaiting() }],
    );
    metrics.gaugeAtScrape(
      'gateway_downloads_in_progress',
      'Bulk downloads being sent to clients through the download pool.',
      [],
      () => [{ labels: {}, value: this.downloads }],
    );
    metrics.gaugeAtScrape(
      'gateway_quota_store_in_memory',
      '1 while quotas are counted in this process’s memory because the shared store (label) is away.',
      ['store'],
      () => {
        const { store, counting } = limits.status();
        return [{ labels: { store }, value: counting === 'memory' ? 1 : 0 }];
      },
    );
    metrics.gaugeAtScrape(
      'gateway_quota_pending_units',
      'Units admitted from memory during an outage and not yet written back to the shared store.',
      [],
      () => [{ labels: {}, value: limits.quotaStore.pendingUnits }],
    );
  }

  admission(admission: Admission, version: string): void {
    if (admission.admitted) {
      this.admitted.inc();
      this.charged[version]?.inc(admission.cost);
    } else {
      this.admissions.inc({ outcome: admission.code });
    }
  }

  upstreamResponse(upstream: string, status: number, seconds: number): void {
    const id = `${upstream} ${status}`;
    let series = this.upstreamSeries.get(id);
    if (series === undefined) {
      series = this.upstreamDuration.labels({ upstream, status: String(status) });
      this.upstreamSeries.set(id, series);
    }
    series.observe(seconds);
  }

  upstreamFailure(upstream: string, failure: UpstreamFailure): void {
    this.upstreamErrors.inc({ upstream, kind: failure.kind });
  }

  responseCut(upstream: string, reason: CutReason): void {
    this.cuts.inc({ upstream, reason });
  }

  downloadsInProgress(delta: 1 | -1): void {
    this.downloads += delta;
  }

  badKeyAnswerUndelayed(): void {
    this.badKeyUndelayed.inc();
  }

  /** Where the gauge of waiting bad-key answers reads its value at scrape time. */
  badKeyAnswersWaiting(count: () => number): void {
    this.badKeysWaiting = count;
  }

  concurrencyRefusal(limit: 'requests' | 'downloads' | 'mcp'): void {
    this.concurrencyRefusals.inc({ limit });
  }

  keyLookup(result: KeyLookupResult): void {
    this.keyLookups.inc({ result });
  }
}
