import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, validateSync } from 'class-validator';
import type { ServiceLogLevel } from './observability/logger';

/** Every level, as a record so that the compiler refuses a list missing one of Nest's. */
const LEVELS: Record<ServiceLogLevel, true> = {
  error: true,
  warn: true,
  log: true,
  debug: true,
  verbose: true,
};

/** LOG_LEVEL's values, in Nest's names; each app's environment takes these. */
export const LOG_LEVELS = Object.keys(LEVELS) as readonly ServiceLogLevel[];

/**
 * A whole number from `min` to `max`, converted from the variable's text: what
 * `@Type(() => Number) @IsInt() @Min(min) @Max(max)` declare, applied bottom first as TypeScript
 * applies a stack, so an error lists the failed constraints in the same order.
 */
export function IsIntBetween(min: number, max: number): PropertyDecorator {
  return (target, key) => {
    for (const decorate of [Max(max), Min(min), IsInt()]) decorate(target, key);
    Type(() => Number)(target, String(key));
  };
}

/**
 * The variables every HTTP service reads, the gateway included: its database and how long to wait
 * for it, the internal credential and the log level. A service's own Environment extends this;
 * class-validator and class-transformer apply the base class's decorators to the subclass too.
 */
export class BaseEnvironment {
  @IsString()
  DATABASE_URL!: string;

  /** The gateway's credential: the gateway presents it, the services refuse requests without it. */
  @IsString()
  @MinLength(16)
  INTERNAL_TOKEN!: string;

  /** Longest wait to open a database connection, or for a pooled one when all are busy. */
  @IsOptional()
  @IsIntBetween(100, 60_000)
  DATABASE_CONNECT_TIMEOUT_MS = 2_000;

  /**
   * Longest a statement may run (server-side `statement_timeout`); the client abandons it 1 s
   * later if the server does not answer at all. A lookup takes milliseconds.
   */
  @IsOptional()
  @IsIntBetween(100, 600_000)
  DATABASE_STATEMENT_TIMEOUT_MS = 5_000;

  /** The server ends a session idle inside a transaction this long, freeing its locks. */
  @IsOptional()
  @IsIntBetween(1_000, 3_600_000)
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;

  /**
   * The API's port and `/metrics`' admin port (on METRICS_HOST; 0: no metrics served). Each app
   * declares its own defaults (`override PORT = 8081`); not optional, so an app that forgot one
   * fails at boot rather than listening on a random port.
   */
  @IsIntBetween(1, 65535)
  PORT!: number;

  @IsIntBetween(0, 65535)
  METRICS_PORT!: number;

  @IsOptional()
  @IsIn(LOG_LEVELS)
  LOG_LEVEL: ServiceLogLevel = 'log';

  /**
   * `json` (one object a line) or `pretty` (one readable line, for a person). Unset: pretty when
   * standard output is a terminal, JSON otherwise (`npm start` passes its own terminal's choice on).
   */
  @IsOptional()
  @IsIn(['json', 'pretty'])
  LOG_FORMAT: 'json' | 'pretty' = process.stdout.isTTY ? 'pretty' : 'json';

  /**
   * Where `/metrics` is served: an admin address of its own, never the API's port. Loopback unless
   * set (`0.0.0.0` in a container, for Prometheus).
   */
  @IsOptional()
  @IsString()
  METRICS_HOST = '127.0.0.1';
}

/**
 * The variables api-v1 and api-v2 share: services behind the gateway, reached only with its
 * credential. Each version sets its ports' defaults and adds its own variables.
 */
export class ServiceEnvironment extends BaseEnvironment {
  @IsOptional()
  @IsString()
  HOST = '127.0.0.1';

  @IsOptional()
  @IsIntBetween(1, 200)
  DATABASE_POOL_SIZE = 10;

