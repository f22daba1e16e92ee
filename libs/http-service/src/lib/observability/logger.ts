import type { LoggerService, LogLevel } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';

/** `LOG_LEVEL` in Nest's names, as the configuration has always taken it. */
export type ServiceLogLevel = Exclude<LogLevel, 'fatal'>;

/** `json`: one JSON object a line (anything not a terminal); `pretty`: one readable line (a terminal). */
export type LogFormat = 'json' | 'pretty';

const PINO_LEVEL: Record<ServiceLogLevel, pino.Level> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** The fields of an access line (see RequestObserver), which the pretty format puts on one line. */
const ACCESS_FIELDS = ['reqId', 'method', 'route', 'version', 'status', 'durationMs', 'keyId', 'cost'];

/**
 * The process's one pino logger. JSON lines carry the level by name (`"level":"info"`), an ISO
 * time and the service, on stdout (errors and fatal lines on stderr); `pretty` is for a person at a terminal, formatted in-process (pino-pretty
 * as a stream, not a worker thread: a terminal reads far fewer lines than a pipe). `destination`
 * is for tests.
 */
export function createPinoLogger(
  service: string,
  level: ServiceLogLevel,
  format: LogFormat,
  destination?: DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level: PINO_LEVEL[level],
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Nothing here logs headers; should a line ever carry them, the secrets are not written.
    redact: {
      paths: ['headers["x-api-key"]', 'headers["x-tcg-internal-credential"]', 'headers.authorization'],
      censor: '[redacted]',
    },
  };
  if (format === 'pretty') {
    return pino(
      options,
      destination ??
        // Loaded only here: a JSON start (every production one) spares the module's load time.
        (require('pino-pretty') as typeof import('pino-pretty'))({
          sync: true,
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: ['pid', 'hostname', 'service', 'context', ...ACCESS_FIELDS].join(','),
          singleLine: true,
          messageFormat: prettyMessage,
        }),
    );
  }
  return pino(
    { ...options, formatters: { level: (label) => ({ level: label }) } },
    destination ??
      // Errors on stderr, as Nest's logger wrote them: a harness that drops stdout still shows them.
      pino.multistream(
        [
          { level: 'trace', stream: pino.destination({ fd: 1 }) },
          { level: 'error', stream: pino.destination({ fd: 2 }) },
        ],
        { dedupe: true },
      ),
  );
}

/** `service context: msg`, and an access line's fields in a fixed order. */
function prettyMessage(log: Record<string, unknown>, messageKey: string): string {
  const where = log['context']
    ? `${String(log['service'])} ${String(log['context'])}`
    : String(log['service']);
  const msg = String(log[messageKey] ?? '');
  if (log['route'] === undefined) return `${where}: ${msg}`;
  const key = log['keyId'] ? ` key=${String(log['keyId'])} cost=${String(log['cost'])}` : '';
  // A request that came without an id (a health check straight to a service) has none to show.
  const id = log['reqId'] ? ` id=${String(log['reqId'])}` : '';
  return `${where}: ${String(log['method'])} ${String(log['route'])} ${String(log['status'])} ${String(log['durationMs'])} ms${key}${id}`;
}

/** Nest's own start-up chatter: modules initialised, controllers and routes mapped, app started. */
const FRAMEWORK_CONTEXTS: ReadonlySet<string> = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Nest's logger interface over pino: every `Logger` of the app and of Nest itself writes through
 * the process's pino logger at LOG_LEVEL, the framework's start-up chatter (about fifty lines a
 * start) at debug rather than info. A message may be a string or an object of fields (`msg` is
 * the message); the last string argument is the context, as Nest passes it.
 */
export class ServiceLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    const context = contextOf(rest);
    this.write(context !== undefined && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }

  error(message: unknown, ...rest: unknown[]): void {
    const context = contextOf(rest);
    // Nest passes (message, stack, context) for an exception, (message, context) otherwise.
    const stack = rest.length >= 2 && typeof rest[0] === 'string' ? rest[0] : undefined;
    this.write('error', message, context, stack);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, contextOf(rest));
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, contextOf(rest));
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, contextOf(rest));
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, contextOf(rest));
  }

  private write(level: pino.Level, message: unknown, context: string | undefined, stack?: string): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    if (context !== undefined) fields['context'] = context;
    if (stack !== undefined) fields['stack'] = stack;
    if (message instanceof Error) {
      this.pino[level]({ ...fields, stack: message.stack }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.pino[level](fields, String(message));
    }
  }
}

function contextOf(rest: readonly unknown[]): string | undefined {
  const last = rest[rest.length - 1];
  return typeof last === 'string' ? last : undefined;
}
