import type { Card } from './catalogue';

// The card reads' domain side. Their ports live with their callers and implementations: the offset
// pages', lookups' and batches' (`RenderedCardReads`) beside the views that call it in
// `@tcg/rendering`, whose types it answers in; v2's keyset pages' (`CardKeysetReads`) in
// `@tcg/persistence`'s reads.

/**
 * A part or the statistics of a series that the read was asked for. Throws when they are absent:
 * the read and its use disagree, and rendering `undefined` into an answer must never happen.
 */
export function required<S extends object, K extends keyof S>(s: S, key: K): NonNullable<S[K]> {
  const value = s[key];
  if (value === undefined || value === null) throw new Error(`a series was read without its ${String(key)}`);
  return value as NonNullable<S[K]>;
}

/** A card with its variants' JSON texts already joined, comma-separated ('' for none). */
export interface JoinedCard {
  readonly card: Card;
  readonly setName: string;
  readonly gameName: string;
  readonly variantsJson: string;
}
