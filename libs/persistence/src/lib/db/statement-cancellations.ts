/** SQLSTATE of a statement the server cancelled: its statement_timeout, or a cancel request. */
const QUERY_CANCELED = '57014';
/** node-postgres's error for a query past `query_timeout` (the client gave up on it). */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * Why a statement was cut short: the server's `statement_timeout`, a cancel request (a client or
 * an operator's `pg_cancel_backend`), or the client's own deadline (the server did not answer
 * within `statement_timeout` and its grace).
 */
export type CancelReason = 'statement_timeout' | 'cancel_request' | 'client_deadline';

/** One statement cut short: why, and its prepared statement's name (a digest, never its values). */
export interface CancelledStatement {
  readonly reason: CancelReason;
  readonly statement: string;
}

/** Why `error` cut its statement short, or undefined when it is another failure. */
export function cancelReason(error: unknown): CancelReason | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.message === QUERY_READ_TIMEOUT) return 'client_deadline';
  if ((error as { code?: unknown }).code !== QUERY_CANCELED) return undefined;
  return /statement timeout/i.test(error.message) ? 'statement_timeout' : 'cancel_request';
}

const listeners = new Set<(cancelled: CancelledStatement) => void>();

/**
 * Calls `listener` for every read statement cut short in this process (the services count and log
 * them); returns how to stop. A listener's own failure never reaches the read.
 */
export function onStatementCancelled(listener: (cancelled: CancelledStatement) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners when `error` cut the statement `statement` short. */
export function reportIfCancelled(error: unknown, statement: string): void {
  const reason = cancelReason(error);
  if (reason === undefined) return;
  for (const listener of listeners) {
    try {
      listener({ reason, statement });
    } catch {
      // Counting and logging are best effort: the read's own error is what the caller needs.
    }
  }
}
