/** The connection a held answer is to go out on. */
export interface HeldConnection {
  destroy(): unknown;
}

/** What the delay needs of a response: whether it is still to be sent, and its close. */
export interface HeldResponse {
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

export interface BadKeyDelayOptions {
  /** How long an answer waits at least (AUTH_FAILURE_DELAY_MS); 0 sends at once. */
  readonly delayMs: number;
  /** Answers waiting at once, at most, whoever they are for (AUTH_FAILURE_MAX_DELAYED). */
  readonly maxWaiting: number;
  /** Answers one client address gets per `delayMs`, at most (AUTH_FAILURE_ANSWERS_PER_ADDRESS). */
  readonly perAddress: number;
  /** Told each time an answer goes at once because `maxWaiting` are already waiting. */
  readonly onOverflow?: () => void;
  readonly clock?: () => number;
}

/** When an address's next answer may go, and how many of its answers wait. */
interface AddressQueue {
  nextMs: number;
  waiting: number;
}

/**
 * Holds the answers that say a key is bad, so that a client sending bad keys as fast as it gets
 * answers (a closed loop) cannot take the gateway's CPU: each answer waits `delayMs`, and one
 * client address's answers go no faster than `perAddress` per `delayMs`, however many
 * connections it opens (they wait their turn, longer than `delayMs` then). A wait is a timer
 * only: no CPU while it lasts. At most `maxWaiting` answers wait at once, so that the held
 * connections cannot grow without bound; past it an answer goes at once and closes its
 * connection, so that the client pays a new connection for its next bad key. A client that leaves
 * while its answer waits frees its place.
 *
 * A bad key parsed on a connection whose last bad key's answer still waits was pipelined behind
 * it (a closed loop waits for its answer; HTTP clients do not pipeline by default): Node parses
 * pipelined requests as fast as they come, whatever the answers, so that connection would get the
 * gateway's CPU again. It is cut at once; the answer waiting on it is dropped with it.
 */
export class BadKeyDelay {
  private held = 0;
  /** Connections with an answer waiting. */
  private readonly holding = new WeakSet<HeldConnection>();
  /** Addresses with an answer waiting (so at most `maxWaiting` of them). */
  private readonly addresses = new Map<string, AddressQueue>();
  private readonly spacingMs: number;
  private readonly clock: () => number;

  constructor(private readonly options: BadKeyDelayOptions) {
    this.spacingMs = options.delayMs / options.perAddress;
    this.clock = options.clock ?? Date.now;
  }

  /** Answers waiting now. */
  get waiting(): number {
    return this.held;
  }

  /**
   * Calls `send` once the answer's turn comes (`close` false), or at once (`close` true) when too
   * many wait; or cuts `connection` when an answer already waits on it. `address`: the client's,
   * as the auth-failure throttle counts it (an IPv6 /64 as one).
   */
  hold(res: HeldResponse, send: (close: boolean) => void, connection: HeldConnection, address: string): void {
    const { delayMs, maxWaiting } = this.options;
    if (delayMs <= 0) {
      send(false);
      return;
    }
    if (this.holding.has(connection)) {
      connection.destroy();
      return;
    }
    if (this.held >= maxWaiting) {
      this.options.onOverflow?.();
      send(true);
      return;
    }
    const now = this.clock();
    let queue = this.addresses.get(address);
    if (queue === undefined) this.addresses.set(address, (queue = { nextMs: 0, waiting: 0 }));
    const dueMs = Math.max(now + delayMs, queue.nextMs);
    queue.nextMs = dueMs + this.spacingMs;
    queue.waiting++;
    this.held++;
    this.holding.add(connection);
    let waiting = true;
    const release = (): void => {
      if (!waiting) return;
      waiting = false;
      this.held--;
      this.holding.delete(connection);
      if (--queue.waiting === 0) this.addresses.delete(address);
      clearTimeout(timer);
      res.off('close', release);
    };
    const timer = setTimeout(() => {
      release();
      if (!res.destroyed && !res.writableEnded) send(false);
    }, dueMs - now);
    // A wait never holds the process up at shutdown: the server's own grace period bounds it.
    timer.unref();
    res.once('close', release);
  }
}
