import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { credentialMatches, HEALTH_PATHS, INTERNAL_HEADERS } from '@tcg/http-service';
import { ClientTcgApi } from '../api/client-tcg-api';
import type { HttpEnvironment } from '../config/environment';
import { createMcpServer } from '../tools/mcp-server.factory';

/** The MCP endpoint's path, the same behind the gateway (`/mcp`) as here. */
export const MCP_PATH = '/mcp';

/** JSON-RPC messages one POST may carry (the 2025-03-26 transport's batches; later ones send one). */
const MAX_BATCH = 8;

/**
 * The streamable HTTP transport, stateless: each POST gets its own MCP server bound to the key it
 * carries, and a JSON answer (no SSE stream: every tool answers once), so any instance serves any
 * request and nothing is kept between them. GET and DELETE (a session's stream, its end) are 405,
 * as the transport answers them without sessions. Only the gateway calls it: a request without
 * the gateway's credential is 403 and one without `x-api-key` (which the gateway passes on once
 * it has checked it) is 401.
 */
export function startHttpServer(env: HttpEnvironment, logger: Logger): Promise<Server> {
  let inFlight = 0;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0]!;
    if (HEALTH_PATHS.has(path) && req.method === 'GET') return sendJson(res, 200, { status: 'ok' });
    if (path !== MCP_PATH) return sendRpcError(res, 404, `No route for ${req.method} ${path}.`);
    if (!credentialMatches(env.INTERNAL_TOKEN, header(req, INTERNAL_HEADERS.credential)))
      return sendRpcError(res, 403, 'Requests must come through the API gateway.');
    const apiKey = header(req, 'x-api-key');
    if (!apiKey) return sendRpcError(res, 401, 'Send your API key in the x-api-key header.');
    if (req.method !== 'POST')
      return sendRpcError(res, 405, 'This MCP server is stateless: POST JSON-RPC messages to /mcp.', {
        allow: 'POST',
      });
    if (inFlight >= env.MCP_MAX_IN_FLIGHT)
      return sendRpcError(res, 503, 'The MCP server has too many requests in progress.', {
        'retry-after': '1',
      });
    inFlight++;
    res.once('close', () => inFlight--);
    void serveMcp(req, res, apiKey, env, logger).catch((error: unknown) => {
      logger.error({
        msg: 'MCP request failed',
        error: error instanceof Error ? error.stack : String(error),
      });
      if (!res.headersSent) sendRpcError(res, 500, 'Internal server error.');
      else res.destroy();
    });
  });
  // A client has 10 s for its headers and 30 s for its whole request; idle sockets outlive the
  // gateway's pool's own idle timeout for them (4 s), as the services' do.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(env.PORT, env.HOST, () => resolve(server));
  });
}

async function serveMcp(
  req: IncomingMessage,
  res: ServerResponse,
  apiKey: string,
  env: HttpEnvironment,
  logger: Logger,
): Promise<void> {
  const body = await readBody(req, env.MCP_MAX_BODY_BYTES);
  if (body === 'too-large')
    return sendRpcError(res, 413, `The request body is larger than ${env.MCP_MAX_BODY_BYTES} bytes.`);
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return sendRpcError(res, 400, 'The request body is not JSON.', {}, -32700);
  }
  // A batch fans out into as many API requests at once: a few, not a body's worth.
  if (Array.isArray(message) && message.length > MAX_BATCH)
    return sendRpcError(res, 400, `A batch may hold at most ${MAX_BATCH} messages.`, {}, -32600);
  const api = new ClientTcgApi({
    baseUrl: env.TCG_API_URL,
    apiKey,
    timeoutMs: env.TCG_API_TIMEOUT_MS,
    maxResponseBytes: env.TCG_API_MAX_RESPONSE_BYTES,
  });
  const mcp = createMcpServer(api, logger);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.once('close', () => {
    void transport.close();
    void mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(req, res, message);
}

/** The body as text, or `too-large` past `max` bytes (then the rest is not read). */
function readBody(req: IncomingMessage, max: number): Promise<string | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners('data');
        req.pause();
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** A refusal as the transport words its own: a JSON-RPC error object with no id. */
function sendRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  // Connection: close on a refusal whose body may still be on the wire, so it is never parsed as a request.
  sendJson(
    res,
    status,
    { jsonrpc: '2.0', error: { code, message }, id: null },
    { ...headers, connection: 'close' },
  );
}
