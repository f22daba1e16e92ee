import { Module } from '@nestjs/common';
import { AlertSenderService } from './alert-sender.service';
import { AlertsController } from './alerts.controller';
import { AlertsService } from './alerts.service';
import { Environment } from '../config/environment';
import { alertSecretBox } from './secrets/alert-secrets';
import { SecretBox } from './secrets/secret-box';

@Module({
  controllers: [AlertsController],
  providers: [
    AlertsService,
    AlertSenderService,
    { provide: SecretBox, inject: [Environment], useFactory: alertSecretBox },
  ],
})
export class AlertsModule {}
