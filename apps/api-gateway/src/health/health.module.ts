import { Module } from '@nestjs/common';
import { LimitsModule } from '../limits/limits.module';
import { HealthController } from './health.controller';
import { ReadinessService } from './readiness.service';

@Module({ imports: [LimitsModule], controllers: [HealthController], providers: [ReadinessService] })
export class HealthModule {}
