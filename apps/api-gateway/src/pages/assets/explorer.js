// @ts-check
// The price explorer (/): search cards by name with v2, pick one, pick a variant, a region and a
// history window; show the current price, the statistics per window and the price history.
// Costs per action (docs/keys-and-limits.md, docs/browser-pages.md): a search 1; picking a card 2
// (its raw and graded variants, prices only); each variant, region or window shown 1 (a `variant_id`
// lookup).

import { apiGet, describeError } from './api.js';
import { listGameSources } from './game-sources.js';
import { suggestNames } from './name-suggest.js';
import { PriceChart } from './price-chart.js';

/**
 * The parts of v2's answers the page reads (docs/openapi/api-v2.json has them all).
 * @typedef {{ change_pct?: number | null; avg?: number | null; min?: number | null; max?: number | null;
 *   stddev?: number | null; trend_slope?: number | null; changes_count?: number | null }} PeriodStats
 * @typedef {{ region: string; currency: string; price: number | null; updated_at: number | null;
 *   source: string | null; change_24h_pct: number | null; periods?: Record<string, PeriodStats>;
 *   price_history?: { t: number; p: number }[] }} Market
 * @typedef {{ id: string; type: 'raw' | 'graded'; condition: string | null; printing: string | null;
 *   language: string | null; grading: { company: string; grade: number | null; canonical: string } | null;
 *   markets: Market[] }} Variant
 * @typedef {{ id: string; name: string; number: string | null; rarity: string | null;
 *   game: { name: string }; set: { name: string | null }; external_ids?: { imagedb?: string | null };
 *   variants: Variant[] }} Card
 */

/** Longest card name sent (the API's cap on `q`). */
const MAX_QUERY = 200;
const RESULTS_PER_SEARCH = 20;
const CONDITION_ORDER = [
  'Near Mint',
  'Lightly Played',
  'Moderately Played',
  'Heavily Played',
  'Damaged',
  'Sealed',
];
/** The statistics table's rows: v2's `periods` keys and what they are called here. */
const PERIODS = /** @type {const} */ ([
  ['7d', '7 days'],
  ['30d', '30 days'],
  ['90d', '90 days'],
  ['1y', '1 year'],
  ['all_time', 'All time'],
]);

/**
 * A Scryfall card id: what `external_ids.imagedb` holds for Magic cards synced from the feeds. Only
 * a UUID is put into an image URL; any other value (another provider's, or none) shows no image.
 */
const SCRYFALL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Scryfall's `normal` card image (its CDN, allowed by the page's `img-src`) and its size. */
const CARD_IMAGE_BASE = 'https://cards.scryfall.io/normal/front';
const CARD_IMAGE_SIZE = { width: 488, height: 680 };

/**
 * What a market's `source` (v2's enum) is called on its price line; `simulated` has a label of its
 * own (`sourceParts`), and a value this page does not know yet is shown as sent.
 */
const SOURCE_NAMES = new Map([
  ['tcgplayer', 'TCGplayer market price'],
  ['cardmarket', 'Cardmarket trend price'],
  ['imported', 'imported price'],
]);

/** @param {string} id */
function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element;
}

const form = /** @type {HTMLFormElement} */ (byId('search'));
const keyInput = /** @type {HTMLInputElement} */ (byId('api-key'));
const queryInput = /** @type {HTMLInputElement} */ (byId('query'));
const errorBox = byId('error');
const statusLine = byId('status');
const resultsSection = byId('results-section');
const resultsList = byId('results');
const cardSection = byId('card');
const cardHead = /** @type {HTMLElement} */ (cardSection.querySelector('.card-head'));
const variantSelect = /** @type {HTMLSelectElement} */ (byId('variant'));
const regionSelect = /** @type {HTMLSelectElement} */ (byId('region'));
const chartElement = byId('chart');
const chart = new PriceChart(chartElement);
const gamesSection = byId('games');
const gamesList = byId('games-list');
const gamesStatus = byId('games-status');

/** The one request in flight for each purpose; a newer one aborts it. */
const inFlight = {
  search: new AbortController(),
  card: new AbortController(),
  variant: new AbortController(),
};

/** @param {keyof typeof inFlight} purpose */
function fresh(purpose) {
  inFlight[purpose].abort();
  inFlight[purpose] = new AbortController();
  return inFlight[purpose].signal;
}

