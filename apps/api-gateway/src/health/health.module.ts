import { Module } from '@nestjs/common';
import { MetricsServer } from '@tcg/http-service';
import { LimitsModule } from '../limits/limits.module';
import { ProxyModule } from '../proxy/proxy.module';
import { HealthController } from './health.controller';
import { ReadinessService } from './readiness.service';

@Module({
  imports: [LimitsModule, ProxyModule],
  controllers: [HealthController],
  providers: [ReadinessService],
})
export class HealthModule {
  /** The readiness in full (services, database, where limits are counted) on the admin port only. */
  constructor(metrics: MetricsServer, readiness: ReadinessService) {
    metrics.reportHealth(() => readiness.check());
  }
}
