import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';

export interface Stack {
  readonly gatewayUrl: string;
  readonly v1Url: string;
  readonly v2Url: string;
  close(): Promise<void>;
}

async function listen(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/**
 * Boots api-v1, api-v2 and the gateway in this process on ephemeral ports, configured exactly as
 * main.ts configures them, over real HTTP. Config is read when an app module is first imported,
 * so the environment is set before each import.
 */
export async function startStack(overrides: { v1Url?: string } = {}): Promise<Stack> {
  const dbUrl = process.env['TEST_DATABASE_URL'];
  if (!dbUrl) throw new Error('TEST_DATABASE_URL is not set');
  process.env['DATABASE_URL'] = dbUrl;
  process.env['DATABASE_POOL_SIZE'] = '4';
  const logger = ['error', 'warn'] as const;

  const v1Mod = await import('../../apps/api-v1/src/app.module');
  const v1Cfg = await import('../../apps/api-v1/src/configure-app');
  const v1 = await NestFactory.create(v1Mod.AppModule, { logger: [...logger] });
  v1Cfg.configureApp(v1);
  const v1Url = await listen(v1);

  const v2Mod = await import('../../apps/api-v2/src/app.module');
  const v2Cfg = await import('../../apps/api-v2/src/configure-app');
  const v2 = await NestFactory.create(v2Mod.AppModule, { logger: [...logger] });
  v2Cfg.configureApp(v2);
  const v2Url = await listen(v2);

  process.env['API_V1_URL'] = overrides.v1Url ?? v1Url;
  process.env['API_V2_URL'] = v2Url;
  process.env['UPSTREAM_TIMEOUT_MS'] = '2000';
  const gwMod = await import('../../apps/api-gateway/src/app.module');
  const gwCfg = await import('../../apps/api-gateway/src/configure-app');
  const gw = await NestFactory.create(gwMod.AppModule, { ...gwCfg.GATEWAY_APP_OPTIONS, logger: [...logger] });
  gwCfg.configureApp(gw);
  const gatewayUrl = await listen(gw);

  return {
    gatewayUrl,
    v1Url,
    v2Url,
    close: async () => {
      await gw.close();
      await v1.close();
      await v2.close();
    },
  };
}
