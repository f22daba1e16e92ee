import type { DataVersionSource } from '@tcg/domain';

/**
 * A data version source a test moves by hand (`set`), telling its listeners as the real one does;
 * the cards each range changed are what `changes` says.
 */
export class ManualVersions implements DataVersionSource {
  private readonly listeners = new Set<(version: number | null) => void>();

  constructor(private version: number | null = 1) {}

  /** How many listeners are subscribed: 0 once every subscriber has let go. */
  get listening(): number {
    return this.listeners.size;
  }

  current(): number | null {
    return this.version;
  }

  onChange(listener: (version: number | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** What `changedCards` answers: null (anything may have changed) unless a test says otherwise. */
  changes: (after: number, upTo: number) => Promise<ReadonlySet<string> | null> = async () => null;
  /** The ranges `changedCards` was asked for, in order. */
  readonly asked: [number, number][] = [];

  changedCards(after: number, upTo: number): Promise<ReadonlySet<string> | null> {
    this.asked.push([after, upTo]);
    return this.changes(after, upTo);
  }

  set(version: number | null): void {
    this.version = version;
    for (const listener of this.listeners) listener(version);
  }
}
