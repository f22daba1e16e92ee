import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessService } from '../access/access.service';
import { Environment } from '../config/environment';
import { withTimeout } from '../limits/failover';
import { Limits } from '../limits/limits.module';

type State = 'up' | 'down';

export interface Readiness {
  readonly status: 'ok' | 'degraded';
  readonly service: 'api-gateway';
  readonly database: State;
  readonly services: Readonly<Record<string, State>>;
  /** Whether the digests of the keys issued before keys had a check are read (their holders get 503 until then). */
  readonly legacyKeys: 'read' | 'unread';
  /** Where quotas are kept, and where they are being counted right now (memory during an outage). */
  readonly limits: ReturnType<Limits['status']>;
}

/** How long one answer is reused: unauthenticated callers cannot make the gateway fan out faster. */
const CACHE_MS = 1_000;
/** Deadline of each check. */
const CHECK_TIMEOUT_MS = 1_000;

/**
 * Whether the gateway can serve: PostgreSQL (API keys) and each service answer, the legacy keys
 * are read, and where limits are counted. One check runs at a time and its answer is reused for a second.
 */
@Injectable()
export class ReadinessService {
  private readonly upstreams: Record<string, string>;
  private cached?: { readonly at: number; readonly result: Promise<Readiness> };

  constructor(
    private readonly ds: DataSource,
    private readonly limits: Limits,
    env: Environment,
    private readonly access: AccessService,
  ) {
    this.upstreams = { 'api-v1': env.API_V1_URL, 'api-v2': env.API_V2_URL };
  }

  check(): Promise<Readiness> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached.result;
    const result = this.run();
    this.cached = { at: now, result };
    return result;
  }

  private async run(): Promise<Readiness> {
    const [database, ...states] = await Promise.all([
      this.probeDatabase(),
      ...Object.values(this.upstreams).map(probeService),
    ]);
    const services = Object.fromEntries(Object.keys(this.upstreams).map((name, i) => [name, states[i]!]));
    const legacyKeys = this.access.legacyKeysLoaded ? 'read' : 'unread';
    const ok = database === 'up' && states.every((s) => s === 'up') && legacyKeys === 'read';
    return {
      status: ok ? 'ok' : 'degraded',
      service: 'api-gateway',
      database,
      services,
      legacyKeys,
      limits: this.limits.status(),
    };
  }

  private async probeDatabase(): Promise<State> {
    try {
      await withTimeout(this.ds.query('SELECT 1'), CHECK_TIMEOUT_MS, 'postgres');
      return 'up';
    } catch {
      return 'down';
    }
  }
}

async function probeService(base: string): Promise<State> {
  try {
    const r = await fetch(new URL('/health', base), { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    await r.arrayBuffer();
    return r.ok ? 'up' : 'down';
  } catch {
    return 'down';
  }
}
