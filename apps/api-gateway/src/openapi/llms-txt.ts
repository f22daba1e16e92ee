import { PLANS, PLAN_NAMES } from '@tcg/domain';

/** What `/llms.txt` reads of an OpenAPI document: its operations and their parameters. */
export interface OpenApiOperations {
  readonly paths: Record<string, Record<string, OperationLike | unknown>>;
}

interface OperationLike {
  readonly summary?: string;
  readonly parameters?: readonly { readonly name?: string; readonly in?: string }[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The MCP server's tools, as `apps/mcp-server` registers them (the e2e spec checks the two agree). */
export const MCP_TOOLS: readonly (readonly [string, string])[] = [
  ['search_cards', 'search or look up cards and their USD prices (GET /v1/cards)'],
  ['get_card_prices', "a card's current prices per variant and region (GET /v2/cards/{id}, prices only)"],
  ['get_price_history', "a card's price history and statistics (GET /v2/cards/{id} with include)"],
  ['list_games', 'the supported games (GET /v1/games)'],
  ['list_sets', "a game's sets (GET /v1/sets)"],
  ['create_price_alert', 'watch a price by signed webhook (POST /v1/alerts)'],
  ['list_price_alerts', "the key's alerts (GET /v1/alerts)"],
  ['delete_price_alert', 'delete an alert (DELETE /v1/alerts/{id})'],
];

/** Every operation of a document as `METHOD path`, in the document's order. */
export function operationsOf(document: OpenApiOperations): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(document.paths))
    for (const method of METHODS) if (item[method]) out.push(`${method.toUpperCase()} ${path}`);
  return out;
}

/** One line per operation: a link to its document, its summary and its query parameters. */
function endpointLines(document: OpenApiOperations, link: string): string[] {
  const lines: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method] as OperationLike | undefined;
      if (!op) continue;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query' && p.name).map((p) => p.name);
      const summary = (op.summary ?? `${method.toUpperCase()} ${path}`)
        .replace(/\s+/g, ' ')
        .replace(/\.$/, '');
      const params = query.length > 0 ? ` Query: ${query.join(', ')}.` : '';
      lines.push(`- [${method.toUpperCase()} ${path}](${link}): ${summary.trim()}.${params}`);
    }
  }
  return lines;
}

const n = (v: number): string => v.toLocaleString('en-US');

/**
 * `/llms.txt` (the llms.txt convention: a title, a summary, sections of links each with one line
 * about it) for agents. The endpoint sections are made from the served OpenAPI documents and the
 * plans' table from the plans in code, so neither can drift from what is served; the prose around
 * them says what the documents do not (keys, metering, paging, errors, the MCP endpoint).
 */
export function renderLlmsTxt(v1: OpenApiOperations, v2: OpenApiOperations): string {
  const plans = PLAN_NAMES.map((name) => {
    const p = PLANS[name];
    return `- ${name}: ${n(p.perMinute)} a minute, ${n(p.perDay)} a day, ${n(p.perMonth)} a month (UTC); page size up to ${p.maxLimit}; batch up to ${p.maxBatch}; ${p.concurrentRequests} requests at once; ${n(p.maxAlerts)} price alerts`;
  });
  return [
    '# Trading-card pricing API',
    '',
    '> Read-only HTTP/JSON API for trading-card-game data: games, sets, cards and their variants (condition, printing, language, graded slabs), each with a current price, price statistics and price history, per region. Stable `/v1` (games, sets, cards, batch lookup, bulk files, price alerts) and beta `/v2` (cards priced per region, graded variants, cursor paging). Every request carries an API key and is metered against its plan. An MCP server is at `/mcp`.',
    '',
    'Paths below are relative to the address this file was read from. Identifiers: a card has a UUID (v1 `uuid`, v2 `id`: key on it) and a slug (v1 `id`, v2 `slug`); both are accepted in lookups. Prices are decimal numbers in the market currency (v1: USD); timestamps are Unix seconds.',
    '',
    '## Authentication and metering',
    '',
    '- Send the key in the `x-api-key` header on every `/v1`, `/v2` and `/mcp` request. None or a wrong one: 401 (`MISSING_API_KEY`, `INVALID_API_KEY`); repeated failures from one address: 429.',
    '- A request costs 1 unit; on v2, `graded=include` adds 1 and each region past the first adds 1. The cost counts against the per-minute, daily and monthly limits at once; a request refused with 401 or 429 costs nothing.',
    '- Usage after each request: v1 bodies carry `_metadata` (`apiRequestsUsed`, `apiRequestsRemaining`, `apiDailyRequestsUsed`, …); v2 sends the `RateLimit`, `RateLimit-Policy`, `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers.',
    '',
    '## Plans',
    '',
    ...plans,
    '',
    '## Paging',
    '',
    '- v1 `/v1/cards`: `limit` and `offset` (at most 10,000); `meta` is `{total, limit, offset, hasMore}`. A `limit` above the plan’s page size is clamped and `meta.limit` shows the value used.',
    '- v2 `/v2/cards`: keyset cursors. Follow `meta.cursor.next` (or the `Link` header, `rel="next"`) as `cursor=`; a cursor is bound to the query that made it (changing a filter with it is a 400). `meta.total` may be null when counting took too long.',
    '',
    '## Errors',
    '',
    '- v1: `{"error": "<message>", "code": "<CODE>"}`; v2: RFC 7807 `application/problem+json` with `type`, `title`, `status`, `detail`, `code`.',
    '- 400 `INVALID_REQUEST` names the parameter and what it accepts (v2 also refuses unknown parameters); 404 `NOT_FOUND` (v2 `/v2/cards/{id}` for an unknown card; a search that matches nothing is 200 with empty `data`); 413 for a batch or body too large.',
    '- 429 `RATE_LIMIT_EXCEEDED` (per minute, or too many requests at once), `DAILY_LIMIT_EXCEEDED`, `REQUEST_LIMIT_EXCEEDED` (monthly), and 503 `SERVICE_UNAVAILABLE`, each with `Retry-After` in seconds: wait that long, then retry.',
    '',
    '## Endpoints: v1 (stable)',
    '',
    ...endpointLines(v1, '/openapi/v1.json'),
    '',
    '## Endpoints: v2 (beta)',
    '',
    ...endpointLines(v2, '/openapi/v2.json'),
    '',
    '## MCP server',
    '',
    '- [POST /mcp](/mcp): the Model Context Protocol over streamable HTTP (stateless, JSON answers), with your key in `x-api-key`. Each tool call is one ordinary API request under that key, metered as above; the `/mcp` request itself costs nothing. A bad argument or an API refusal is a tool result with `isError`, naming the status and the API’s message.',
    ...MCP_TOOLS.map(([name, what]) => `- \`${name}\`: ${what}`),
    '',
    '## Documents',
    '',
    '- [OpenAPI v1](/openapi/v1.json): the v1 OpenAPI 3 document, no key needed',
    '- [OpenAPI v2](/openapi/v2.json): the v2 OpenAPI 3 document, no key needed',
    '- [API reference](/docs): the interactive reference of both versions (a browser page)',
    '',
    '## Optional',
    '',
    '- [Price explorer](/): a browser page to search cards and chart their prices',
    '- [Health](/health): whether the service is up, no key needed',
    '',
  ].join('\n');
}
