import type { DataVersionSource } from '@tcg/domain';

/** A data version source a test moves by hand (`set`), telling its listeners as the real one does. */
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

  set(version: number | null): void {
    this.version = version;
    for (const listener of this.listeners) listener(version);
  }
}
