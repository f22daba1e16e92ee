import { EventEmitter } from 'node:events';
import {
  BadKeyDelay,
  type BadKeyDelayOptions,
  type HeldConnection,
  type HeldResponse,
} from './bad-key-delay';

/** A response the delay holds: it closes when the client goes away (or once answered). */
class Response extends EventEmitter implements HeldResponse {
  destroyed = false;
  writableEnded = false;
  readonly sent: boolean[] = [];

  answer = (close: boolean): void => {
    this.sent.push(close);
    this.writableEnded = true;
  };

  clientLeaves(): void {
    this.destroyed = true;
    this.emit('close');
  }
}

/** A client connection; each request on it gets a connection of its own unless one is given. */
class Connection implements HeldConnection {
  destroyed = false;
  readonly responses: Response[] = [];

  destroy(): void {
    this.destroyed = true;
    for (const res of this.responses) if (!res.destroyed) res.clientLeaves();
  }

  request(): Response {
    const res = new Response();
    this.responses.push(res);
    return res;
  }
}

/** Holds a fresh response, on `connection` or a connection of its own, from `address`. */
function holdOne(delay: BadKeyDelay, connection = new Connection(), address = '10.0.0.1'): Response {
  const res = connection.request();
  delay.hold(res, res.answer, connection, address);
  return res;
}

/** A delay of `delayMs`, `maxWaiting` at once, and no address limit unless given. */
const badKeyDelay = (delayMs: number, maxWaiting: number, more: Partial<BadKeyDelayOptions> = {}) =>
  new BadKeyDelay({ delayMs, maxWaiting, perAddress: 1_000_000, ...more });

describe('BadKeyDelay', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('answers after the delay, not before, and keeps the connection', () => {
    const delay = badKeyDelay(250, 10);
    const res = holdOne(delay);
    jest.advanceTimersByTime(249);
    expect(res.sent).toEqual([]);
    expect(delay.waiting).toBe(1);
    jest.advanceTimersByTime(1);
    expect(res.sent).toEqual([false]);
    expect(delay.waiting).toBe(0);
  });

  it('answers at once when the delay is 0', () => {
    const delay = badKeyDelay(0, 10);
    const res = holdOne(delay);
    expect(res.sent).toEqual([false]);
    expect(delay.waiting).toBe(0);
  });

  it.each([
    [1, 1],
    [5, 3],
    [100, 100],
  ])(
    'holds at most %i answers at a time; past them it answers at once and closes the connection (%i over)',
    (cap, over) => {
      const overflows: number[] = [];
      const delay = badKeyDelay(250, cap, { onOverflow: () => overflows.push(1) });
      const held = Array.from({ length: cap }, () => holdOne(delay));
      const extra = Array.from({ length: over }, () => holdOne(delay));
      expect(extra.map((r) => r.sent)).toEqual(extra.map(() => [true]));
      expect(held.every((r) => r.sent.length === 0)).toBe(true);
      expect(delay.waiting).toBe(cap);
      expect(overflows).toHaveLength(over);

      jest.advanceTimersByTime(250);
      expect(held.map((r) => r.sent)).toEqual(held.map(() => [false]));
      // The places are free again: the next is held.
      const next = holdOne(delay);
      expect(next.sent).toEqual([]);
      expect(delay.waiting).toBe(1);
    },
  );

  it('frees the place of a client that left, and sends it nothing', () => {
    const delay = badKeyDelay(250, 1);
    const gone = holdOne(delay);
    gone.clientLeaves();
    expect(delay.waiting).toBe(0);
    const next = holdOne(delay);
    expect(next.sent).toEqual([]); // held, not sent at once: the place was free
    jest.advanceTimersByTime(250);
    expect(gone.sent).toEqual([]);
    expect(next.sent).toEqual([false]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('counts a place once however the wait ends (timer, then the close of the answered response)', () => {
    const delay = badKeyDelay(250, 2);
    const res = holdOne(delay);
    jest.advanceTimersByTime(250);
    res.emit('close');
    expect(delay.waiting).toBe(0);
    expect(res.listenerCount('close')).toBe(0);
  });

  it('cuts a connection that sends a bad key while its last one’s answer waits (pipelined), and frees its place', () => {
    const delay = badKeyDelay(250, 10);
    const connection = new Connection();
    const first = holdOne(delay, connection);
    const other = holdOne(delay);
    const second = holdOne(delay, connection);
    expect(connection.destroyed).toBe(true);
    expect(delay.waiting).toBe(1); // the other connection's
    jest.advanceTimersByTime(250);
    expect([first.sent, second.sent, other.sent]).toEqual([[], [], [false]]);
  });

  it('holds the next bad key of a connection once its last one was answered (a closed loop)', () => {
    const delay = badKeyDelay(250, 10);
    const connection = new Connection();
    const answers: Response[] = [];
    for (let i = 0; i < 4; i++) {
      answers.push(holdOne(delay, connection));
      jest.advanceTimersByTime(250);
    }
    expect(connection.destroyed).toBe(false);
    expect(answers.map((r) => r.sent)).toEqual(answers.map(() => [false]));
  });

  it('answers one address no faster than perAddress per delay, however many connections it has; other addresses wait their delay only', () => {
    const delay = badKeyDelay(100, 100, { perAddress: 2 });
    const flood = Array.from({ length: 6 }, () => holdOne(delay, new Connection(), '10.0.0.1'));
    const other = holdOne(delay, new Connection(), '10.0.0.2');
    const sentBy = (ms: number): number[] => {
      jest.advanceTimersByTime(ms);
      return [flood.filter((r) => r.sent.length > 0).length, other.sent.length];
    };
    // Every 50 ms (100 / 2) one of the flood's, the first after the delay.
    expect(sentBy(99)).toEqual([0, 0]);
    expect(sentBy(1)).toEqual([1, 1]);
    expect(sentBy(50)).toEqual([2, 1]);
    expect(sentBy(50)).toEqual([3, 1]);
    expect(sentBy(150)).toEqual([6, 1]);
    expect(delay.waiting).toBe(0);
    // Its queue is gone once empty: the next waits the delay alone.
    const later = holdOne(delay, new Connection(), '10.0.0.1');
    jest.advanceTimersByTime(100);
    expect(later.sent).toEqual([false]);
  });

  it('keeps an address’s turns when one of its clients leaves the queue', () => {
    const delay = badKeyDelay(100, 100, { perAddress: 1 });
    const first = holdOne(delay);
    const second = holdOne(delay);
    first.clientLeaves();
    jest.advanceTimersByTime(199);
    expect(second.sent).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(second.sent).toEqual([false]);
  });
});
