import { DestinationGuard, type DestinationLimits } from './destination-guard';

const LIMITS: DestinationLimits = {
  timeoutsToOpen: 3,
  openMs: 1000,
  maxOpenMs: 3000,
  attemptsPerWindow: 8,
  windowMs: 10_000,
};

describe('DestinationGuard', () => {
  let now: number;
  let guard: DestinationGuard;
  beforeEach(() => {
    now = 1_000_000;
    guard = new DestinationGuard(LIMITS, () => now);
  });

  const attempt = (destination: string, timedOut: boolean) => {
    expect(guard.admit(destination)).toEqual({ ok: true });
    return guard.record(destination, timedOut);
  };

  it('opens after 3 timeouts in a row, and only on that destination', () => {
    expect(attempt('slow.example', true)).toBeUndefined();
    expect(attempt('slow.example', true)).toBeUndefined();
    expect(attempt('slow.example', true)).toBe(now + 1000);
    expect(guard.closed()).toEqual(['slow.example']);
    expect(guard.admit('slow.example')).toEqual({ ok: false, retryAt: now + 1000 });
    expect(guard.admit('fast.example')).toEqual({ ok: true });
  });

  it('counts timeouts in a row only: an answer in between starts the count again', () => {
    attempt('h', true);
    attempt('h', true);
    attempt('h', false);
    attempt('h', true);
    expect(attempt('h', true)).toBeUndefined();
    expect(guard.closed()).toEqual([]);
  });

  it('lets one trial through once open time has passed: a timeout reopens it for twice as long, an answer closes it', () => {
    for (let i = 0; i < 3; i++) attempt('h', true);
    now += 1000;
    expect(guard.admit('h')).toEqual({ ok: true });
    expect(guard.admit('h')).toMatchObject({ ok: false }); // the trial is under way
    expect(guard.record('h', true)).toBe(now + 2000);
    now += 2000;
    expect(attempt('h', true)).toBe(now + 3000); // capped at maxOpenMs
    now += 3000;
    expect(attempt('h', false)).toBeUndefined();
    expect(guard.closed()).toEqual([]);
    expect(attempt('h', true)).toBeUndefined();
  });

  it('caps the attempts started per destination and window', () => {
    for (let i = 0; i < 8; i++) attempt('busy.example', false);
    expect(guard.admit('busy.example')).toEqual({ ok: false, retryAt: 1_000_000 + 10_000 });
    expect(guard.closed()).toEqual(['busy.example']);
    now += 10_000;
    expect(guard.admit('busy.example')).toEqual({ ok: true });
  });
});
