import { apiKeyShape, ApiKeySigner, hashApiKey } from '@tcg/domain';

/**
 * What the gateway can tell of a presented key from memory alone: `absent`, `malformed` (not of
 * either shape keys are issued in), `forged` (a `checked` key whose check does not verify, or a
 * `legacy` one that is not among the legacy keys still active), `unverifiable` (a `legacy` one
 * before those keys have been read), else `plausible`: only a plausible key is looked up.
 */
export type KeyCheck = 'absent' | 'malformed' | 'forged' | 'unverifiable' | 'plausible';

export interface LegacyKeySetOptions {
  /** How often the set is read again (keys revoked or added meanwhile). */
  readonly refreshMs: number;
  /** Longest one read may take before it counts as failed, once a read has succeeded. */
  readonly timeoutMs: number;
  /**
   * The same for the reads until then (at boot): longer, as the first may meet a cold database
   * and cache, and legacy keys are not served until one succeeds.
   */
  readonly firstTimeoutMs: number;
  /** Told when a read fails (the set in use, if any, is kept). */
  readonly onError?: (error: unknown) => void;
  /** Told the set's size after each read. */
  readonly onLoad?: (size: number) => void;
}

/** After a failed read, how soon it is tried again (unless the refresh interval is shorter). */
const RETRY_MS = 5_000;

/**
 * The digests of the active keys issued before keys carried a check (`legacy`), read from the
 * database at start and every `refreshMs`. Membership is answered from memory; until the first
 * read has succeeded it is unknown, and no legacy-shaped key is looked up meanwhile: a flood of
 * them at a gateway that started while the database was slow or away costs no lookup either.
 */
export class LegacyKeySet {
  private digests: Set<string> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly read: () => Promise<Buffer[]>,
    private readonly options: LegacyKeySetOptions,
  ) {}

  /** Reads the set once (within `firstTimeoutMs`; a failure is reported, not thrown), then keeps it fresh. */
  async start(): Promise<void> {
    const ok = await this.refresh();
    this.schedule(ok);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Whether the key's digest is in the set; undefined until the set is first read. No I/O. */
  mayHold(keyHash: Buffer): boolean | undefined {
    return this.digests?.has(keyHash.toString('base64'));
  }

  get loaded(): boolean {
    return this.digests !== undefined;
  }

  private schedule(lastOk: boolean): void {
    if (this.stopped) return;
    const delay = lastOk ? this.options.refreshMs : Math.min(RETRY_MS, this.options.refreshMs);
    this.timer = setTimeout(() => void this.refresh().then((ok) => this.schedule(ok)), delay);
    this.timer.unref();
  }

  private async refresh(): Promise<boolean> {
    let timeout: NodeJS.Timeout | undefined;
    const timeoutMs = this.loaded ? this.options.timeoutMs : this.options.firstTimeoutMs;
    try {
      const hashes = await Promise.race([
        this.read(),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(
            () => reject(new Error(`legacy key digests not read within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
      this.digests = new Set(hashes.map((h) => h.toString('base64')));
      this.options.onLoad?.(this.digests.size);
      return true;
    } catch (error) {
      this.options.onError?.(error);
      return false;
    } finally {
      clearTimeout(timeout);
    }
  }
}

/**
 * The in-memory test every presented key passes before any lookup, so that an unknown or forged
 * key costs a few microseconds of CPU and nothing else: a `checked` key's HMAC under
 * API_KEY_SECRET (or a previous secret), a `legacy` key's digest in `LegacyKeySet`.
 */
export class ApiKeyChecker {
  constructor(
    private readonly signer: ApiKeySigner,
    private readonly legacy: LegacyKeySet,
  ) {}

  check(presented: string | undefined): KeyCheck {
    if (presented === undefined) return 'absent';
    const shape = apiKeyShape(presented);
    if (shape === undefined) return 'malformed';
    if (shape === 'checked') return this.signer.verify(presented) ? 'plausible' : 'forged';
    const held = this.legacy.mayHold(hashApiKey(presented));
    return held === undefined ? 'unverifiable' : held ? 'plausible' : 'forged';
  }
}
