import { AbstractLogger, LogLevel, LogMessage } from 'typeorm';

/** SQLSTATE of a statement cancelled by `statement_timeout`: an expected outcome where it is used. */
const QUERY_CANCELED = '57014';

/**
 * TypeORM's messages as one JSON line each on stderr, like the services' own logs. A failed query
 * is logged with its SQLSTATE but without its parameters (they may hold API-key hashes or user
 * input). Statements cancelled by a deliberate time budget are not failures and are not logged.
 */
export class QueryLogger extends AbstractLogger {
  constructor(private readonly application: string) {
    super(['error', 'warn', 'migration']);
  }

  override logQueryError(error: string | Error, query: string): void {
    const code = typeof error === 'object' ? (error as { code?: string }).code : undefined;
    if (code === QUERY_CANCELED) return;
    this.write('error', { msg: 'query failed', code, error: String(error), query: query.slice(0, 500) });
  }

  protected writeLog(
    level: LogLevel,
    message: LogMessage | string | number | (LogMessage | string | number)[],
  ): void {
    for (const m of Array.isArray(message) ? message : [message]) {
      const text = typeof m === 'object' ? String(m.message) : String(m);
      this.write(level === 'warn' ? 'warn' : level === 'error' ? 'error' : 'info', { msg: text });
    }
  }

  private write(level: string, fields: Record<string, unknown>): void {
    process.stderr.write(
      `${JSON.stringify({ time: new Date().toISOString(), level, context: 'typeorm', application: this.application, ...fields })}\n`,
    );
  }
}
