import { setTimeout as delay } from 'node:timers/promises';

/**
 * `--rest-ratio` of the batch commands (`import-prices`, `feeds -- sync`): after each batch, rest
 * this many times as long as it took. Above this bound, a command would take more than a hundred
 * times as long as it needs to.
 */
export const MAX_REST_RATIO = 100;

/**
 * A rest ratio as given (absent: 0, no rest): a number from 0 to `MAX_REST_RATIO`, else undefined
 * (an option without its value, an empty one, a word, a negative number).
 */
export function parseRestRatio(value: string | true | undefined): number | undefined {
  if (value === undefined) return 0;
  const ratio = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(ratio) && ratio >= 0 && ratio <= MAX_REST_RATIO ? ratio : undefined;
}

/** Makes one unit of a batch command's writes and gives what it returned; it may rest after it (`pacedBy`). */
export type Paced = <T>(write: () => Promise<T>) => Promise<T>;

/**
 * Beside serving traffic on few cores, a batch command's writes (an import's batch, a sync's write
 * unit) take the database's CPU that the requests need (issue 38): after each unit, rest
 * `restRatio` times as long as it took (0: never), as the bulk generation does. Writing then takes `1 + restRatio`
 * times as long, and leaves the requests the rest. Tests pass their own `sleep` (how a rest
 * waits) and `now` (the clock a unit is timed by), both in milliseconds.
 */
export function pacedBy(
  restRatio: number,
  sleep: (ms: number) => Promise<unknown> = delay,
  now: () => number = () => performance.now(),
): Paced {
  return async (write) => {
    const started = now();
    const result = await write();
    const rest = (now() - started) * restRatio;
    if (rest > 0) await sleep(rest);
    return result;
  };
}
