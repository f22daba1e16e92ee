import { sql } from 'kysely';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { databaseUnavailable, poolOf } from '../db/data-source';
import { readDataVersion } from '../db/data-version';
import { rowSchema } from '../sql/row-schema';
import { rowOf, type Connection } from '../sql/run';

/**
 * Where a repository's reads run. A plain `DataSource` reads from itself; `ReadReplicas` sends
 * each read to a replica that is up to date, else to the primary.
 */
export interface ReadTarget {
  read<T>(run: (ds: DataSource) => Promise<T>): Promise<T>;
}

/** A repository's reads: from a data source itself, or where a `ReadTarget` sends them. */
export type ReadSource = DataSource | ReadTarget;

/** Runs one read on `source` (no wrapper on a plain data source: the hot paths pay nothing). */
export function readOn<T>(source: ReadSource, run: (ds: DataSource) => Promise<T>): Promise<T> {
  return source instanceof DataSource ? run(source) : source.read(run);
}

/**
 * `source` as a `Connection` for statements of `sql/run`: each statement is one read, sent where
 * `source` sends reads (a replica that is up to date, else the primary), on its pool. For a
 * background job's reads; the hot paths use the repositories.
 */
export function readConnection(source: ReadSource): Connection {
  return { query: (config) => readOn(source, (ds) => poolOf(ds).query(config)) };
}

/** What `/health` reports of one replica. */
export interface ReplicaReading {
  /** `host:port/database`, never the credentials. */
  readonly name: string;
  readonly up: boolean;
  /** The data version it had replayed at its last check; null before one succeeded. */
  readonly replayedVersion: number | null;
  /** Whether reads go to it now. */
  readonly eligible: boolean;
  readonly reads: number;
  /** Reads it failed (unreachable, cancelled by recovery) that the primary then answered. */
  readonly failedOver: number;
}

export interface ReadRouting {
  /** The newest data version this service has seen: no read goes to a replica behind it. */
  readonly floor: number | null;
  readonly primaryReads: number;
  readonly replicas: readonly ReplicaReading[];
}

interface Replica {
  readonly name: string;
  readonly ds: DataSource;
  readonly probe: VersionProbe;
  up: boolean;
  /** Another cluster than the primary's (its system identifier differs): never read. */
  foreign: boolean;
  replayed: number | null;
  reads: number;
  failedOver: number;
  checking: boolean;
}

/** Reads a server's data version and the identifier of the cluster it belongs to. */
export interface VersionProbe {
  version(): Promise<number>;
  /** `pg_control_system().system_identifier`: a streaming replica has its primary's. */
  systemIdentifier(): Promise<string>;
  close(): Promise<void>;
}

export interface ReadReplicasOptions {
  /** The data version the primary announces (the service's `DataVersionWatcher`). */
  readonly versions: {
    current(): number | null;
    onChange(listener: (version: number | null) => void): () => void;
  };
  /** The primary's cluster identifier, which a replica must share to take reads. */
  readonly primarySystemIdentifier: () => Promise<string>;
  /** How often each replica's replayed version is read while it is up to date. */
  readonly checkEveryMs?: number;
  /** How often it is read while behind the floor, so it takes reads again soon after catching up. */
  readonly catchUpEveryMs?: number;
  readonly onError?: (replica: string, error: Error) => void;
}

/** SQLSTATE of a statement cancelled by its own `statement_timeout`: slow everywhere, not a lost replica. */
const STATEMENT_TIMEOUT = '57014';
/**
 * SQLSTATEs of a schema a replica has not replayed yet (a table, column or function a migration
 * added): the primary has it. Run there, without taking the replica out.
 */
const SCHEMA_BEHIND = new Set(['42P01', '42703', '42883']);
/** pg-pool's message when no pooled connection came in time: a busy pool, not a lost replica. */
const POOL_BUSY = 'timeout exceeded when trying to connect';

const SYSTEM_IDENTIFIER = rowSchema('system identifier', { id: 'string' });

export function systemIdentifierStatement() {
  return sql`SELECT system_identifier::text AS id FROM pg_control_system()`;
}

/** A data source's cluster identifier (the primary's, which its replicas share). */
export async function systemIdentifierOf(ds: DataSource): Promise<string> {
  return (await rowOf(poolOf(ds), SYSTEM_IDENTIFIER, systemIdentifierStatement())).id;
}

