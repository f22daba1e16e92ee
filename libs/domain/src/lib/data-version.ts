/**
 * The catalogue's data version: a number that grows with every committed write a read answer could
 * see, in commit order. Between two versions every read answer is a pure function of its request,
 * so answers may be cached under the version they were computed at.
 */
export interface DataVersionSource {
  /** The latest committed version this process knows of; null while it cannot know it. */
  current(): number | null;
  /** Called whenever `current()` changes (to a new version or to null); returns an unsubscribe. */
  onChange(listener: (version: number | null) => void): () => void;
  /**
   * The cards whose rows the versions after `after`, up to `upTo`, wrote (by UUID): an answer made
   * of other cards only is the same at `upTo` as at `after`. Null when any answer may have changed
   * (a write to what many cards share, a range no longer logged, a failed read). A source without
   * it is treated as always answering null.
   */
  changedCards?(after: number, upTo: number): Promise<ReadonlySet<string> | null>;
}
