import 'reflect-metadata';
import { IsIn, IsOptional, IsString, IsUrl, Matches, MaxLength, MinLength } from 'class-validator';
import { IsIntBetween, LOG_LEVELS, readEnvironment, type ServiceLogLevel } from '@tcg/http-service';

/** What an API key may look like here: printable ASCII, as the gateway reads the header. */
const API_KEY_FORMAT = /^[!-~]{1,256}$/;

/**
 * What both transports read: where the API is (the gateway, never a service behind it: every tool
 * call must be metered like any request) and how long one of its answers may take.
 */
export class McpEnvironment {
  /** The API's base address, the gateway's: `http://127.0.0.1:8080` under `npm start`. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  @MaxLength(2048)
  TCG_API_URL = 'http://127.0.0.1:8080';

  /**
   * Longest a tool's API request may take, headers and body; past it the tool answers an error.
   * Below the gateway's MCP_UPSTREAM_TIMEOUT_MS (30 s), so the agent gets the tool's answer
   * rather than the gateway's 504.
   */
  @IsOptional()
  @IsIntBetween(100, 120_000)
  TCG_API_TIMEOUT_MS = 10_000;

  /** Largest API answer a tool reads; a larger one is a tool error (narrow the query). */
  @IsOptional()
  @IsIntBetween(1_024, 64 * 1024 * 1024)
  TCG_API_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

  @IsOptional()
  @IsIn(LOG_LEVELS)
  LOG_LEVEL: ServiceLogLevel = 'log';
}

/** stdio: one caller, whose key is the process's (a desktop client's config passes it). */
export class StdioEnvironment extends McpEnvironment {
  @IsString({ message: 'TCG_API_KEY is required: the API key every tool call is made and metered under' })
  @Matches(API_KEY_FORMAT, { message: 'TCG_API_KEY must be 1 to 256 printable ASCII characters' })
  TCG_API_KEY!: string;
}

/**
 * Streamable HTTP behind the gateway: each request carries its caller's key (the gateway checked
 * it and passes it on), so none is configured here; the gateway's credential is.
 */
export class HttpEnvironment extends McpEnvironment {
  @IsOptional()
  @IsIntBetween(1, 65535)
  PORT = 8083;

  /** Only the gateway calls it: loopback unless set (`0.0.0.0` in a container). */
  @IsOptional()
  @IsString()
  HOST = '127.0.0.1';

  /** The gateway's credential: requests without it are refused (403), as the services do. */
  @IsString()
  @MinLength(16)
  INTERNAL_TOKEN!: string;

  /** Largest JSON-RPC request body; a tool's arguments are a few hundred bytes. */
  @IsOptional()
  @IsIntBetween(1_024, 1_048_576)
  MCP_MAX_BODY_BYTES = 65_536;

  /** MCP requests handled at once; past it a quick 503, not a queue. */
  @IsOptional()
  @IsIntBetween(1, 10_000)
  MCP_MAX_IN_FLIGHT = 64;
}

/**
 * Which transport to serve: `--http` on the command line, else MCP_TRANSPORT (`stdio`, the
 * default: what a desktop client spawns; `http`: what `npm start` and the container run).
 */
export function transportOf(argv: readonly string[], raw: Record<string, unknown>): 'stdio' | 'http' {
  if (argv.includes('--http')) return 'http';
  const value = raw['MCP_TRANSPORT'] ?? 'stdio';
  if (value !== 'stdio' && value !== 'http')
    throw new Error(
      `Invalid configuration: MCP_TRANSPORT must be stdio or http (got '${String(value).slice(0, 32)}')`,
    );
  return value;
}

export function readStdioEnvironment(raw: Record<string, unknown>): StdioEnvironment {
  return readEnvironment(StdioEnvironment, raw);
}

export function readHttpEnvironment(raw: Record<string, unknown>): HttpEnvironment {
  return readEnvironment(HttpEnvironment, raw);
}
