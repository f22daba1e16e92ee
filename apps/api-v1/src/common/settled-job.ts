import type { DataVersionSource } from '@tcg/domain';

export interface SettledJobOptions {
  /** Each change to a version (not to null) asks for a run. */
  versions: DataVersionSource;
  /** How long a run waits after a version, so that versions that keep coming share one run. */
  settleMs: number;
  /**
   * Where that wait counts from. `last`: each new version restarts it, so the run comes once
   * versions have stopped for `settleMs` (a generation not worth starting mid-import). `first`:
   * it does not, so the run comes at most `settleMs` after the first version not yet run, however
   * many follow (an evaluation that must not be put off for long).
   */
  settleFrom: 'first' | 'last';
  /** Also runs this often, version or not; never when absent. */
  everyMs?: number;
  /** How long `stop` waits for the run under way before returning anyway. */
  stopWaitMs: number;
  /** One run; `signal` aborts when the job stops. */
  run: (signal: AbortSignal) => Promise<void>;
  /** A run that failed: the job goes on. */
  onError: (error: unknown) => void;
}

/**
 * A background job that runs once data versions have settled, and every so often: one run at a
 * time in this process; a version or tick that comes during a run asks for one more after it,
 * settled again (the run under way may have read the data before that version). Its timers do
 * not keep the process alive; `stop` aborts the run under way and waits for it, for a while.
 */
export class SettledJob {
  private readonly abort = new AbortController();
  private unsubscribe: (() => void) | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  private everyTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly options: SettledJobOptions) {}

  /** Listens for versions, and runs once settled for what changed before it listened. */
  start(): void {
    this.unsubscribe = this.options.versions.onChange((version) => {
      if (version !== null) this.settle();
    });
    this.settle();
    if (this.options.everyMs === undefined) return;
    this.everyTimer = setInterval(() => this.run(), this.options.everyMs);
    this.everyTimer.unref();
  }

  /**
   * Stops listening and ticking, aborts the run under way, and waits for it and for `alsoWaitFor`
   * (the caller's own work) until they end or `stopWaitMs` has passed. No run starts after it.
   */
  async stop(alsoWaitFor: readonly (Promise<unknown> | undefined)[] = []): Promise<void> {
    this.unsubscribe?.();
    clearTimeout(this.settleTimer);
    clearInterval(this.everyTimer);
    this.abort.abort(new Error('shutting down'));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([this.running, ...alsoWaitFor]),
      new Promise((resolve) => (timer = setTimeout(resolve, this.options.stopWaitMs))),
    ]);
    clearTimeout(timer);
  }

  /** Starts the wait, or (settling from the last version) starts it again; never once stopped. */
  private settle(): void {
    if (this.abort.signal.aborted) return;
    if (this.settleTimer) {
      if (this.options.settleFrom === 'first') return;
      clearTimeout(this.settleTimer);
    }
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      this.run();
    }, this.options.settleMs);
    this.settleTimer.unref();
  }

  private run(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.options
      .run(this.abort.signal)
      .catch(this.options.onError)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.settle();
        }
      });
  }
}
