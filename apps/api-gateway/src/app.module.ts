import { Module } from '@nestjs/common';
import { EnvironmentModule, ObservabilityModule } from '@tcg/http-service';
import { poolUsage } from '@tcg/persistence';
import { DataSource } from 'typeorm';
import { Environment, validateEnvironment } from './config/environment';
import { PersistenceModule } from '@tcg/persistence/nest';
import { HealthModule } from './health/health.module';
import { OpenApiModule } from './openapi/openapi.module';
import { PagesModule } from './pages/pages.module';
import { ProxyModule } from './proxy/proxy.module';

@Module({
  imports: [
    EnvironmentModule.forApp(Environment, validateEnvironment),
    PersistenceModule.forService('api-gateway', { settings: Environment, health: false, replicas: false }),
    ObservabilityModule.forService({
      service: 'api-gateway',
      database: { token: DataSource, usage: poolUsage },
    }),
    HealthModule,
    OpenApiModule,
    PagesModule,
    ProxyModule,
  ],
})
export class AppModule {}
