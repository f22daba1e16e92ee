// @ts-check
// Starts Swagger UI on the API reference page (/docs) and switches it between the v1 and v2
// documents the gateway serves; with a prefilled key, lists where each game's prices come from.
// A file of its own, not an inline script, so the page's Content-Security-Policy can forbid
// inline scripts.

/**
 * The part of Swagger UI's API this page uses (swagger-ui-dist ships no types).
 * @typedef {{
 *   specActions: { updateUrl(url: string): void; download(url: string): void };
 *   preauthorizeApiKey(scheme: string, key: string): void;
 * }} SwaggerUi
 * @typedef {((options: Record<string, unknown>) => SwaggerUi) & { presets: { apis: unknown } }} SwaggerUiBundle
 */

const VERSIONS = /** @type {const} */ (['v1', 'v2']);
/**
 * Longest answer body shown whole. Swagger UI takes seconds per megabyte to draw one (a page of
 * v1 cards with their histories is about 2 MB), so past this it shows the answer's start.
 */
const MAX_SHOWN_CHARACTERS = 100_000;
/** The security scheme both documents declare for the `x-api-key` header. */
const API_KEY_SCHEME = 'x-api-key';
/** Longest the page waits for GET /v1/games before leaving the sources' text alone. */
const GAMES_TIMEOUT_MS = 15_000;
/** The market sources of real prices, in the order named, with the region each is primary for. */
const REAL_SOURCES = /** @type {const} */ ([
  ['tcgplayer', 'TCGplayer', 'NA'],
  ['cardmarket', 'Cardmarket', 'EU'],
]);
/** The values of `price_sources` this page knows; another is shown as sent. */
const KNOWN_SOURCES = ['tcgplayer', 'cardmarket', 'imported', 'simulated'];

const versionSelect = /** @type {HTMLSelectElement} */ (document.getElementById('version'));
const rawLink = /** @type {HTMLAnchorElement} */ (document.getElementById('raw-document'));
const gameSources = /** @type {HTMLElement} */ (document.getElementById('game-sources'));
const gameSourcesList = /** @type {HTMLElement} */ (document.getElementById('game-sources-list'));
const gameSourcesStatus = /** @type {HTMLElement} */ (document.getElementById('game-sources-status'));

/** @param {string | null} value */
function versionOf(value) {
  return VERSIONS.find((v) => v === value) ?? 'v1';
}

/** @param {string} version */
function documentUrl(version) {
  return `/openapi/${version}.json`;
}

const SwaggerUIBundle = /** @type {SwaggerUiBundle} */ (
  /** @type {{ SwaggerUIBundle: unknown }} */ (/** @type {unknown} */ (window)).SwaggerUIBundle
);

let version = versionOf(new URLSearchParams(location.search).get('version'));
versionSelect.value = version;
rawLink.href = rawLink.textContent = documentUrl(version);
/** Under `npm start` the page is given the demo key, as the explorer is. */
const prefill = document.querySelector('meta[name="api-key-prefill"]')?.getAttribute('content') ?? '';

const ui = SwaggerUIBundle({
  url: documentUrl(version),
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  // No calls to swagger.io's online validator: the page talks to this gateway only.
  validatorUrl: null,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  syntaxHighlight: false,
  // Keys stay in memory, never in localStorage.
  persistAuthorization: false,
  responseInterceptor: shortenForDisplay,
  onComplete: () => {
    if (prefill) ui.preauthorizeApiKey(API_KEY_SCHEME, prefill);
  },
});

/**
 * An API answer too long to draw quickly, indented and cut, with a line that says so. Only
 * answers of the API's paths: the OpenAPI documents pass through this interceptor too.
 * @param {{ url: string; text?: unknown; data?: unknown; body?: unknown; obj?: unknown }} response
 */
function shortenForDisplay(response) {
  const { text } = response;
  if (typeof text !== 'string' || text.length <= MAX_SHOWN_CHARACTERS) return response;
  if (!/^\/v[12]\//.test(new URL(response.url, location.href).pathname)) return response;
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON: cut as it is.
  }
  const kilobytes = Math.round(text.length / 1024);
  response.text = response.data =
    `${shown.slice(0, MAX_SHOWN_CHARACTERS)}\n\n… cut here for display: the answer is ${kilobytes} KB. ` +
    'Ask for fewer cards (limit) or fewer components (include), or fetch it with curl.';
  // The parsed forms too: Swagger UI copies them into its state, node by node.
  response.body = response.obj = undefined;
  return response;
}

versionSelect.addEventListener('change', () => {
  version = versionOf(versionSelect.value);
  const url = documentUrl(version);
  rawLink.href = rawLink.textContent = url;
  const params = new URLSearchParams(location.search);
  params.set('version', version);
  history.replaceState(null, '', `${location.pathname}?${params}`);
  ui.specActions.updateUrl(url);
  ui.specActions.download(url);
});

/**
 * Each game of GET /v1/games with where its prices come from (`price_sources`), asked once with
 * the prefilled key (a request on its quota). Without a key nothing is asked; if the call fails,
 * the page keeps its static text and says so in a quiet line.
 * @param {string} key
 */
async function showGameSources(key) {
  gameSourcesStatus.textContent = "Looking up this deployment's games…";
  gameSourcesStatus.hidden = false;
  try {
    const res = await fetch('/v1/games', {
      headers: { 'x-api-key': key, accept: 'application/json' },
      signal: AbortSignal.timeout(GAMES_TIMEOUT_MS),
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    const body = /** @type {{ data?: unknown } | null} */ (await res.json());
    if (!Array.isArray(body?.data)) throw new Error('no list of games');
    const games = /** @type {{ id?: unknown; name?: unknown; price_sources?: unknown }[]} */ (body.data);
    gameSourcesList.replaceChildren(
      ...games.flatMap((game) => {
        const term = document.createElement('dt');
        term.textContent = String(game.name ?? game.id ?? '');
        const description = document.createElement('dd');
        description.append(...describeSources(game.price_sources));
        return [term, description];
      }),
    );
    gameSources.hidden = games.length === 0;
    if (games.length) gameSourcesStatus.hidden = true;
    else gameSourcesStatus.textContent = 'This deployment has no games yet.';
  } catch (error) {
    const why = error instanceof Error && error.message.startsWith('HTTP ') ? ` (${error.message})` : '';
    gameSourcesStatus.textContent = `This deployment's games could not be listed${why}.`;
  }
}

/**
 * A game's `price_sources` in words: "real: TCGplayer (NA), Cardmarket (EU)", "simulated sample
 * prices", "imported prices", "no prices yet", or, for several kinds, each in short ("real
 * (TCGplayer) and simulated"). "simulated" is always a label of its own: never read as market data.
 * @param {unknown} sources
 * @returns {Node[]}
 */
function describeSources(sources) {
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

if (prefill) void showGameSources(prefill);
