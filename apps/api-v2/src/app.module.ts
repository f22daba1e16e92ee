import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { validateEnvironment } from './config/environment';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { ProblemDetailsFilter } from './common/filters/problem-details.filter';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validate: validateEnvironment }),
    DatabaseModule,
    HealthModule,
  ],
  providers: [ProblemDetailsFilter],
})
export class AppModule {}
