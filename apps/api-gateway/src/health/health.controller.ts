import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ReadinessService } from './readiness.service';

/** Liveness and readiness; they answer without an API key. */
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  /** The process is up and serving HTTP: no I/O, so a restart is never triggered by a slow dependency. */
  @Get('live')
  live(): { status: 'ok'; service: 'api-gateway' } {
    return { status: 'ok', service: 'api-gateway' };
  }

  /**
   * Up, or 503 (degraded) when PostgreSQL or a service does not answer, or the legacy keys are not
   * read yet. Only that: open to anyone, it must not say where quotas are counted (in memory during
   * an outage is a cue to over-spend); the details are on the admin port (`GET /health` beside
   * `/metrics`).
   */
  @Get('ready')
  ready(@Res() res: Response): Promise<void> {
    return this.answer(res);
  }

  /** What `npm start` and the tests poll: the same answer as `/health/ready`. */
  @Get()
  health(@Res() res: Response): Promise<void> {
    return this.answer(res);
  }

  private async answer(res: Response): Promise<void> {
    const { status, service } = await this.readiness.check();
    res
      .status(status === 'ok' ? 200 : 503)
      .setHeader('cache-control', 'no-store')
      .json({ status, service });
  }
}
