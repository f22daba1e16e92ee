import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { ObservabilityModule } from '@tcg/http-service';
import { poolUsage } from '@tcg/persistence';
import { DataSource } from 'typeorm';
import { validateEnvironment } from './config/environment';
import { PersistenceModule } from '@tcg/persistence/nest';
import { HealthModule } from './health/health.module';
import { OpenApiModule } from './openapi/openapi.module';
import { PagesModule } from './pages/pages.module';
import { ProxyModule } from './proxy/proxy.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validate: validateEnvironment }),
    PersistenceModule.forService('api-gateway', { health: false, replicas: false }),
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