/** @param {string} text */
function say(text) {
  statusLine.textContent = text;
}

/** @param {unknown} error */
function showError(error) {
  if (error instanceof DOMException && error.name === 'AbortError') return;
  const { title, detail } = describeError(error);
  const strong = document.createElement('strong');
  strong.textContent = title;
  errorBox.replaceChildren(strong, document.createTextNode(detail));
  errorBox.hidden = false;
  say('');
}

function clearError() {
  errorBox.hidden = true;
  errorBox.replaceChildren();
}

/** The key as typed; an empty one is refused here, before costing a request. */
function apiKey() {
  const key = keyInput.value.trim();
  if (!key) {
    showError(new Error('Enter an API key: every call to the API needs one.'));
    keyInput.focus();
    return undefined;
  }
  return key;
}

/** @param {Event} event */
async function search(event) {
  event.preventDefault();
  clearError();
  const key = apiKey();
  if (!key) return;
  const query = queryInput.value.trim().slice(0, MAX_QUERY);
  if (!query) {
    showError(new Error('Type a card name to search for.'));
    queryInput.focus();
    return;
  }
  say('Searching…');
  try {
    const params = new URLSearchParams({ q: query, limit: String(RESULTS_PER_SEARCH), include: '' });
    const answer = /** @type {{ data: Card[]; meta: { total: number | null } }} */ (
      await apiGet(`/v2/cards?${params}`, key, fresh('search'))
    );
    showResults(answer.data, answer.meta.total);
  } catch (error) {
    showError(error);
  }
}

/**
 * @param {Card[]} cards
 * @param {number | null} total
 */
function showResults(cards, total) {
  resultsList.replaceChildren(
    ...cards.map((card) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('aria-pressed', 'false');
      button.dataset['cardId'] = card.id;
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = card.name;
      const sub = document.createElement('span');
      sub.className = 'sub';
      sub.textContent = [card.set.name, card.number && `#${card.number}`, card.rarity]
        .filter(Boolean)
        .join(' · ');
      button.append(name, sub);
      button.addEventListener('click', () => {
        for (const other of resultsList.querySelectorAll('button'))
          other.setAttribute('aria-pressed', 'false');
        button.setAttribute('aria-pressed', 'true');
        void pickCard(card.id);
      });
      const item = document.createElement('li');
      item.append(button);
      return item;
    }),
  );
  resultsSection.hidden = cards.length === 0;
  const more = total !== null && total > cards.length ? ` (the first ${cards.length} of ${total})` : '';
  say(
    cards.length
      ? `${cards.length} cards found${more}. Pick one to see its prices.`
      : 'No card has that name.',
  );
}

/** @param {string} cardId */
async function pickCard(cardId) {
  clearError();
  const key = apiKey();
  if (!key) return;
  say('Loading the card…');
  try {
    const params = new URLSearchParams({ graded: 'include', include: '', regions: 'NA' });
    const answer = /** @type {{ data: Card }} */ (
      await apiGet(`/v2/cards/${encodeURIComponent(cardId)}?${params}`, key, fresh('card'))
    );
    showCard(answer.data);
    say('');
    if (answer.data.variants.length > 0) await showVariant();
    else showNothing('This card has no variants to price.');
  } catch (error) {
    showError(error);
  }
}

/** @param {Card} card */
function showCard(card) {
  byId('card-title').textContent = card.name;
  byId('card-meta').textContent = [
    card.game.name,
    card.set.name,
    card.number && `#${card.number}`,
    card.rarity,
  ]
    .filter(Boolean)
    .join(' · ');
  showCardImage(card);
  variantSelect.replaceChildren(...variantGroups(card.variants));
  const preferred =
    card.variants.find((v) => v.type === 'raw' && v.condition === 'Near Mint' && !v.language) ??
    card.variants[0];
  if (preferred) variantSelect.value = preferred.id;
  variantSelect.disabled = card.variants.length === 0;
  cardSection.hidden = false;
}

/**
 * The card's front from Scryfall's CDN, left of its name, when its imagedb id is a Scryfall id
 * (the CDN files an image under the id's first and second characters); none otherwise. Sized by
 * its attributes before it arrives, so nothing moves when it does; if it cannot be had (offline,
 * an id Scryfall does not know) it is removed, and the card reads as one without an image.
 * @param {Card} card
 */
