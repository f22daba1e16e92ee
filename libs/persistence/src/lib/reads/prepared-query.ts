import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { readOn, type ReadSource } from './read-replicas';
import type { QueryRow } from '../sql/run';
import { reportIfCancelled } from '../db/statement-cancellations';

/**
 * How many named statements one connection keeps. The read paths build a statement's text from
 * which filters, orders and identifiers a request uses, so a client choosing combinations can
 * name tens of thousands of distinct shapes; each costs the server backend its parse tree and
 * cached plans for as long as the connection lives. Past this many, the least recently used is
 * deallocated. Everyday traffic uses a few dozen shapes, so the hot ones stay prepared.
 */
export const STATEMENTS_PER_CONNECTION = 100;

/** Statement names by text, so the digest is computed once per shape rather than per query. */
const names = new Map<string, string>();
const MAX_NAMES = 2000;

/** SQLSTATE of DEALLOCATE naming a statement the session does not have. */
const INVALID_STATEMENT_NAME = '26000';

/** Each connection's prepared statement names, least recently used first. */
const preparedOn = new WeakMap<PoolClient, Set<string>>();

/**
 * Runs a read query as a named prepared statement on the data source's pool: PostgreSQL plans
 * it once per connection instead of on every request (planning a card lookup costs several times
 * running it). Each connection keeps at most
 * `STATEMENTS_PER_CONNECTION` of them. Outside transactions only: it takes any pooled connection.
 * On a `ReadTarget` it runs where the target sends the read (a replica or the primary).
 */
export function preparedQuery(
  source: ReadSource,
  text: string,
  values: readonly unknown[],
): Promise<QueryRow[]> {
  return readOn(source, (ds) => prepared(ds, text, values));
}

async function prepared(ds: DataSource, text: string, values: readonly unknown[]): Promise<QueryRow[]> {
  const pool = poolOf(ds);
  const name = statementName(text);
  const client = await pool.connect();
  // Checked out, a client has no listener of the pool's: an error it meets between queries (a
  // server that died writes its FATAL right after an answer, in the same chunk) would be emitted
  // with none and end the process. Kept here, it makes the pool discard the client on release.
  let lost: Error | undefined;
  const onError = (error: Error) => (lost = error);
  client.on('error', onError);
  try {
    await makeRoomFor(client, name);
    const result = await client.query<QueryRow>({ name, text, values: values as unknown[] });
    return result.rows;
  } catch (error) {
    reportIfCancelled(error, name);
    throw error;
  } finally {
    client.off('error', onError);
    // A connection that timed out or lost the server has been ended (see `DeadlineClient`), and
    // the pool discards an ended client on release rather than hand it to the next request.
    client.release(lost);
  }
}

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `q_${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(text, name);
  }
  return name;
}

/** Marks `name` as the most recently used on `client`, deallocating the least recent if full. */
async function makeRoomFor(client: PoolClient, name: string): Promise<void> {
  let prepared = preparedOn.get(client);
  if (!prepared) preparedOn.set(client, (prepared = new Set()));
  if (prepared.delete(name)) {
    prepared.add(name);
    return;
  }
  while (prepared.size >= STATEMENTS_PER_CONNECTION) {
    const oldest = prepared.values().next().value as string;
    prepared.delete(oldest);
    try {
      // Quoted: the protocol-level name is case-sensitive and holds base64url's `-`.
      await client.query(`DEALLOCATE "${oldest}"`);
    } catch (error) {
      // A statement whose preparation failed was never created: nothing to free.
      if ((error as { code?: unknown }).code !== INVALID_STATEMENT_NAME) throw error;
    }
    forgetParsed(client, oldest);
  }
  prepared.add(name);
}

/**
 * node-postgres remembers which names it has parsed on a connection and skips the parse step for
 * them; after a DEALLOCATE it must forget the name, or reusing it would run a statement the
 * server no longer has. The driver offers no call for this, so its bookkeeping is edited directly.
 */
function forgetParsed(client: PoolClient, name: string): void {
  const connection = (
    client as unknown as {
      connection?: {
        parsedStatements?: Record<string, unknown>;
        submittedNamedStatements?: Record<string, unknown>;
      };
    }
  ).connection;
  if (!connection?.parsedStatements) throw new Error('node-postgres no longer tracks parsed statements');
  delete connection.parsedStatements[name];
  if (connection.submittedNamedStatements) delete connection.submittedNamedStatements[name];
}
