import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { abbreviate, invalidParameter } from '@tcg/domain';

/** Where a cursor points: just past (or, for `prev`, just before) the card with this sort key. */
export interface CursorPosition {
  readonly key: readonly string[];
  readonly backward: boolean;
  /** The walk's total, counted on its first page: later pages reuse it instead of recounting. */
  readonly total?: number;
}

const ACCEPTED = 'a cursor from meta.cursor or the Link header of a response to this same query';

/**
 * The longest cursor accepted. Ours hold a sort key (a relevance, a set id and card number, a
 * UUID), a 22-character digest and a 43-character MAC: under 400 characters for set ids of 100.
 */
export const MAX_CURSOR_LENGTH = 1024;

/**
 * Opaque, tamper-evident cursors bound to the query that produced them (docs/spec/decisions.md): the payload
 * holds the position and a digest of the query's fingerprint, and an HMAC over both seals it. A
 * changed byte, a cursor from another deployment's secret or one replayed with other filters is a 400.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(position: CursorPosition, fingerprint: string): string {
    const payload = Buffer.from(
      JSON.stringify({
        k: position.key,
        b: position.backward ? 1 : 0,
        q: digest(fingerprint),
        ...(position.total === undefined ? {} : { t: position.total }),
      }),
    ).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  decode(cursor: string, fingerprint: string): CursorPosition {
    // Before any work on it: splitting, hashing and decoding all grow with its length.
    if (cursor.length > MAX_CURSOR_LENGTH)
      throw invalidParameter(
        'cursor',
        abbreviate(cursor),
        `${ACCEPTED}; at most ${MAX_CURSOR_LENGTH} characters`,
      );
    const [payload, mac, extra] = cursor.split('.');
    if (!payload || !mac || extra !== undefined || !this.verify(payload, mac))
      throw invalidParameter(
        'cursor',
        abbreviate(cursor),
        `${ACCEPTED}; this one was altered or is not ours`,
      );
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      k: string[];
      b: number;
      q: string;
      t?: number;
    };
    if (body.q !== digest(fingerprint))
      throw invalidParameter(
        'cursor',
        abbreviate(cursor),
        `${ACCEPTED}; this one belongs to a query with other filters, order or regions`,
      );
    return body.t === undefined
      ? { key: body.k, backward: body.b === 1 }
      : { key: body.k, backward: body.b === 1, total: body.t };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }

  private verify(payload: string, mac: string): boolean {
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function digest(fingerprint: string): string {
  return createHash('sha256').update(fingerprint).digest('base64url').slice(0, 22);
}
