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
