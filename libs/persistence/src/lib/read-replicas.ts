import { DataSource } from 'typeorm';
import { databaseUnavailable } from './data-source';

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
  up: boolean;
  replayed: number | null;
  reads: number;
  failedOver: number;
  checking: boolean;
}

export interface ReadReplicasOptions {
  /** The data version the primary announces (the service's `DataVersionWatcher`). */
  readonly versions: {
    current(): number | null;
    onChange(listener: (version: number | null) => void): () => void;
  };
  /** How often each replica's replayed version is read while it is up to date. */
  readonly checkEveryMs?: number;
  /** How often it is read while behind the floor, so it takes reads again soon after catching up. */
  readonly catchUpEveryMs?: number;
  readonly onError?: (replica: string, error: Error) => void;
}

/** SQLSTATE of a statement cancelled by its own `statement_timeout`: slow everywhere, not a lost replica. */
const STATEMENT_TIMEOUT = '57014';

/**
 * Reads spread over streaming replicas, without ever going back in time.
 *
 * A replica replays the primary's WAL with some lag, so what it answers may be older than what
 * this service (or another one) already served. Every committed write takes the next data
 * version (`data_version`, replicated like any row), so each replica's replayed version is read
 * periodically, and a replica takes reads only while it has replayed the newest version this
 * service has seen — announced by the primary, or read on any replica. Otherwise, or when no
 * replica is up, the primary answers. The floor never moves down, so a client of this service
 * never sees data older than a version it was served. A read that fails on a replica for want of
 * the replica (connection lost, a statement cancelled by a recovery conflict) is run again on the
 * primary once, and the replica takes no reads until a check succeeds.
 */
export class ReadReplicas implements ReadTarget {
  private readonly replicas: Replica[];
  private floor: number | null = null;
  private primaryReads = 0;
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;
  private stopped = false;

  constructor(
    private readonly primary: DataSource,
    replicas: readonly { readonly name: string; readonly ds: DataSource }[],
    private readonly options: ReadReplicasOptions,
  ) {
    this.replicas = replicas.map((r) => ({
      ...r,
      up: false,
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

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.unsubscribe();
  }

  async read<T>(run: (ds: DataSource) => Promise<T>): Promise<T> {
    const replica = this.pick();
    if (!replica) {
      this.primaryReads++;
      return run(this.primary);
    }
    replica.reads++;
    try {
      return await run(replica.ds);
    } catch (error) {
      if (!replicaFailed(error)) throw error;
      replica.up = false;
      replica.failedOver++;
      this.options.onError?.(replica.name, error as Error);
      this.primaryReads++;
      return run(this.primary);
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

  /** Whether any replica could answer now: a service whose primary is down may still serve reads. */
  anyEligible(): boolean {
    return this.replicas.some((r) => this.eligible(r));
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
    return r.up && r.replayed !== null && this.floor !== null && r.replayed >= this.floor;
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
      // A replica that was down at boot gets its pool here, once it answers.
      if (!replica.ds.isInitialized) await replica.ds.initialize();
      const [row] = (await replica.ds.query('SELECT version::text AS version FROM data_version')) as {
        version: string;
      }[];
      const version = Number(row!.version);
      replica.replayed = version;
      replica.up = true;
      this.raiseFloor(version);
    } catch (error) {
      if (replica.up) this.options.onError?.(replica.name, error as Error);
      replica.up = false;
    } finally {
      replica.checking = false;
    }
  }
}

function replicaFailed(error: unknown): boolean {
  let e: unknown = error;
  while (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    if (code === STATEMENT_TIMEOUT) return false;
    e = (e as { driverError?: unknown }).driverError ?? e.cause;
  }
  return databaseUnavailable(error);
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
