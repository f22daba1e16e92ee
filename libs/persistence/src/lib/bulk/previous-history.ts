import { BulkSnapshot, HISTORY_FORMAT } from '@tcg/domain';
import { pipeline, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { sql } from 'kysely';
import { rowSchema } from '../sql/row-schema';
import { rowOf, rowsOf, type Connection } from '../sql/run';
import { latestSnapshot, readChunk } from './bulk-snapshot.repository';
import { seriesKey } from '../prices';
import { PreviousHistory, PreviousLine, previousLine } from './history-rows';

const LATER = rowSchema('bulk history card after the page', { later: 'boolean' });
const TRUNCATED = rowSchema('bulk history series truncated', { truncated: 'boolean' });

/** Whether `price_series` was truncated (or the log begun: the migration) after version `since`. */
export function truncatedSinceStatement(since: number) {
  return sql`SELECT EXISTS (SELECT 1 FROM price_series_changes
                            WHERE variant_uuid IS NULL AND version > ${since}) AS truncated`;
}

/**
 * Whether the game's card `cardId` now comes after the card `lastUuid` in the browse order (no
 * row: the card is gone).
 */
export function cardAfterStatement(gameId: string, cardId: string, lastUuid: string) {
  return sql`SELECT (c.sort_key, c.uuid) > (l.sort_key, l.uuid) AS later
     FROM cards c, cards l
     WHERE c.game_id = ${gameId} AND c.id = ${cardId} AND l.uuid = ${lastUuid}::uuid`;
}

/**
 * The game's newest history file, read line by line as a generation pages through the cards
 * (`historyLines`): its parts are read one at a time from `client` and gunzipped as the lines are
 * taken, so memory holds a part and a page's lines whatever the file's size.
 *
 * Both files list cards in the browse order, so a page's previous lines are the next ones of the
 * file: taken while their card is on the page; a line of a card that now comes after the page waits
 * for its page; one of a card that is gone, or that moved before this page (whose series were then
 * read whole), is dropped.
 */
export class PreviousHistoryFile implements PreviousHistory {
  private readonly lines: AsyncGenerator<string>;
  /** The next line of the file, read and not yet taken. */
  private next: PreviousLine | undefined;
  private done = false;

  private constructor(
    private readonly client: Connection,
    private readonly gameId: string,
    private readonly snapshot: BulkSnapshot,
  ) {
    this.lines = this.textLines();
  }

  /**
   * The game's newest complete history file, or null when it has none or `price_series` was
   * truncated since (the change log does not list what that removed).
   */
  static async open(client: Connection, gameId: string): Promise<PreviousHistoryFile | null> {
    const snapshot = await latestSnapshot(client, gameId, HISTORY_FORMAT);
    if (!snapshot) return null;
    const { truncated } = await rowOf(client, TRUNCATED, truncatedSinceStatement(snapshot.dataVersion));
    return truncated ? null : new PreviousHistoryFile(client, gameId, snapshot);
  }

  get version(): number {
    return this.snapshot.dataVersion;
  }

  async linesOf(
    cardIds: ReadonlySet<string>,
    lastCardUuid: string,
  ): Promise<ReadonlyMap<string, PreviousLine>> {
    const taken = new Map<string, PreviousLine>();
    /** Cards not on the page, and whether each comes after it. */
    const after = new Map<string, boolean>();
    for (;;) {
      const line = await this.peek();
      if (!line) return taken;
      const card = line.head.card_id;
      if (!cardIds.has(card)) {
        let later = after.get(card);
        if (later === undefined) {
          const rows = await rowsOf(this.client, LATER, cardAfterStatement(this.gameId, card, lastCardUuid));
          later = rows[0]?.later ?? false;
          after.set(card, later);
        }
        if (later) return taken;
      } else taken.set(seriesKey(line.head.variant_uuid, line.head.region), line);
      this.next = undefined;
    }
  }

  /** Stops reading the file (a generation that ends early). */
  close(): void {
    void this.lines.return(undefined);
  }

  private async peek(): Promise<PreviousLine | undefined> {
    if (this.next || this.done) return this.next;
    const read = await this.lines.next();
    if (read.done) {
      this.done = true;
      return undefined;
    }
    this.next = previousLine(read.value);
    return this.next;
  }

  /** The file's lines, without their '\n'; a part missing or a broken gzip stream throws. */
  private async *textLines(): AsyncGenerator<string> {
    const gunzip = createGunzip();
    // One part read ahead at most. A failure of either side destroys both, and the loop below
    // throws it.
    pipeline(Readable.from(this.parts(), { highWaterMark: 1 }), gunzip, () => undefined);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for await (const text of gunzip) {
      rest += decoder.write(text as Buffer);
      let start = 0;
      let end: number;
      while ((end = rest.indexOf('\n', start)) >= 0) {
        yield rest.slice(start, end);
        start = end + 1;
      }
      rest = rest.slice(start);
    }
    if (rest + decoder.end() !== '') throw new Error(`history file ${this.snapshot.id} ends inside a line`);
  }

  private async *parts(): AsyncGenerator<Buffer> {
    for (let seq = 0; seq < this.snapshot.chunks; seq++) {
      const part = await readChunk(this.client, this.snapshot.id, seq);
      if (!part) throw new Error(`history file ${this.snapshot.id} lost its part ${seq} while read`);
      yield part;
    }
  }
}
