/** Why a download was not given one of the instance's download connections. */
export type SlotRefusal = 'key_share' | 'reserved' | 'full';

/**
 * This instance's download connections (DOWNLOAD_MAX_SOCKETS), shared between keys: one key holds
 * at most `perKey` of them, and the last `reserved` go only to a key with no download in progress
 * here. However many keys read slowly, a key with none in flight finds a connection unless
 * `reserved` other such keys took the reserve meanwhile. A place is taken before any quota unit is
 * charged, so a refusal costs nothing.
 */
export class DownloadSlots {
  private readonly held = new Map<string, number>();
  private total = 0;
  readonly perKey: number;
  readonly reserved: number;

  constructor(
    readonly sockets: number,
    perKey: number,
    reserved: number,
  ) {
    // A pool too small for the configured shares keeps one connection for anyone.
    this.perKey = Math.max(1, Math.min(perKey, sockets));
    this.reserved = Math.max(0, Math.min(reserved, sockets - 1));
  }

  /** A connection for the key's download, as the function that gives it back; or why not. */
  take(keyId: string): (() => void) | SlotRefusal {
    const mine = this.held.get(keyId) ?? 0;
    if (this.total >= this.sockets) return 'full';
    if (mine >= this.perKey) return 'key_share';
    if (mine > 0 && this.total >= this.sockets - this.reserved) return 'reserved';
    this.held.set(keyId, mine + 1);
    this.total += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.total -= 1;
      const left = (this.held.get(keyId) ?? 1) - 1;
      if (left === 0) this.held.delete(keyId);
      else this.held.set(keyId, left);
    };
  }

  /** Downloads in progress on this instance (tests, diagnostics). */
  get inUse(): number {
    return this.total;
  }
}
