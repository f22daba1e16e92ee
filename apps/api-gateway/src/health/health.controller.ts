import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Response } from 'express';

type State = 'up' | 'down';

/** Gateway liveness plus each service's own health; answers without an API key. */
@Controller('health')
export class HealthController {
  private readonly upstreams: Record<string, string>;

  constructor(@Inject(ConfigService) config: ConfigService) {
    this.upstreams = {
      'api-v1': config.getOrThrow<string>('API_V1_URL'),
      'api-v2': config.getOrThrow<string>('API_V2_URL'),
    };
  }

  @Get()
  async health(@Res() res: Response): Promise<void> {
    const entries = await Promise.all(
      Object.entries(this.upstreams).map(async ([name, base]): Promise<[string, State]> => [
        name,
        await probe(base),
      ]),
    );
    const services = Object.fromEntries(entries);
    const ok = entries.every(([, s]) => s === 'up');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'degraded', service: 'api-gateway', services });
  }
}

async function probe(base: string): Promise<State> {
  try {
    const r = await fetch(new URL('/health', base), { signal: AbortSignal.timeout(2_000) });
    return r.ok ? 'up' : 'down';
  } catch {
    return 'down';
  }
}