/**
 * A replica's checks on one connection of their own, apart from its read pool: a pool busy with
 * reads delays no check, and a server that stops answering fails one within `timeoutMs` (the
 * connection is then dropped and opened again by the next check).
 */
export class PgVersionProbe implements VersionProbe {
  private client: Client | undefined;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
    private readonly applicationName: string,
  ) {}

  async version(): Promise<number> {
    return this.checked(readDataVersion);
  }

  async systemIdentifier(): Promise<string> {
    return this.checked(
      async (client) => (await rowOf(client, SYSTEM_IDENTIFIER, systemIdentifierStatement())).id,
    );
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** Runs a check on the probe's connection, dropping the connection when the check fails. */
  private async checked<T>(check: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.connected();
    try {
      return await check(client);
    } catch (error) {
      this.drop(client);
      throw error;
    }
  }

  private async connected(): Promise<Client> {
    if (this.client) return this.client;
    const client = new Client({
      connectionString: this.url,
      application_name: this.applicationName,
      connectionTimeoutMillis: this.timeoutMs,
      query_timeout: this.timeoutMs,
      keepAlive: true,
    });
    client.on('error', () => this.drop(client));
    try {
      await client.connect();
    } catch (error) {
      client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return client;
  }

  private drop(client: Client): void {
    if (this.client === client) this.client = undefined;
    client.end().catch(() => undefined);
  }
}

/** The data version a server has committed (the primary) or replayed (a replica). */
function versionOf(ds: DataSource): Promise<number> {
  return readDataVersion(poolOf(ds));
}

/**
 * Reads spread over streaming replicas, without ever going back in time.
 *
 * A replica replays the primary's WAL with some lag, so what it answers may be older than what
 * this service already served. Every committed write takes the next data version
 * (`data_version`, replicated like any row). The service keeps a floor: the newest version it
 * has announced (the primary's notifications) or served — after every read, before its answer
 * is returned, the server that answered is asked its version (one more round trip), and the floor
 * rises to it. A replica takes reads only while its last check found it at or past the floor, so
 * no later read can come from older data than an earlier one. Each replica's version is checked
 * once a second on a connection of its own (busy pools do not delay it), and at once (then every
 * 100 ms until it has caught up) when the primary announces a new version.
 *
 * A replica of another cluster (its system identifier is not the primary's: a wrong URL, a node
 * still following an old primary) never takes reads. A read that fails on a replica for want of
 * the replica (connection lost, a statement cancelled by a recovery conflict) is run again on the
 * primary once, and the replica takes no reads until a check succeeds; a read that could not get
 * a pooled connection in time, or met a table or column the replica has not replayed yet, is run
 * on the primary without taking the replica out; a statement past its own timeout is not run twice.
 */
export class ReadReplicas implements ReadTarget {
  private readonly replicas: Replica[];
  private floor: number | null = null;
  private primaryReads = 0;
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;
  private stopped = false;
  private primaryIdentifier: string | undefined;

  constructor(
    private readonly primary: DataSource,
    replicas: readonly { readonly name: string; readonly ds: DataSource; readonly probe: VersionProbe }[],
    private readonly options: ReadReplicasOptions,
  ) {
    this.replicas = replicas.map((r) => ({
      ...r,
      up: false,
      foreign: false,
      replayed: null,
      reads: 0,
      failedOver: 0,
      checking: false,
    }));
    this.raiseFloor(options.versions.current());
    this.unsubscribe = options.versions.onChange((version) => {
      this.raiseFloor(version);
      // A new version: replicas are read at once, so one that has it takes reads without waiting.
      if (this.replicas.some((r) => !this.eligible(r))) void this.checkAll();
    });
  }

  /** Reads every replica's version once, then keeps doing so (see the options). */
  async start(): Promise<void> {
    await this.checkAll();
    this.schedule();
  }

  /** Stops the checks and closes their connections (the caller closes the replicas' pools). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.unsubscribe();
    await Promise.all(this.replicas.map((r) => r.probe.close().catch(() => undefined)));
  }

  async read<T>(run: (ds: DataSource) => Promise<T>): Promise<T> {
    const replica = this.pick();
    if (!replica) return this.onPrimary(run);
    replica.reads++;
    try {
      return await this.served(replica.ds, run);
    } catch (error) {
      const fault = replicaFault(error);
      if (fault === 'none') throw error;
      if (fault === 'lost') replica.up = false;
      replica.failedOver++;
      this.options.onError?.(replica.name, error as Error);
      return this.onPrimary(run);
    }
  }

  routing(): ReadRouting {
    return {
      floor: this.floor,
      primaryReads: this.primaryReads,
      replicas: this.replicas.map((r) => ({
        name: r.name,
        up: r.up,
        replayedVersion: r.replayed,
        eligible: this.eligible(r),
        reads: r.reads,
        failedOver: r.failedOver,
      })),
    };
  }

  /** The replicas' data sources, to close at shutdown. */
  dataSources(): DataSource[] {
    return this.replicas.map((r) => r.ds);
  }

  private onPrimary<T>(run: (ds: DataSource) => Promise<T>): Promise<T> {
    this.primaryReads++;
    return this.served(this.primary, run);
  }

  /** Runs a read, then raises the floor to the answering server's version (at least the read's). */
  private async served<T>(ds: DataSource, run: (ds: DataSource) => Promise<T>): Promise<T> {
    const result = await run(ds);
    this.raiseFloor(await versionOf(ds));
    return result;
  }

  /** The next eligible replica in turn, or none. */
  private pick(): Replica | undefined {
    const n = this.replicas.length;
    for (let i = 0; i < n; i++) {
      const replica = this.replicas[(this.next + i) % n]!;
      if (this.eligible(replica)) {
        this.next = (this.next + i + 1) % n;
        return replica;
      }
    }
    return undefined;
  }

  private eligible(r: Replica): boolean {
    return r.up && !r.foreign && r.replayed !== null && this.floor !== null && r.replayed >= this.floor;
  }

  private raiseFloor(version: number | null): void {
    if (version !== null && (this.floor === null || version > this.floor)) this.floor = version;
  }

  private schedule(): void {
    if (this.stopped) return;
    const behind = this.replicas.some((r) => r.up && !this.eligible(r));
    this.timer = setTimeout(
      () => void this.checkAll().finally(() => this.schedule()),
      behind ? (this.options.catchUpEveryMs ?? 100) : (this.options.checkEveryMs ?? 1000),
    );
    this.timer.unref();
  }

  private async checkAll(): Promise<void> {
    await Promise.all(this.replicas.map((r) => this.check(r)));
  }

  private async check(replica: Replica): Promise<void> {
    if (replica.checking || this.stopped) return;
    replica.checking = true;
    try {
      this.primaryIdentifier ??= await this.options.primarySystemIdentifier();
      const identifier = await replica.probe.systemIdentifier();
      if (identifier !== this.primaryIdentifier) {
        if (!replica.foreign)
          this.options.onError?.(
            replica.name,
            new Error(
              `not a replica of the primary (system identifier ${identifier}, primary's ${this.primaryIdentifier})`,
            ),
          );
        replica.foreign = true;
        return;
      }
      replica.foreign = false;
      const version = await replica.probe.version();
      // A replica that was down at boot gets its pool here, once it answers.
      if (!replica.ds.isInitialized && !this.stopped) await replica.ds.initialize();
      replica.replayed = version;
      replica.up = true;
    } catch (error) {
      if (replica.up) this.options.onError?.(replica.name, error as Error);
      replica.up = false;
    } finally {
      replica.checking = false;
    }
  }
}

/**
 * What a read's failure says of the replica: `lost` (unreachable, cancelled by recovery: take it
 * out until a check succeeds), `busy` (no pooled connection in time, or a schema it has not
 * replayed yet: the primary answers, the replica stays in), or `none` (the read itself failed).
 */
function replicaFault(error: unknown): 'lost' | 'busy' | 'none' {
  let e: unknown = error;
  while (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    if (code === STATEMENT_TIMEOUT) return 'none';
    if (typeof code === 'string' && SCHEMA_BEHIND.has(code)) return 'busy';
    if (e.message.includes(POOL_BUSY)) return 'busy';
    e = (e as { driverError?: unknown }).driverError ?? e.cause;
  }
  return databaseUnavailable(error) ? 'lost' : 'none';
}

/** `host:port/database` of a connection string, for logs and `/health` (no credentials). */
export function replicaName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'replica';
  }
}
