import 'reflect-metadata';
import { IsIn, IsOptional, IsString, IsUrl, Matches, MaxLength, MinLength } from 'class-validator';
import { MIN_API_KEY_SECRET_LENGTH, UNSET_API_KEY_SECRET } from '@tcg/domain';
import { BaseEnvironment, IsIntBetween, readEnvironment } from '@tcg/http-service';
import {
  PROXY_HEADERS,
  type ProxyHeader,
  parseTrustedProxies,
  TrustedProxiesError,
} from '../access/client-address';
import { CORS_ORIGINS_FORMAT } from '../common/cors';
import { parseRedisTarget, RedisConfigError } from '../limits/redis-target';
import { PREFILL_KEY_FORMAT } from '../pages/page-catalogue';

/**
 * Every variable the gateway reads; validated once at boot (see .env.example). DATABASE_URL (where
 * API keys live, hashed), the deadlines of key lookups, INTERNAL_TOKEN (the credential the gateway
 * presents to the services) and LOG_LEVEL are in BaseEnvironment.
 */
export class Environment extends BaseEnvironment {
  override PORT = 8080;
  override METRICS_PORT = 9080;

  @IsOptional()
  @IsString()
  HOST = '0.0.0.0';

  @IsOptional()
  @IsIntBetween(1, 50)
  DATABASE_POOL_SIZE = 4;

  /**
   * Redis for quotas and the auth-failure throttle. Unset: quotas in PostgreSQL (they survive a
   * restart) and the throttle in memory, per instance. A Redis Cluster is
   * `redis+cluster://[user:password@]host:port[,host:port…]` (see `parseRedisTarget`).
   */
  @IsOptional()
  @IsString()
  REDIS_URL?: string;

  /**
   * A Redis Cluster for the same, by seed nodes: `host:port[,host:port…]`. Either this or
   * REDIS_URL, not both (checked in `validateEnvironment`).
   */
  @IsOptional()
  @IsString()
  REDIS_CLUSTER_NODES?: string;

  /**
   * Longest a Redis command may take before the call is answered from memory. Generous enough that
   * a burst (event-loop lag included) is not taken for an outage: an outage admits up to one
   * instance's in-memory share, a slow reply does not.
   */
  @IsOptional()
  @IsIntBetween(10, 10_000)
  REDIS_COMMAND_TIMEOUT_MS = 1_000;

  /** Longest a (re)connection to Redis may take. */
  @IsOptional()
  @IsIntBetween(100, 60_000)
  REDIS_CONNECT_TIMEOUT_MS = 1_000;

  /** Without Redis: longest a quota statement on PostgreSQL may take before memory answers. */
  @IsOptional()
  @IsIntBetween(10, 10_000)
  QUOTA_DB_TIMEOUT_MS = 1_000;

  /** How long a key lookup is cached: a revoked key stops working within this time. */
  @IsOptional()
  @IsIntBetween(0, 60_000)
  KEY_CACHE_TTL_MS = 5_000;

  /**
   * How long past KEY_CACHE_TTL_MS a valid key keeps working while the database cannot confirm it
   * (down or slower than KEY_LOOKUP_TIMEOUT_MS). 0: never served stale.
   */
  @IsOptional()
  @IsIntBetween(0, 86_400_000)
  KEY_CACHE_STALE_MS = 300_000;

  /** Longest a request waits for a key lookup; past it: a stale entry, else 503. */
  @IsOptional()
  @IsIntBetween(10, 30_000)
  KEY_LOOKUP_TIMEOUT_MS = 1_000;

  /**
   * The secret API keys' checks are made under (HMAC-SHA256): the gateway refuses a key whose check
   * does not verify without any lookup. `npm run keys` needs the same value to issue keys. Unset:
   * a public default (`UNSET_API_KEY_SECRET`), so `npm start` and the tests need none; the check is
   * then only a checksum, stopping random keys but not keys crafted by someone who knows the default.
   */
  @IsOptional()
  @IsString()
  @MinLength(MIN_API_KEY_SECRET_LENGTH)
  @MaxLength(256)
  API_KEY_SECRET?: string;

