import { Controller, Get, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { DataSource } from 'typeorm';

@Controller('health')
export class HealthController {
  constructor(private readonly ds: DataSource) {}

  /** Liveness and database reachability; the gateway reports it and needs no API key for it. */
  @Get()
  @HttpCode(200)
  async health(): Promise<{ status: 'ok'; service: string; database: 'up' }> {
    try {
      await this.ds.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException('database unreachable');
    }
    return { status: 'ok', service: 'api-v1', database: 'up' };
  }
}
