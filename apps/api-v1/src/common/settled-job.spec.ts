import { ManualVersions } from '@tcg/http-service/testing';
import { SettledJob, type SettledJobOptions } from './settled-job';

/** Runs the test ends by hand: each is pending until `finish` (or `fail`) is called. */
class Runs {
  readonly signals: AbortSignal[] = [];
  private readonly ends: { resolve: () => void; reject: (error: Error) => void }[] = [];
  /** Runs under way at once, at most. */
  maxAtOnce = 0;
  private underWay = 0;

  get count(): number {
    return this.signals.length;
  }

  run = (signal: AbortSignal): Promise<void> => {
    this.signals.push(signal);
    this.maxAtOnce = Math.max(this.maxAtOnce, ++this.underWay);
    return new Promise<void>((resolve, reject) => this.ends.push({ resolve, reject })).finally(
      () => this.underWay--,
    );
  };

  /** Ends the oldest run not yet ended, and lets its continuations run. */
  async finish(): Promise<void> {
    this.ends.shift()?.resolve();
    await jest.advanceTimersByTimeAsync(0);
  }

  async fail(error: Error): Promise<void> {
    this.ends.shift()?.reject(error);
    await jest.advanceTimersByTimeAsync(0);
  }
}

const SETTLE_MS = 500;
const STOP_WAIT_MS = 5_000;

function setup(more: Partial<SettledJobOptions> = {}) {
  const versions = new ManualVersions();
  const runs = new Runs();
  const errors: unknown[] = [];
  const job = new SettledJob({
    versions,
    settleMs: SETTLE_MS,
    settleFrom: 'last',
    stopWaitMs: STOP_WAIT_MS,
    run: runs.run,
    onError: (error) => errors.push(error),
    ...more,
  });
  return { versions, runs, errors, job };
}

