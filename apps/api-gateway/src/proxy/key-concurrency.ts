/**
 * How many requests each key has in progress on this gateway instance. A place is taken before any
 * quota unit is charged and given back when the client's response closes (finished, cut or
 * abandoned), so a key that holds its places open only refuses itself.
 */
export class KeyConcurrency {
  private readonly inFlight = new Map<string, number>();

  /** One of the key's `limit` places, as the function that gives it back; undefined when all are taken. */
  take(keyId: string, limit: number): (() => void) | undefined {
    const held = this.inFlight.get(keyId) ?? 0;
    if (held >= limit) return undefined;
    this.inFlight.set(keyId, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.inFlight.get(keyId) ?? 1) - 1;
      if (left === 0) this.inFlight.delete(keyId);
      else this.inFlight.set(keyId, left);
    };
  }
}
