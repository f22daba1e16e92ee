import { createHmac } from 'node:crypto';
import { invalidParameter, KeysetPage } from '@tcg/domain';
import type { PageCursors } from '@tcg/rendering';
import { Environment } from '../../config/environment';
import { CardsV2Query } from '../dto/cards-v2-query.schema';
import { CursorCodec, CursorPosition } from './cursor-codec';

/**
 * The cursors of GET /v2/cards' pages, sealed with CURSOR_SECRET (unset: a key derived from
 * INTERNAL_TOKEN, which every instance already shares), so a cursor one instance wrote opens on
 * any other.
 */
export class CardCursors {
  private readonly codec: CursorCodec;

  constructor(env: Pick<Environment, 'CURSOR_SECRET' | 'INTERNAL_TOKEN'>) {
    this.codec = new CursorCodec(
      env.CURSOR_SECRET ?? createHmac('sha256', env.INTERNAL_TOKEN).update('v2-cursor').digest('hex'),
    );
  }

  /** Where the query's cursor points (none: the first page); a cursor on a lookup is a 400. */
  position(query: CardsV2Query): CursorPosition | undefined {
    if (query.cursor === undefined) return undefined;
    const position = this.codec.decode(query.cursor, query.fingerprint);
    if (query.selector.by !== 'browse')
      throw invalidParameter('cursor', query.cursor, 'cursors page through a browse or search, not a lookup');
    return position;
  }

  /**
   * The next and previous cursors of a page read from `position`, each carrying the walk's total
   * (counted on its first page) so later pages need not count again.
   */
  around(
    page: KeysetPage,
    position: CursorPosition | undefined,
    fingerprint: string,
    total: number | null,
  ): PageCursors {
    const first = page.rows[0]?.key;
    const last = page.rows[page.rows.length - 1]?.key;
    const at = (key: readonly string[] | undefined, backward: boolean) =>
      key ? this.codec.encode({ key, backward, ...(total === null ? {} : { total }) }, fingerprint) : null;
    if (position?.backward) {
      // Read backward from a `prev` cursor: the page it came from lies ahead.
      return { next: at(last, false), prev: page.more ? at(first, true) : null };
    }
    return {
      next: page.more ? at(last, false) : null,
      prev: position ? at(first ?? position.key, true) : null,
    };
  }
}
