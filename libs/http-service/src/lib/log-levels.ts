import type { LogLevel } from '@nestjs/common';

const ORDER: readonly LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** The levels a logger prints for `LOG_LEVEL`: that one and every more severe one (fatal always). */
export function logLevelsUpTo(level: Exclude<LogLevel, 'fatal'>): LogLevel[] {
  return ORDER.slice(0, ORDER.indexOf(level) + 1);
}
