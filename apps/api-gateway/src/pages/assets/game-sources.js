// @ts-check
// Where each game's prices come from, as GET /v1/games lists them (`price_sources`): shown by the
// API reference page and the price explorer. Every game TCGplayer lists can be there (the TCGCSV
// sync, docs/more-games.md), each with its sources in words.

/** Longest a page waits for GET /v1/games before leaving its text alone. */
const GAMES_TIMEOUT_MS = 15_000;
/** The market sources of real prices, in the order named, with the region each is primary for. */
const REAL_SOURCES = /** @type {const} */ ([
  ['tcgplayer', 'TCGplayer', 'NA'],
  ['cardmarket', 'Cardmarket', 'EU'],
]);
/** The values of `price_sources` this page knows; another is shown as sent. */
const KNOWN_SOURCES = ['tcgplayer', 'cardmarket', 'imported', 'simulated'];

/**
 * Each game of GET /v1/games with where its prices come from (`price_sources`), asked once with
 * `key` (a request on its quota), into `list`; `section` is shown when there is a game. If the
 * call fails, the page keeps its static text and says so in `status`, a quiet line.
 * @param {string} key
 * @param {{ section: HTMLElement; list: HTMLElement; status: HTMLElement }} where the list goes
 */
export async function listGameSources(key, { section, list, status }) {
  status.textContent = "Looking up this deployment's games…";
  status.hidden = false;
  try {
    const res = await fetch('/v1/games', {
      headers: { 'x-api-key': key, accept: 'application/json' },
      signal: AbortSignal.timeout(GAMES_TIMEOUT_MS),
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    const body = /** @type {{ data?: unknown } | null} */ (await res.json());
    if (!Array.isArray(body?.data)) throw new Error('no list of games');
    const games = /** @type {{ id?: unknown; name?: unknown; price_sources?: unknown }[]} */ (body.data);
    list.replaceChildren(
      ...games.flatMap((game) => {
        const term = document.createElement('dt');
        term.textContent = String(game.name ?? game.id ?? '');
        const description = document.createElement('dd');
        description.append(...describeSources(game.price_sources));
        return [term, description];
      }),
    );
    section.hidden = games.length === 0;
    if (games.length) status.hidden = true;
    else status.textContent = 'This deployment has no games yet.';
  } catch (error) {
    const why = error instanceof Error && error.message.startsWith('HTTP ') ? ` (${error.message})` : '';
    status.textContent = `This deployment's games could not be listed${why}.`;
  }
}

/**
 * A game's `price_sources` in words: "real: TCGplayer (NA), Cardmarket (EU)", "simulated sample
 * prices", "imported prices", "no prices yet", or, for several kinds, each in short ("real
 * (TCGplayer) and simulated"). "simulated" is always a label of its own: never read as market data.
 * @param {unknown} sources
 * @returns {Node[]}
 */
export function describeSources(sources) {
  const text = (/** @type {string} */ words) => document.createTextNode(words);
  if (!Array.isArray(sources)) return [text('sources not stated')];
  const given = sources.map(String);
  if (given.length === 0) return [text('no prices yet')];
  const real = REAL_SOURCES.filter(([id]) => given.includes(id));
  /**
   * Each kind of source the game has: real, imported, unknown ones, simulated; each in words when
   * it is the only one (`alone`), else in short.
   * @type {((alone: boolean) => Node[])[]}
   */
  const kinds = [];
  if (real.length)
    kinds.push((alone) => [
      text(
        alone
          ? `real: ${real.map(([, name, region]) => `${name} (${region})`).join(', ')}`
          : `real (${real.map(([, name]) => name).join(', ')})`,
      ),
    ]);
  if (given.includes('imported')) kinds.push((alone) => [text(alone ? 'imported prices' : 'imported')]);
  for (const source of given.filter((s) => !KNOWN_SOURCES.includes(s))) kinds.push(() => [text(source)]);
  if (given.includes('simulated'))
    kinds.push((alone) => {
      const label = document.createElement('span');
      label.className = 'simulated';
      label.title = 'Generated sample prices, not market data';
      label.textContent = 'simulated';
      return alone ? [label, text(' sample prices')] : [label];
    });
  return kinds.flatMap((kind, i) => [
    ...(i === 0 ? [] : [text(i === kinds.length - 1 ? ' and ' : ', ')]),
    ...kind(kinds.length === 1),
  ]);
}