describe('SettledJob', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs once settled after starting, for what changed before it listened', async () => {
    const { runs, job } = setup();
    job.start();
    await jest.advanceTimersByTimeAsync(SETTLE_MS - 1);
    expect(runs.count).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs.count).toBe(1);
    await runs.finish();
    await jest.advanceTimersByTimeAsync(10 * SETTLE_MS);
    expect(runs.count).toBe(1);
  });

  it('settling from the last version: each version restarts the wait, however long they keep coming', async () => {
    const { versions, runs, job } = setup({ settleFrom: 'last' });
    job.start();
    for (let version = 2; version < 12; version++) {
      await jest.advanceTimersByTimeAsync(SETTLE_MS - 1);
      versions.set(version);
    }
    expect(runs.count).toBe(0);
    await jest.advanceTimersByTimeAsync(SETTLE_MS - 1);
    expect(runs.count).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs.count).toBe(1);
  });

  it('settling from the first version: runs settleMs after it, however many follow', async () => {
    const { versions, runs, job } = setup({ settleFrom: 'first' });
    job.start();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    expect(runs.count).toBe(1);
    await runs.finish();
    versions.set(2);
    for (let version = 3; version < 7; version++) {
      await jest.advanceTimersByTimeAsync(SETTLE_MS / 5);
      versions.set(version);
    }
    expect(runs.count).toBe(1);
    await jest.advanceTimersByTimeAsync(SETTLE_MS / 5);
    expect(runs.count).toBe(2);
  });

  it('does not run when the version becomes unknown (null)', async () => {
    const { versions, runs, job } = setup();
    job.start();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    await runs.finish();
    versions.set(null);
    await jest.advanceTimersByTimeAsync(10 * SETTLE_MS);
    expect(runs.count).toBe(1);
  });

  it.each(['first', 'last'] as const)(
    'settling from the %s version: one run at a time, and one more after it (settled again) for the versions that came during it',
    async (settleFrom) => {
      const { versions, runs, job } = setup({ settleFrom });
      job.start();
      await jest.advanceTimersByTimeAsync(SETTLE_MS);
      expect(runs.count).toBe(1);
      for (let version = 2; version < 6; version++) {
        versions.set(version);
        await jest.advanceTimersByTimeAsync(SETTLE_MS);
      }
      expect(runs.count).toBe(1);
      await runs.finish();
      await jest.advanceTimersByTimeAsync(SETTLE_MS - 1);
      expect(runs.count).toBe(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(runs.count).toBe(2);
      await runs.finish();
      await jest.advanceTimersByTimeAsync(10 * SETTLE_MS);
      expect(runs.count).toBe(2);
      expect(runs.maxAtOnce).toBe(1);
    },
  );

  it('runs every everyMs without a version, and a tick during a run asks for one more after it', async () => {
    const { runs, job } = setup({ everyMs: 60_000 });
    job.start();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    await runs.finish();
    await jest.advanceTimersByTimeAsync(60_000 - SETTLE_MS - 1);
    expect(runs.count).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs.count).toBe(2);
    // This run outlasts the next tick: one more run once it has ended and settled.
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs.count).toBe(2);
    await runs.finish();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    expect(runs.count).toBe(3);
    expect(runs.maxAtOnce).toBe(1);
  });

  it('does not run periodically without everyMs', async () => {
    const { runs, job } = setup();
    job.start();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    await runs.finish();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(runs.count).toBe(1);
  });

  it('hands a failed run to onError and goes on', async () => {
    const { versions, runs, errors, job } = setup();
    job.start();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    const failure = new Error('connection refused');
    await runs.fail(failure);
    expect(errors).toEqual([failure]);
    versions.set(2);
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    expect(runs.count).toBe(2);
  });

  it('keeps no timer of its own from letting the process exit', async () => {
    const setTimeoutSpy = jest.spyOn(globalThis, 'setTimeout');
    const setIntervalSpy = jest.spyOn(globalThis, 'setInterval');
    const { versions, runs, job } = setup({ everyMs: 60_000 });
    job.start();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    versions.set(2);
    await runs.finish();
    const timers = [...setTimeoutSpy.mock.results, ...setIntervalSpy.mock.results].map(
      (result) => result.value as NodeJS.Timeout,
    );
    expect(timers.length).toBeGreaterThanOrEqual(3);
    expect(timers.map((timer) => timer.hasRef())).toEqual(timers.map(() => false));
  });

  it('stop aborts the run under way and waits for it to end', async () => {
    const { versions, runs, job } = setup();
    job.start();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    const [signal] = runs.signals;
    expect(signal!.aborted).toBe(false);
    let stopped = false;
    void job.stop().then(() => (stopped = true));
    expect(versions.listening).toBe(0);
    expect(signal!.aborted).toBe(true);
    expect((signal!.reason as Error).message).toBe('shutting down');
    await jest.advanceTimersByTimeAsync(STOP_WAIT_MS - 1);
    expect(stopped).toBe(false);
    await runs.finish();
    expect(stopped).toBe(true);
  });

  it('stop waits stopWaitMs at most for a run that does not end', async () => {
    const { runs, job } = setup();
    job.start();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    expect(runs.count).toBe(1);
    let stopped = false;
    void job.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(STOP_WAIT_MS - 1);
    expect(stopped).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(stopped).toBe(true);
  });

  it("stop waits for the caller's other work within the same deadline", async () => {
    const { job } = setup();
    job.start();
    let otherDone: () => void = () => undefined;
    const other = new Promise<void>((resolve) => (otherDone = resolve));
    let stopped = false;
    void job.stop([other, undefined]).then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(STOP_WAIT_MS / 2);
    expect(stopped).toBe(false);
    otherDone();
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(true);

    const second = setup();
    let stoppedAnyway = false;
    void second.job.stop([new Promise(() => undefined)]).then(() => (stoppedAnyway = true));
    await jest.advanceTimersByTimeAsync(STOP_WAIT_MS);
    expect(stoppedAnyway).toBe(true);
  });

  it('stop without start returns at once', async () => {
    const { runs, job } = setup({ everyMs: 60_000 });
    await job.stop();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(runs.count).toBe(0);
  });

  it('never runs after stop: not settled, not periodic, not the one more a run asked for', async () => {
    const { versions, runs, job } = setup({ everyMs: 60_000 });
    job.start();
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    expect(runs.count).toBe(1);
    versions.set(2); // during the run: would ask for one more after it
    await jest.advanceTimersByTimeAsync(SETTLE_MS);
    const stopping = job.stop();
    versions.set(3);
    await runs.finish();
    await stopping;
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(runs.count).toBe(1);
  });

  it('does not run when stopped before the settle timer fires', async () => {
    const { runs, job } = setup({ everyMs: 60_000 });
    job.start();
    await job.stop();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(runs.count).toBe(0);
  });
});
