/** How a sender spares one destination (a URL's host and port) that does not answer. */
export interface DestinationLimits {
  /** Consecutive attempts that timed out after which the breaker opens. */
  readonly timeoutsToOpen: number;
  /** How long a breaker first stays open; each reopening without a success doubles it. */
  readonly openMs: number;
  /** The longest a breaker stays open. */
  readonly maxOpenMs: number;
  /** At most this many attempts to one destination start within one window … */
  readonly attemptsPerWindow: number;
  /** … of this many milliseconds. */
  readonly windowMs: number;
}

export const DESTINATION_LIMITS: DestinationLimits = {
  timeoutsToOpen: 3,
  openMs: 60_000,
  maxOpenMs: 15 * 60_000,
  attemptsPerWindow: 3_000,
  windowMs: 60_000,
};

interface DestinationState {
  timeouts: number;
  /** 0: closed. Past it: half-open (one attempt tries the destination again). */
  openUntil: number;
  /** How many times in a row it opened, for the doubling. */
  opened: number;
  trying: boolean;
  windowStart: number;
  attempts: number;
}

/**
 * One sender's view of its destinations: a breaker per destination (open after
 * `timeoutsToOpen` timeouts in a row; while open, nothing is sent there; once the time has passed,
 * one attempt at a time until one ends without a timeout, which closes it), and a cap on the
 * attempts started per window. In memory, per instance: each instance protects its own slots.
 */
export class DestinationGuard {
  private readonly states = new Map<string, DestinationState>();

  constructor(
    private readonly limits: DestinationLimits = DESTINATION_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Destinations nothing may be sent to now (open, half-open with its one trial under way, or out of attempts). */
  closed(): string[] {
    const now = this.clock();
    const out: string[] = [];
    for (const [destination, state] of this.states) {
      if (this.refusal(state, now) !== undefined) out.push(destination);
      else if (
        state.openUntil === 0 &&
        state.timeouts === 0 &&
        now - state.windowStart >= this.limits.windowMs
      )
        this.states.delete(destination); // nothing left to remember
    }
    return out;
  }

  /**
   * Whether an attempt to `destination` may start now; if it may, it is counted. If not: when it
   * may be tried again.
   */
  admit(destination: string): { ok: true } | { ok: false; retryAt: number } {
    const now = this.clock();
    const state = this.state(destination, now);
    const refused = this.refusal(state, now);
    if (refused !== undefined) return { ok: false, retryAt: refused };
    if (state.openUntil !== 0) state.trying = true; // half-open: this is the one trial
    state.attempts += 1;
    return { ok: true };
  }

  /**
   * An attempt's end. Returns the time until which the breaker is now open when this attempt
   * opened it (the caller puts that destination's events off until then).
   */
  record(destination: string, timedOut: boolean): number | undefined {
    const now = this.clock();
    const state = this.state(destination, now);
    const trial = state.trying;
    state.trying = false;
    if (!timedOut) {
      state.timeouts = 0;
      state.openUntil = 0;
      state.opened = 0;
      return undefined;
    }
    state.timeouts += 1;
    if (trial || (state.openUntil === 0 && state.timeouts >= this.limits.timeoutsToOpen)) {
      const openFor = Math.min(this.limits.maxOpenMs, this.limits.openMs * 2 ** state.opened);
      state.opened += 1;
      state.openUntil = now + openFor;
      return state.openUntil;
    }
    return undefined;
  }

  private state(destination: string, now: number): DestinationState {
    let state = this.states.get(destination);
    if (!state) {
      state = { timeouts: 0, openUntil: 0, opened: 0, trying: false, windowStart: now, attempts: 0 };
      this.states.set(destination, state);
    }
    if (now - state.windowStart >= this.limits.windowMs) {
      state.windowStart = now;
      state.attempts = 0;
    }
    return state;
  }

  /** When sending is possible again, or undefined if it is now. */
  private refusal(state: DestinationState, now: number): number | undefined {
    if (state.openUntil > now) return state.openUntil;
    if (state.openUntil !== 0 && state.trying) return now + this.limits.openMs;
    const windowEnds = state.windowStart + this.limits.windowMs;
    if (now < windowEnds && state.attempts >= this.limits.attemptsPerWindow) return windowEnds;
    return undefined;
  }
}
