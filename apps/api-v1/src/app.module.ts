import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { validateEnvironment } from './config/environment';
import { PersistenceModule } from '@tcg/persistence/nest';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validate: validateEnvironment }),
    PersistenceModule.forService('api-v1'),
  ],
})
export class AppModule {}
