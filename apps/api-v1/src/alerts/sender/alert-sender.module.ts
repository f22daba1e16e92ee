import { Module } from '@nestjs/common';
import { Environment } from '../../config/environment';
import { AlertSenderService } from './alert-sender.service';
import { alertSecretBox } from '../secrets/alert-secrets';
import { SecretBox } from '../secrets/secret-box';

/**
 * The price alerts' background work (evaluation and webhooks, ALERT_SENDER; the reseal pass
 * always) and the secret box it signs with, without the routes: what the worker runs
 * (worker.module.ts), and what the serving app imports for its routes' box too.
 */
@Module({
  providers: [AlertSenderService, { provide: SecretBox, inject: [Environment], useFactory: alertSecretBox }],
  exports: [SecretBox],
})
export class AlertSenderModule {}
