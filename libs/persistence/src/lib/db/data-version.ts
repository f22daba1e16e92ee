import { DataVersionSource } from '@tcg/domain';
import { sql } from 'kysely';
import { Client, Notification } from 'pg';
import { readChangedCards } from './card-changes';
import { compile, db } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { execute, rowOf, type Connection } from '../sql/run';

/** The channel the DataVersion migration's `next_data_version()` notifies on commit. */
const DATA_VERSION_CHANNEL = 'tcg_data_version';

export interface DataVersionWatcherOptions {
  readonly url: string;
  readonly applicationName?: string;
  /** Opening the connection, and each check of the version, must finish within this. */
  readonly timeoutMs: number;
  /**
   * How often the version is read even without a notification: a connection that died without
   * a word (a partition) is noticed within this plus `timeoutMs`, and the version becomes unknown.
   */
  readonly checkEveryMs?: number;
  /** First wait before reconnecting after a failure; doubles up to `maxRetryMs`. */
  readonly retryMs?: number;
  readonly maxRetryMs?: number;
  readonly onError?: (error: Error) => void;
}

const VERSION = rowSchema('data version', { version: 'string' });

export function dataVersionStatement() {
  return db.selectFrom('data_version').select(sql<string>`version::text`.as('version'));
}

/** Compiled once: a replica's version is read after every read it serves (`ReadReplicas`). */
const DATA_VERSION = compile(dataVersionStatement());

export function listenDataVersionStatement() {
  return sql`LISTEN ${sql.id(DATA_VERSION_CHANNEL)}`;
}

/** Reads the committed version: what a fresh LISTEN, a periodic check and the tests use. */
export async function readDataVersion(connection: Connection): Promise<number> {
  return Number((await rowOf(connection, VERSION, DATA_VERSION)).version);
}

/**
 * The data version, pushed: one dedicated connection LISTENs on `tcg_data_version`, so a commit is
 * known here as soon as PostgreSQL delivers its notification, without a query per request. The
 * version is read after LISTEN (nothing committed in between is missed) and again every
 * `checkEveryMs`. While the connection is down or a check fails, the version is null (unknown):
 * callers must then not serve anything cached. Reconnects with backoff, by itself.
 */
export class DataVersionWatcher implements DataVersionSource {
  private version: number | null = null;
  private client: Client | null = null;
  private readonly listeners = new Set<(version: number | null) => void>();
  private checkTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly firstRetryMs: number;
  private retryMs: number;
  private stopped = false;
  private firstAttempt: Promise<void> | undefined;

  constructor(private readonly options: DataVersionWatcherOptions) {
    this.firstRetryMs = options.retryMs ?? 250;
    this.retryMs = this.firstRetryMs;
  }

  current(): number | null {
    return this.version;
  }

  onChange(listener: (version: number | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Read on the watcher's own connection, the primary's: the log of a version is committed with
   * it, and a request pool that is full must not hold a cache back. Null while disconnected or
   * when the read fails (the watcher's checks notice a dead connection).
   */
  async changedCards(after: number, upTo: number): Promise<ReadonlySet<string> | null> {
    const client = this.client;
    if (client === null || this.version === null) return null;
    return readChangedCards(client, after, upTo).catch(() => null);
  }

  /** Connects; resolves after the first attempt, successful or not (it keeps retrying). */
  start(): Promise<void> {
    this.firstAttempt ??= this.connect();
    return this.firstAttempt;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.checkTimer);
    const client = this.client;
    this.client = null;
    this.set(null);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.options.url,
      application_name: `${this.options.applicationName ?? 'tcg-pricing'} data-version`,
      connectionTimeoutMillis: this.options.timeoutMs,
      query_timeout: this.options.timeoutMs,
      keepAlive: true,
    });
    this.client = client;
    client.on('error', (error) => this.fail(client, error));
    client.on('end', () => this.fail(client, new Error('data version connection ended')));
    client.on('notification', (n: Notification) => this.notified(client, n));
    try {
      await client.connect();
      await execute(client, listenDataVersionStatement());
      const version = await readDataVersion(client);
      if (this.client !== client) return;
      this.retryMs = this.firstRetryMs;
      this.raise(version);
      this.checkTimer = setInterval(() => this.check(client), this.options.checkEveryMs ?? 5000);
      this.checkTimer.unref();
    } catch (error) {
      this.fail(client, error as Error);
    }
  }

  private notified(client: Client, n: Notification): void {
    if (this.client !== client || n.channel !== DATA_VERSION_CHANNEL) return;
    const version = Number(n.payload);
    if (Number.isSafeInteger(version)) this.raise(version);
  }

  private check(client: Client): void {
    readDataVersion(client).then(
      (version) => {
        if (this.client === client) this.raise(version);
      },
      (error: Error) => this.fail(client, error),
    );
  }

  /** The version only moves forward: notifications of one commit may arrive after a later read. */
  private raise(version: number): void {
    if (this.version === null || version > this.version) this.set(version);
  }

  private fail(client: Client, error: Error): void {
    if (this.client !== client) return;
    this.client = null;
    clearInterval(this.checkTimer);
    this.set(null);
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.options.onError?.(error);
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs ?? 5000);
  }

  private set(version: number | null): void {
    if (version === this.version) return;
    this.version = version;
    for (const listener of this.listeners) listener(version);
  }
}
