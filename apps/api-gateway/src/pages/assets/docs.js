// @ts-check
// Starts Swagger UI on the API reference page (/docs) and switches it between the v1 and v2
// documents the gateway serves; with a prefilled key, lists where each game's prices come from.
// A file of its own, not an inline script, so the page's Content-Security-Policy can forbid
// inline scripts.

import { listGameSources } from './game-sources.js';

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

if (prefill)
  void listGameSources(prefill, {
    section: gameSources,
    list: gameSourcesList,
    status: gameSourcesStatus,
  });