  /**
   * `production` (the Docker image's): API_KEY_SECRET is required and the public default is refused
   * among the previous secrets, so that no key can be made by someone who has read the code.
   */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  NODE_ENV?: string;

  /**
   * Earlier values of API_KEY_SECRET, comma-separated: keys issued under them keep working (a
   * rotation). The default used while none was set is `UNSET_API_KEY_SECRET`'s value.
   */
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  API_KEY_PREVIOUS_SECRETS = '';

  /**
   * How often the digests of the keys issued before keys had a check (`legacy`) are read again;
   * a legacy key added meanwhile (`DEMO_API_KEY`) works from the next read.
   */
  @IsOptional()
  @IsIntBetween(1_000, 3_600_000)
  LEGACY_KEYS_REFRESH_MS = 60_000;

  /**
   * Longest each read of those digests may take until one has succeeded (later ones: within
   * KEY_LOOKUP_TIMEOUT_MS). The gateway listens once the first is done or given up; until one
   * succeeds it is not ready and answers legacy-shaped keys 503 with Retry-After.
   */
  @IsOptional()
  @IsIntBetween(100, 120_000)
  LEGACY_KEYS_LOAD_TIMEOUT_MS = 10_000;

  /** Missing or invalid keys one client address may send per minute before it gets 429s. */
  @IsOptional()
  @IsIntBetween(1, 100_000)
  AUTH_FAILURES_PER_MINUTE = 30;

  /**
   * How long the answer to a bad key (a 401, or the 429 of an address blocked for bad keys) waits
   * before it is sent: a client sending bad keys as fast as it is answered gets at most one answer
   * per connection per this, so a flood of them cannot take the gateway's CPU from valid keys. A
   * timer only, no CPU while it waits. 0: answered at once.
   */
  @IsOptional()
  @IsIntBetween(0, 10_000)
  AUTH_FAILURE_DELAY_MS = 250;

  /**
   * Answers to bad keys waiting AUTH_FAILURE_DELAY_MS at once on this instance, at most; past it
   * one is sent at once and closes its connection (the metric `gateway_bad_key_answers_undelayed_total`).
   */
  @IsOptional()
  @IsIntBetween(1, 1_000_000)
  AUTH_FAILURE_MAX_DELAYED = 2_000;

  /**
   * Answers to bad keys one client address (an IPv6 /64) gets per AUTH_FAILURE_DELAY_MS, at most,
   * however many connections it opens: past it they wait their turn. 32 per 250 ms: 128 a second.
   */
  @IsOptional()
  @IsIntBetween(1, 1_000_000)
  AUTH_FAILURE_ANSWERS_PER_ADDRESS = 32;

  /**
   * The proxies in front of the gateway (an ingress, a load balancer), as comma-separated
   * addresses or CIDR ranges. When a request's TCP peer is one of them, the client address (what
   * AUTH_FAILURES_PER_MINUTE counts) is the right-most hop of TRUSTED_PROXY_HEADER that is not.
   * Empty: the TCP peer, whatever the headers say.
   */
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  TRUSTED_PROXIES = '';

  /** The header those proxies append the client's address to: `x-forwarded-for` or `forwarded` (RFC 7239). */
  @IsOptional()
  @IsIn(PROXY_HEADERS)
  TRUSTED_PROXY_HEADER: ProxyHeader = 'x-forwarded-for';

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http'] })
  API_V1_URL = 'http://127.0.0.1:8081';

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http'] })
  API_V2_URL = 'http://127.0.0.1:8082';

  /**
   * The MCP server's streamable HTTP service (`apps/mcp-server`, `--http`), reached at `/mcp`
   * with the caller's key. Unset: `/mcp` is 404.
   */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http'] })
  MCP_URL?: string;

  /**
   * How long the MCP service may take to answer `/mcp`: a tool call is an API request of its own
   * (TCG_API_TIMEOUT_MS there, 10 s), so longer than an API request's UPSTREAM_TIMEOUT_MS.
   */
  @IsOptional()
  @IsIntBetween(100, 300_000)
  MCP_UPSTREAM_TIMEOUT_MS = 30_000;

