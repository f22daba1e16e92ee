import 'reflect-metadata';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import pino from 'pino';
import { createPinoLogger, stopWithParent } from '@tcg/http-service';
import { ClientTcgApi } from './api/client-tcg-api';
import { readHttpEnvironment, readStdioEnvironment, transportOf } from './config/environment';
import { createMcpServer } from './tools/mcp-server.factory';
import { startHttpServer } from './transports/http-server';

/**
 * `npm run mcp`: the MCP server over stdio, for a desktop client that spawns it (its key in
 * TCG_API_KEY); `npm run mcp -- --http` (or MCP_TRANSPORT=http): the streamable HTTP service that
 * the gateway's `/mcp` forwards to, each request under its caller's key. Either way every tool call is one API request
 * through the gateway (TCG_API_URL). The configuration is read and checked once, here; a bad value
 * is one fatal line on stderr and exit 1.
 */
async function main(): Promise<void> {
  if (transportOf(process.argv, process.env) === 'http') {
    const env = readHttpEnvironment(process.env);
    const logger = createPinoLogger('mcp-server', env.LOG_LEVEL, 'json');
    const server = await startHttpServer(env, logger);
    logger.info({ msg: 'listening', port: env.PORT, api: env.TCG_API_URL });
    const stop = () => server.close(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    stopWithParent();
    return;
  }
  const env = readStdioEnvironment(process.env);
  // stdout carries the protocol: every log line goes to stderr.
  const logger = createPinoLogger(
    'mcp-server',
    env.LOG_LEVEL,
    'json',
    pino.destination({ fd: 2, sync: true }),
  );
  const api = new ClientTcgApi({
    baseUrl: env.TCG_API_URL,
    apiKey: env.TCG_API_KEY,
    timeoutMs: env.TCG_API_TIMEOUT_MS,
    maxResponseBytes: env.TCG_API_MAX_RESPONSE_BYTES,
  });
  const server = createMcpServer(api, logger);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // The client closing stdin ends the session, and the process with it (pooled sockets to the
  // API would otherwise keep it alive a while).
  process.stdin.once('end', () => process.exit(0));
  logger.info({ msg: 'serving over stdio', api: env.TCG_API_URL });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', service: 'mcp-server', msg: error instanceof Error ? error.message : String(error) })}\n`,
  );
  process.exit(1);
});
