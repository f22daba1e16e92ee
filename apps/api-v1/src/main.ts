import 'reflect-metadata';
import type { Server } from 'node:http';
import { ConsoleLogger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp } from './configure-app';

async function bootstrap(): Promise<void> {
  const logger = new ConsoleLogger({ json: true, colors: false, prefix: 'api-v1' });
  const app = await NestFactory.create(AppModule, { logger });
  configureApp(app);
  const config = app.get(ConfigService);
  const port = config.getOrThrow<number>('PORT');
  // Only the gateway calls this service: a slow or silent sender is cut off rather than holding a
  // socket, and idle keep-alive sockets outlive the gateway's own idle timeout for them.
  const server = app.getHttpServer() as Server & { connectionsCheckingInterval: number };
  server.keepAliveTimeout = config.getOrThrow<number>('SERVER_KEEP_ALIVE_TIMEOUT_MS');
  server.headersTimeout = config.getOrThrow<number>('SERVER_HEADERS_TIMEOUT_MS');
  server.requestTimeout = config.getOrThrow<number>('SERVER_REQUEST_TIMEOUT_MS');
  // Node enforces the two timeouts above only when it sweeps its connections, every 30 s by
  // default (a createServer option that Nest does not pass on); it reads this when it starts
  // listening, so a stalled request is cut within a second of its deadline instead.
  server.connectionsCheckingInterval = 1000;
  await app.listen(port, config.getOrThrow<string>('HOST'));
  logger.log({ msg: 'listening', port }, 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', service: 'api-v1', msg: String(error) })}\n`);
  process.exit(1);
});
