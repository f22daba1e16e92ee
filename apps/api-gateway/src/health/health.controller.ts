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

  /** PostgreSQL, each service, and where limits are counted; 503 when the gateway cannot serve. */
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
    const readiness = await this.readiness.check();
    res
      .status(readiness.status === 'ok' ? 200 : 503)
      .setHeader('cache-control', 'no-store')
      .json(readiness);
  }
}