function showCardImage(card) {
  cardHead.querySelector('.card-image')?.remove();
  const imagedbId = card.external_ids?.imagedb;
  if (!imagedbId || !SCRYFALL_ID.test(imagedbId)) return;
  const id = imagedbId.toLowerCase();
  const image = document.createElement('img');
  image.className = 'card-image';
  image.alt = card.name;
  image.width = CARD_IMAGE_SIZE.width;
  image.height = CARD_IMAGE_SIZE.height;
  image.loading = 'lazy';
  image.decoding = 'async';
  image.referrerPolicy = 'no-referrer';
  // Listening before `src` is set: a failure is never missed.
  image.addEventListener('error', () => image.remove(), { once: true });
  image.src = `${CARD_IMAGE_BASE}/${id[0]}/${id[1]}/${id}.jpg`;
  cardHead.prepend(image);
}

/**
 * One option per variant, grouped by printing and language, raw conditions before graded slabs.
 * @param {Variant[]} variants
 */
function variantGroups(variants) {
  /** @type {Map<string, Variant[]>} */
  const groups = new Map();
  for (const variant of [...variants].sort(variantOrder)) {
    const label = `${variant.printing ?? 'Normal'} · ${variant.language ?? 'English'} · ${variant.type === 'raw' ? 'ungraded' : 'graded'}`;
    groups.set(label, [...(groups.get(label) ?? []), variant]);
  }
  return [...groups].map(([label, members]) => {
    const group = document.createElement('optgroup');
    group.label = label;
    group.append(
      ...members.map((variant) => {
        const option = document.createElement('option');
        option.value = variant.id;
        option.textContent = variantName(variant);
        return option;
      }),
    );
    return group;
  });
}

/** @param {Variant} variant */
function variantName(variant) {
  const what =
    variant.type === 'raw' ? (variant.condition ?? 'Ungraded') : (variant.grading?.canonical ?? 'Graded');
  // The group's label says the printing and language.
  return what;
}

/**
 * @param {Variant} a
 * @param {Variant} b
 */
function variantOrder(a, b) {
  const rank = (/** @type {Variant} */ v) => [
    v.language ? 1 : 0,
    v.language ?? '',
    v.printing ?? '',
    v.type === 'raw' ? 0 : 1,
    v.type === 'raw' ? CONDITION_ORDER.indexOf(v.condition ?? '') : 0,
    v.grading?.company ?? '',
    -(v.grading?.grade ?? 0),
    v.grading?.canonical ?? '',
  ];
  const [x, y] = [rank(a), rank(b)];
  for (let i = 0; i < x.length; i++) {
    if (x[i] === y[i]) continue;
    return /** @type {number | string} */ (x[i]) < /** @type {number | string} */ (y[i]) ? -1 : 1;
  }
  return 0;
}

function selectedWindow() {
  return (
    /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="window"]:checked'))?.value ??
    '30d'
  );
}

/** The selected variant in the selected region over the selected window. */
async function showVariant() {
  const key = apiKey();
  if (!key || !variantSelect.value) return;
  clearError();
  const variantId = variantSelect.value;
  const region = regionSelect.value;
  const window = selectedWindow();
  chartElement.dataset['state'] = 'loading';
  try {
    const params = new URLSearchParams({
      variant_id: variantId,
      regions: region,
      include: `periods,price_history.${window}`,
    });
    const answer = /** @type {{ data: Card[] }} */ (
      await apiGet(`/v2/cards?${params}`, key, fresh('variant'))
    );
    const market = answer.data[0]?.variants[0]?.markets[0];
    if (!market) throw new Error('The API sent no market for this variant.');
    showMarket(market);
    Object.assign(chartElement.dataset, { state: 'ready', variant: variantId, region, window });
  } catch (error) {
    showError(error);
  }
}

