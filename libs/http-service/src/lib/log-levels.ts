import { ConsoleLogger, type LogLevel } from '@nestjs/common';

const ORDER: readonly LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** The levels a logger prints for `LOG_LEVEL`: that one and every more severe one (fatal always). */
export function logLevelsUpTo(level: Exclude<LogLevel, 'fatal'>): LogLevel[] {
  return ORDER.slice(0, ORDER.indexOf(level) + 1);
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
 * The services' logger: Nest's console logger in JSON, with the framework's start-up chatter
 * (about fifty lines per start) at debug level instead of log, so a start says what matters.
 */
export class ServiceLogger extends ConsoleLogger {
  /** Prints `level` and every more severe one (`LOG_LEVEL`, from the validated configuration). */
  constructor(service: string, level: Exclude<LogLevel, 'fatal'>) {
    super({ json: true, colors: false, prefix: service, logLevels: logLevelsUpTo(level) });
  }

  override log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context)) super.debug(message, ...rest);
    else super.log(message, ...rest);
  }
}
