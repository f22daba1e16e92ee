import { idValueOf, type AssertedIds, type IdAssertion, type IdFeed, type IdKind } from '@tcg/persistence';

/**
 * The ids a feed run says its cards and variants have, gathered per write unit and written with
 * that unit's writes (the id crosswalk, docs/id-crosswalk.md). A value not shaped as its kind (a
 * product id that is not a positive integer) is not recorded. Without a run id (a mapping called
 * outside a recorded run, as some unit tests do) nothing is gathered.
 */
export class AssertedIdsOfRun {
  private ids: IdAssertion[] = [];

  constructor(
    private readonly feed: IdFeed,
    private readonly runId: string | undefined,
    private readonly day?: string,
  ) {}

  /** The card's (variantUuid null) or variant's id of `kind`, when `text` is one. */
  add(cardUuid: string, variantUuid: string | null, kind: IdKind, text: string | null | undefined): void {
    if (this.runId === undefined || text === null || text === undefined) return;
    const value = idValueOf(kind, text);
    if (value !== undefined) this.ids.push({ cardUuid, variantUuid, kind, value });
  }

  /** What was gathered since the last call, for the unit's write; undefined when nothing was. */
  take(): AssertedIds | undefined {
    if (this.runId === undefined || this.ids.length === 0) return undefined;
    const ids = this.ids;
    this.ids = [];
    return { feed: this.feed, runId: this.runId, day: this.day, ids };
  }
}