  /**
   * PostgreSQL read replicas, as comma-separated connection strings (each with its own pool of
   * DATABASE_POOL_SIZE): reads go to one that has replayed the current data version, else to the
   * primary (DATABASE_URL). Unset: every read on the primary.
   */
  @IsOptional()
  @IsString()
  DATABASE_READ_URLS = '';

  /**
   * How long an idle keep-alive connection from the gateway stays open. The gateway's pool must
   * close idle sockets sooner, or it may send a request on a socket this side is closing.
   */
  @IsOptional()
  @IsIntBetween(1_000, 600_000)
  SERVER_KEEP_ALIVE_TIMEOUT_MS = 30_000;

  /** Longest a client may take to send a request's headers. */
  @IsOptional()
  @IsIntBetween(1_000, 120_000)
  SERVER_HEADERS_TIMEOUT_MS = 10_000;

  /** Longest a client may take to send a whole request, body included; at least the headers'. */
  @IsOptional()
  @IsIntBetween(1_000, 600_000)
  SERVER_REQUEST_TIMEOUT_MS = 30_000;

  /**
   * Bytes the response cache may hold (bodies and their compressed forms), least recently used
   * out first; 0 turns caching off (validators and compression stay).
   */
  @IsOptional()
  @IsIntBetween(0, 8 * 1024 ** 3)
  RESPONSE_CACHE_MAX_BYTES = 64 * 1024 ** 2;
}

/**
 * The raw variables as an instance of `type`, defaults applied and numbers converted, or an
 * error naming every variable that fails its decorators.
 */
export function readEnvironment<T extends object>(type: new () => T, raw: Record<string, unknown>): T {
  const env = plainToInstance(type, raw, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false });
  if (errors.length > 0) {
    const detail = errors
      .map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`)
      .join('; ');
    throw new Error(`Invalid configuration: ${detail}`);
  }
  return env;
}

/** Most read replicas one service connects to, and the longest DATABASE_READ_URLS read. */
const MAX_READ_REPLICAS = 16;
const MAX_READ_URLS_LENGTH = 16 * 1024;

/**
 * DATABASE_READ_URLS as a list of connection strings (empty when unset or blank), or an error
 * naming the variable and what it accepts.
 */
export function readReplicaUrls(raw: string): string[] {
  const accepted = 'comma-separated postgres:// or postgresql:// connection strings';
  if (raw.length > MAX_READ_URLS_LENGTH)
    throw new Error(
      `Invalid configuration: DATABASE_READ_URLS: longer than ${MAX_READ_URLS_LENGTH} characters`,
    );
  const urls = raw
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  if (urls.length > MAX_READ_REPLICAS)
    throw new Error(`Invalid configuration: DATABASE_READ_URLS: at most ${MAX_READ_REPLICAS} ${accepted}`);
  for (const [i, url] of urls.entries()) {
    let protocol: string;
    try {
      protocol = new URL(url).protocol;
    } catch {
      protocol = '';
    }
    if (protocol !== 'postgres:' && protocol !== 'postgresql:')
      throw new Error(
        `Invalid configuration: DATABASE_READ_URLS: entry ${i + 1} is not a postgres:// URL; accepted: ${accepted}`,
      );
  }
  return urls;
}

/** readEnvironment for a service, with the checks that span its shared variables. */
export function readServiceEnvironment<T extends ServiceEnvironment>(
  type: new () => T,
  raw: Record<string, unknown>,
): T {
  const env = readEnvironment(type, raw);
  // Node refuses a headers timeout longer than the request timeout it is part of.
  if (env.SERVER_HEADERS_TIMEOUT_MS > env.SERVER_REQUEST_TIMEOUT_MS)
    throw new Error(
      'Invalid configuration: SERVER_HEADERS_TIMEOUT_MS must not exceed SERVER_REQUEST_TIMEOUT_MS',
    );
  readReplicaUrls(env.DATABASE_READ_URLS); // a malformed list stops the boot, naming the variable
  return env;
}