  /** How long an upstream may take before the client gets a 504. */
  @IsOptional()
  @IsIntBetween(100, 120_000)
  UPSTREAM_TIMEOUT_MS = 10_000;

  // --- Proxy (issue 9): upstream deadlines and pool bounds, body cap, server timeouts. ---

  /** From an upstream's response headers to the end of its body; past it the response is cut. */
  @IsOptional()
  @IsIntBetween(100, 600_000)
  UPSTREAM_BODY_TIMEOUT_MS = 30_000;

  /** Keep-alive connections per service. */
  @IsOptional()
  @IsIntBetween(1, 10_000)
  UPSTREAM_MAX_SOCKETS = 64;

  /** Requests per service on a socket or waiting for one; beyond it a quick 503, not a queue. */
  @IsOptional()
  @IsIntBetween(1, 100_000)
  UPSTREAM_MAX_IN_FLIGHT = 256;

  /**
   * An idle pooled socket is closed after this: below the services' keepAliveTimeout (30 s), so the
   * gateway never reuses a socket the service is closing.
   */
  @IsOptional()
  @IsIntBetween(100, 600_000)
  UPSTREAM_FREE_SOCKET_TIMEOUT_MS = 4_000;

  // --- Slow clients and downloads (issue 22): write-idle deadline, the download pool and its bounds. ---

  /**
   * Longest a client may take nothing of a response while the gateway has more to send (pages and
   * static assets too); past it the connection is cut and the upstream socket closed at once.
   */
  @IsOptional()
  @IsIntBetween(100, 600_000)
  WRITE_IDLE_TIMEOUT_MS = 10_000;

  /**
   * Connections to api-v1 for bulk downloads, apart from the ordinary pool (UPSTREAM_MAX_SOCKETS):
   * downloads past it get 503 at once, never a socket ordinary requests need.
   */
  @IsOptional()
  @IsIntBetween(1, 1_000)
  DOWNLOAD_MAX_SOCKETS = 8;

  /**
   * Of DOWNLOAD_MAX_SOCKETS, the most one key holds on this instance at once (its plan's
   * `concurrentDownloads` is the limit across instances); past it: 429.
   */
  @IsOptional()
  @IsIntBetween(1, 1_000)
  DOWNLOAD_SOCKETS_PER_KEY = 2;

  /**
   * Of DOWNLOAD_MAX_SOCKETS, the last ones, kept for keys with no download in progress on this
   * instance: however many keys read slowly, a new one finds a connection (at most sockets − 1).
   */
  @IsOptional()
  @IsIntBetween(0, 1_000)
  DOWNLOAD_RESERVED_SOCKETS = 2;

  /**
   * How long a key's download counts among its downloads in progress across instances without
   * being renewed (every third of it while it runs): an instance that died frees its places then.
   */
  @IsOptional()
  @IsIntBetween(1_000, 3_600_000)
  DOWNLOAD_LEASE_TTL_MS = 60_000;

  /**
   * A key's requests in progress at once on this instance, for every plan alike; unset: each
   * plan's own (`concurrentRequests`: free 4, starter 8, professional 16, enterprise 32).
   */
  @IsOptional()
  @IsIntBetween(1, 1_000_000)
  KEY_REQUESTS_AT_ONCE?: number;

  /**
   * The rate a download must keep, counted on the bytes its client took and averaged over the last
   * DOWNLOAD_GRACE_MS (at least 1 s) once those have passed; slower ones are cut.
   */
  @IsOptional()
  @IsIntBetween(0, 1_073_741_824)
  DOWNLOAD_MIN_BYTES_PER_SECOND = 16_384;

  /** From a download's headers until its average rate is first checked. */
  @IsOptional()
  @IsIntBetween(0, 600_000)
  DOWNLOAD_GRACE_MS = 10_000;

