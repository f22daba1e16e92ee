import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsIn, IsNumber, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { DEFAULT_ARCHIVE_DAYS } from '@tcg/domain';
import { IsIntBetween, readServiceEnvironment, ServiceEnvironment } from '@tcg/http-service';

/** `<id>:<base64>`, as many as given, comma-separated (the key's length is checked when it is read). */
const SECRET_KEYS =
  /^\s*[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/=_-]+\s*(,\s*[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/=_-]+\s*)*$/;

/**
 * Every variable this service reads; validated once at boot (see .env.example). The shared ones
 * (database, gateway credential, server timeouts, log level, the ports' bounds) are in ServiceEnvironment.
 */
export class Environment extends ServiceEnvironment {
  override PORT = 8081;
  override METRICS_PORT = 9081;

  /**
   * Whether this instance writes the bulk snapshots in the background (`off`: another instance or
   * a scheduled `npm run bulk` does). Instances share the work through a lock: one writes at a time.
   */
  @IsOptional()
  @IsIn(['on', 'off'])
  BULK_GENERATION: 'on' | 'off' = 'on';

  /** How long the data version must stay still (an import's last batch committed) before a generation. */
  @IsOptional()
  @IsIntBetween(0, 3_600_000)
  BULK_SETTLE_MS = 10_000;

  /**
   * After each page of a bulk file it writes, the generation rests this many times as long as the
   * page took: 2 (the default) leaves it about a third of a core; more leaves the requests more of
   * a machine they share with it, and the files take longer (`1 +` this, times their time alone).
   */
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  BULK_REST_RATIO = 2;

  /** Snapshots older than this are written again even when the data has not changed (daily). */
  @IsOptional()
  @IsIntBetween(1, 24 * 30)
  BULK_MAX_AGE_HOURS = 24;

  /** Days a day's archive of the bulk data (both formats and the full history) is kept. */
  @IsOptional()
  @IsIntBetween(1, 10_000)
  BULK_ARCHIVE_DAYS = DEFAULT_ARCHIVE_DAYS;

  /**
   * Whether this instance evaluates price alerts after each data version and sends their
   * webhooks (docs/alerts.md). Instances share the work safely: one evaluation at a time, and each
   * event claimed by one sender.
   */
  @IsOptional()
  @IsIn(['on', 'off'])
  ALERT_SENDER: 'on' | 'off' = 'on';

  /**
   * `allow`: webhook URLs may be `http` and name private, loopback or link-local addresses (tests,
   * self-hosting on one network). Off by default: anything else is an SSRF hole.
   */
  @IsOptional()
  @IsIn(['allow', 'refuse'])
  ALERT_PRIVATE_URLS: 'allow' | 'refuse' = 'refuse';

  /** How often the sender looks for due events (each one a cheap indexed statement). */
  @IsOptional()
  @IsIntBetween(50, 60_000)
  ALERT_POLL_MS = 1_000;

  /** The gap after a first failed attempt; each next one doubles (capped at 2 h), with jitter. */
  @IsOptional()
  @IsIntBetween(10, 3_600_000)
  ALERT_RETRY_BASE_MS = 30_000;

  /** How long an event is retried from when it fired; then it fails and its alert is disabled. */
  @IsOptional()
  @IsIntBetween(1_000, 7 * 86_400_000)
  ALERT_RETRY_WINDOW_MS = 86_400_000;

  /**
   * How long a claimed event is its sender's alone: past it, a sender that died mid-send has its
   * event sent again by another (or by itself after a restart). Above an attempt's deadlines.
   */
  @IsOptional()
  @IsIntBetween(500, 600_000)
  ALERT_LEASE_MS = 60_000;

  /**
   * The key that seals webhook signing secrets at rest (AES-256-GCM), `<id>:<base64 of 32 bytes>`:
   * `k1:$(openssl rand -base64 32)`. Every api-v1 instance needs the same one. Unset outside
   * production (`npm start`): a key made once in TCG_DATA_DIR (`.data`)/alert-secret.key. Unset
   * with NODE_ENV=production: api-v1 refuses to start (docs/alerts.md, "Secrets at rest").
   */
  @IsOptional()
  @IsString()
  @Matches(SECRET_KEYS, { message: 'ALERT_SECRET_KEY must be id:base64' })
  ALERT_SECRET_KEY?: string;

  /**
   * Keys that open secrets but seal none, comma-separated, in ALERT_SECRET_KEY's form: the
   * previous key while a rotation's reseal pass moves every secret to the current one.
   */
  @IsOptional()
  @IsString()
  @Matches(SECRET_KEYS, { message: 'ALERT_SECRET_OLD_KEYS must be id:base64[,id:base64…]' })
  ALERT_SECRET_OLD_KEYS?: string;

  /** Where local state is kept (`npm start` sets the same): the local alert secret key without ALERT_SECRET_KEY. */
  @IsOptional()
  @IsString()
  TCG_DATA_DIR?: string;

  /** `production` (the Docker image's): no local alert secret key is made; ALERT_SECRET_KEY is required. */
  @IsOptional()
  @IsString()
  NODE_ENV?: string;
}

export function validateEnvironment(raw: Record<string, unknown>): Environment {
  return readServiceEnvironment(Environment, raw);
}