/** @param {Market} market */
function showMarket(market) {
  const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: market.currency });
  byId('price').textContent = market.price === null ? 'No price' : money.format(market.price);
  const parts = [];
  if (market.change_24h_pct !== null) {
    const change = document.createElement('span');
    change.className = market.change_24h_pct > 0 ? 'up' : market.change_24h_pct < 0 ? 'down' : '';
    change.textContent = `${signed(market.change_24h_pct)} % in 24 h`;
    parts.push(change, document.createTextNode(' · '));
  }
  if (market.updated_at === null) parts.push(document.createTextNode(`no observations in ${market.region}`));
  else
    parts.push(
      document.createTextNode(market.region),
      ...sourceParts(market.source),
      document.createTextNode(`, updated ${new Date(market.updated_at * 1000).toLocaleString()}`),
    );
  byId('price-meta').replaceChildren(...parts);
  const history = market.price_history ?? [];
  chart.show(history, market.currency, `No prices in ${market.region} for this variant.`);
  const simulated = market.source === 'simulated' ? 'simulated ' : '';
  byId('chart-caption').textContent = history.length
    ? `${history.length} ${simulated}observations in ${market.currency}, oldest first; hover or touch the chart to read a point.`
    : '';
  showStatistics(market, money);
}

/**
 * Where the price comes from, in words, for its line after the region: ` · TCGplayer market price`;
 * a simulated one with a label of its own (never to be read as a market's price); nothing when
 * the API names none.
 * @param {string | null | undefined} source
 * @returns {Node[]}
 */
function sourceParts(source) {
  if (!source) return [];
  if (source !== 'simulated') return [document.createTextNode(` · ${SOURCE_NAMES.get(source) ?? source}`)];
  const label = document.createElement('span');
  label.className = 'simulated';
  label.title = 'Generated sample prices, not market data';
  label.textContent = 'simulated';
  return [document.createTextNode(' · '), label, document.createTextNode(' sample price')];
}

/** @param {string} text */
function showNothing(text) {
  byId('price').textContent = '—';
  byId('price-meta').replaceChildren();
  byId('chart-caption').textContent = '';
  chart.show([], 'USD', text);
  /** @type {HTMLTableSectionElement} */ (byId('stats').querySelector('tbody')).replaceChildren();
}

/**
 * @param {Market} market
 * @param {Intl.NumberFormat} money
 */
function showStatistics(market, money) {
  const body = /** @type {HTMLTableSectionElement} */ (byId('stats').querySelector('tbody'));
  const periods = market.periods ?? {};
  const amount = (/** @type {number | null | undefined} */ v) => (v == null ? '—' : money.format(v));
  const rows = PERIODS.filter(([key]) => periods[key]).map(([key, label]) => {
    const s = /** @type {PeriodStats} */ (periods[key]);
    const row = document.createElement('tr');
    const head = document.createElement('th');
    head.scope = 'row';
    head.textContent = label;
    const cells = [
      s.change_pct == null ? '—' : `${signed(s.change_pct)} %`,
      amount(s.avg),
      amount(s.min),
      amount(s.max),
      amount(s.stddev),
      s.trend_slope == null ? '—' : `${s.trend_slope > 0 ? '+' : ''}${money.format(s.trend_slope)}`,
      s.changes_count == null ? '—' : String(s.changes_count),
    ].map((text) => {
      const cell = document.createElement('td');
      cell.textContent = text;
      return cell;
    });
    if (s.change_pct != null)
      cells[0]?.classList.add(s.change_pct > 0 ? 'up' : s.change_pct < 0 ? 'down' : 'flat');
    row.append(head, ...cells);
    return row;
  });
  if (rows.length === 0) {
    const row = document.createElement('tr');
    const cell = document.createElement('td');
    cell.colSpan = 8;
    cell.textContent = `No statistics in ${market.region}.`;
    row.append(cell);
    rows.push(row);
  }
  body.replaceChildren(...rows);
}

/** @param {number} value */
function signed(value) {
  return `${value > 0 ? '+' : ''}${value.toFixed(2)}`;
}

form.addEventListener('submit', (event) => void search(event));
// A picked suggestion is searched at once. Each suggestion request counts like any other.
suggestNames(
  queryInput,
  /** @type {HTMLUListElement} */ (byId('query-suggestions')),
  () => keyInput.value.trim() || undefined,
  () => form.requestSubmit(),
);
variantSelect.addEventListener('change', () => void showVariant());
regionSelect.addEventListener('change', () => void showVariant());
for (const radio of document.querySelectorAll('input[name="window"]'))
  radio.addEventListener('change', () => void showVariant());
// With a key prefilled (npm start's demo key), the deployment's games and their sources are listed
// once, as the API reference page lists them; a key typed here is spent on searches only.
if (keyInput.value.trim())
  void listGameSources(keyInput.value.trim(), {
    section: gamesSection,
    list: gamesList,
    status: gamesStatus,
  });