  /** Longest a download may take; past it the connection is cut (the client resumes with Range). */
  @IsOptional()
  @IsIntBetween(1_000, 86_400_000)
  DOWNLOAD_MAX_DURATION_MS = 1_800_000;

  /** Largest request body (POST) the gateway accepts; larger gets 413. */
  @IsOptional()
  @IsIntBetween(1, 100 * 1024 * 1024)
  MAX_BODY_BYTES = 1_048_576;

  /** A client must send its request headers within this; slower ones get 408 and are closed. */
  @IsOptional()
  @IsIntBetween(100, 600_000)
  SERVER_HEADERS_TIMEOUT_MS = 10_000;

  /** A client must send its whole request (headers and body) within this. */
  @IsOptional()
  @IsIntBetween(100, 600_000)
  SERVER_REQUEST_TIMEOUT_MS = 30_000;

  /** An idle client keep-alive connection is closed after this. */
  @IsOptional()
  @IsIntBetween(100, 600_000)
  SERVER_KEEP_ALIVE_TIMEOUT_MS = 5_000;

  /** Base address of the problem-type documentation, for the gateway's own v2 errors. */
  @IsOptional()
  @IsString()
  DOCS_URL = 'https://docs.example.com/errors';

  /**
   * Browser origins allowed to call the API (CORS): `*` for any, or a comma-separated list such as
   * `https://shop.example,https://app.example`. Each origin is checked when the gateway starts.
   */
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  @Matches(CORS_ORIGINS_FORMAT, { message: "CORS_ORIGINS must be '*' or a comma-separated list of origins" })
  CORS_ORIGINS = '*';

  /** Where `api-v1.json` and `api-v2.json` are (served at `/openapi/v1.json`, `/openapi/v2.json`); relative to the working directory. */
  @IsOptional()
  @IsString()
  OPENAPI_DIR = 'docs/openapi';

  /**
   * An API key written into the explorer page's key field (`/`), for anyone who loads the page to
   * see: `npm start` sets it to its demo key. Leave it unset anywhere else; unset, the field is empty.
   */
  @IsOptional()
  @IsString()
  @Matches(PREFILL_KEY_FORMAT, { message: 'EXPLORER_API_KEY must be 1 to 256 printable ASCII characters' })
  EXPLORER_API_KEY?: string;
}

export function validateEnvironment(raw: Record<string, unknown>): Environment {
  const env = readEnvironment(Environment, raw);
  try {
    parseTrustedProxies(env.TRUSTED_PROXIES);
  } catch (err) {
    if (err instanceof TrustedProxiesError)
      throw new Error(`Invalid configuration: TRUSTED_PROXIES: ${err.message}`);
    throw err;
  }
  if (env.NODE_ENV === 'production') {
    if (env.API_KEY_SECRET === undefined || env.API_KEY_SECRET.trim() === '')
      throw new Error(
        'Invalid configuration: API_KEY_SECRET is required in production (openssl rand -base64 32)',
      );
    if ([env.API_KEY_SECRET, ...apiKeyPreviousSecrets(env)].includes(UNSET_API_KEY_SECRET))
      throw new Error(
        'Invalid configuration: the public default secret is refused in production (API_KEY_SECRET, API_KEY_PREVIOUS_SECRETS)',
      );
  }
  for (const previous of apiKeyPreviousSecrets(env))
    if (previous.length < MIN_API_KEY_SECRET_LENGTH)
      throw new Error(
        `Invalid configuration: API_KEY_PREVIOUS_SECRETS: each secret must be at least ${MIN_API_KEY_SECRET_LENGTH} characters`,
      );
  try {
    parseRedisTarget(env);
  } catch (err) {
    if (err instanceof RedisConfigError) throw new Error(`Invalid configuration: ${err.message}`);
    throw err;
  }
  return env;
}

/** API_KEY_PREVIOUS_SECRETS as a list (empty entries dropped). */
export function apiKeyPreviousSecrets(env: Pick<Environment, 'API_KEY_PREVIOUS_SECRETS'>): string[] {
  return env.API_KEY_PREVIOUS_SECRETS.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
