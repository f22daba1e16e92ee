import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Every series this project defines starts with it (prom-client's default ones keep theirs). */
export const METRIC_PREFIX = 'tcg_';

/**
 * Seconds; from a cached answer (well under a millisecond) to the gateway's upstream deadline.
 * Thirteen buckets per route × method × status keep a service's series in the low thousands.
 */
export const LATENCY_BUCKETS: readonly number[] = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** The route label of a request no route template matched: one value, whatever the path was. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The methods the API serves; anything else is counted under `other`, so the label stays bounded. */
const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);

/** The method label of a request: its method when the API knows it, else `other`. */
export function methodLabel(method: string | undefined): string {
  return method !== undefined && METHODS.has(method) ? method : 'other';
}

interface RequestSeries {
  readonly count: Counter.Internal;
  readonly duration: Histogram.Internal<string>;
}

/**
 * One process's metrics: its own registry (prom-client's global one would mix in whatever else
 * registers there), prom-client's default process and Node series (event-loop lag included), and
 * the HTTP series every service records, `tcg_http_requests_total` and
 * `tcg_http_request_duration_seconds` by route template, method, API version and status. Each app
 * adds its own series with `counter`, `histogram` and the `…AtScrape` forms, which read a value
 * only when Prometheus asks.
 */
/** A metric's samples when scraped, per label set; undefined for none. */
type Readings<L extends string> = () =>
  readonly { labels: Partial<Record<L, string>>; value: number }[] | undefined;

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<string>;
  private readonly durations: Histogram<string>;
  /** The labelled children by label values: prom-client hashes the labels on every call otherwise. */
  private readonly series = new Map<string, RequestSeries>();

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    const labelNames = ['route', 'method', 'version', 'status'];
    this.requests = this.counter(
      'http_requests_total',
      'HTTP requests answered, by route template.',
      labelNames,
    );
    this.durations = this.histogram(
      'http_request_duration_seconds',
      'Time from a request’s arrival to the end of its answer (or the client going away).',
      labelNames,
    );
  }

  /** Counts one answered request; `route` must be a template (bounded), never a raw path. */
  observeRequest(route: string, method: string, version: string, status: string, seconds: number): void {
    const id = `${route} ${method} ${version} ${status}`;
    let series = this.series.get(id);
    if (series === undefined) {
      const labels = { route, method, version, status };
      series = { count: this.requests.labels(labels), duration: this.durations.labels(labels) };
      this.series.set(id, series);
    }
    series.count.inc();
    series.duration.observe(seconds);
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name: METRIC_PREFIX + name, help, labelNames, registers: [this.registry] });
  }

  histogram<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Histogram<L> {
    return new Histogram({
      name: METRIC_PREFIX + name,
      help,
      labelNames,
      buckets: [...LATENCY_BUCKETS],
      registers: [this.registry],
    });
  }

  /**
   * A gauge read when scraped: `read` gives its value per label set (an empty record for no
   * labels; NaN when unknown), or undefined for no sample at all.
   */
  gaugeAtScrape<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: Readings<L>,
  ): void {
    new Gauge<L>({
      ...this.atScrape(name, help, labelNames),
      collect() {
        this.reset();
        for (const { labels, value } of read() ?? []) this.set(labels, value);
      },
    });
  }

  /**
   * A counter kept by someone else (the response cache counts its own hits), read when scraped;
   * `read` must never go down while the process lives.
   */
  counterAtScrape(name: string, help: string, read: () => number | undefined): void {
    this.countersAtScrape(name, help, [], () => {
      const value = read();
      return value === undefined ? undefined : [{ labels: {}, value }];
    });
  }

  /** `counterAtScrape` per label set; each set's value must never go down while the process lives. */
  countersAtScrape<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: Readings<L>,
  ): void {
    new Counter<L>({
      ...this.atScrape(name, help, labelNames),
      collect() {
        this.reset();
        for (const { labels, value } of read() ?? []) this.inc(labels, value);
      },
    });
  }

  private atScrape<L extends string>(name: string, help: string, labelNames: readonly L[]) {
    return { name: METRIC_PREFIX + name, help, labelNames, registers: [this.registry] };
  }

  /** The registry in Prometheus's text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
