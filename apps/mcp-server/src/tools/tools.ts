import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ApiCallError, type JsonObject, type TcgApi } from '../api/tcg-api';

/**
 * The tools, each one API request under the caller's key: the schemas carry the API's own limits
 * (lengths, ranges, enumerations, from its OpenAPI documents) so that a bad argument is refused
 * before any request is made, and whatever the API itself refuses comes back as a tool error
 * naming its status and message.
 */

const id = z.string().trim().min(1).max(256);
const text = z.string().min(1).max(256);
const list = (item: z.ZodString, max: number) => z.array(item).max(max);
/** v2 region codes: the markets (NA, EU, UK, JP, OCE, LATAM, OTHER) or ISO 3166-1 alpha-2 countries. */
const region = z
  .string()
  .regex(/^[A-Za-z]{2,5}$/, 'a market code (NA, EU, UK, JP, OCE, LATAM, OTHER) or a two-letter country code');
const regions = z
  .array(region)
  .min(1)
  .max(8)
  .optional()
  .describe(
    'Region codes in priority order (default ["NA"]): markets NA, EU, UK, JP, OCE, LATAM, OTHER, or ISO country codes. Each region past the first costs one more request unit.',
  );
const graded = z
  .enum(['exclude', 'only', 'include'])
  .optional()
  .describe(
    'Raw variants only (exclude, the default), graded slabs only, or both (include costs one more unit).',
  );
const gradingCompany = z.enum(['PSA', 'BGS', 'CGC', 'BCCG', 'BVG', 'SGC']).optional();
const grades = z
  .array(
    z
      .string()
      .regex(/^(?:(?:10|[1-9])(?:\.[05])?|Authentic)$/i, 'a grade from 1 to 10 in halves, or Authentic'),
  )
  .max(20)
  .optional()
  .describe('Grades within grading_company (required with it).');
const languages = list(z.string().min(1).max(64), 16)
  .optional()
  .describe('Languages (English, Japanese, …): narrows each card’s variants.');

/** Which variants and markets of a card an answer holds: the query of the tools that read one card. */
const variantQuery = { regions, graded, grading_company: gradingCompany, grade: grades, language: languages };

const HISTORY_WINDOWS = ['7d', '30d', '90d', '180d', '1y'] as const;
const PERIODS = ['7d', '30d', '90d', '1y', 'all_time'] as const;

/** The MCP answer for an API answer: its JSON as structured content and as text (MCP 2025-06-18 §Tools). */
function answer(body: JsonObject): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/** A tool error the agent can act on: the status, the API's code and message, and when to retry. */
export function toolError(error: unknown): CallToolResult {
  if (!(error instanceof ApiCallError))
    return { isError: true, content: [{ type: 'text', text: 'The tool failed unexpectedly; try again.' }] };
  const head =
    error.status === undefined
      ? 'The API call failed'
      : `The API answered ${error.status}${error.code ? ` ${error.code}` : ''}`;
  const retry = error.retryAfter !== undefined ? ` Retry after ${error.retryAfter} s.` : '';
  const structured: JsonObject = { error: error.message };
  if (error.status !== undefined) structured['status'] = error.status;
  if (error.code !== undefined) structured['code'] = error.code;
  if (error.retryAfter !== undefined) structured['retryAfter'] = error.retryAfter;
  return {
    isError: true,
    content: [{ type: 'text', text: `${head}: ${error.message}${retry}` }],
    structuredContent: structured,
  };
}

export const TOOL_NAMES = [
  'search_cards',
  'get_card_prices',
  'get_price_history',
  'list_games',
  'list_sets',
  'create_price_alert',
  'list_price_alerts',
  'delete_price_alert',
] as const;

export function registerTools(server: McpServer, api: TcgApi, logger: Logger): void {
  /** Runs one tool's API call, logs its outcome (never the key) and shapes the answer. */
  const run =
    <A>(tool: string, call: (args: A) => Promise<JsonObject>) =>
    async (args: A): Promise<CallToolResult> => {
      const started = performance.now();
      try {
        const result = answer(await call(args));
        logger.info({
          msg: 'tool call',
          tool,
          outcome: 'ok',
          durationMs: Math.round(performance.now() - started),
        });
        return result;
      } catch (error) {
        const api = error instanceof ApiCallError;
        logger[api ? 'info' : 'error']({
          msg: 'tool call',
          tool,
          outcome: api ? 'api_error' : 'failed',
          status: api ? (error.status ?? null) : null,
          durationMs: Math.round(performance.now() - started),
          ...(api ? {} : { error: error instanceof Error ? error.stack : String(error) }),
        });
        return toolError(error);
      }
    };
  const read = { readOnlyHint: true, openWorldHint: false } as const;

  server.registerTool(
    'search_cards',
    {
      title: 'Search cards',
      description:
        'Search or look up cards with their variants and USD prices (GET /v1/cards). Give q (a name, at least 3 letters or digits) and/or filters; results are paged by limit and offset (meta.hasMore). Price history is left out unless include_price_history is true.',
      inputSchema: {
        q: z
          .string()
          .min(3)
          .max(200)
          .optional()
          .describe('Search on card name: at least 3 letters or digits in a row.'),
        game: text.optional().describe('Game id or display name (see list_games).'),
        set: text.optional().describe('Set id (see list_sets).'),
        cardId: text.optional().describe('Slug or UUID of one card.'),
        variantId: text.optional().describe('Slug or UUID of one variant.'),
        vendorId: text.optional().describe('Marketplace product id.'),
        number: text.optional().describe('Card number within a set.'),
        condition: list(z.string().min(1).max(64), 12)
          .optional()
          .describe('Conditions, short or long (NM, Near Mint, LP, …).'),
        printing: list(z.string().min(1).max(64), 16)
          .optional()
          .describe('Printings (Normal, Foil, Holofoil, …).'),
        language: languages,
        orderBy: z
          .enum(['price', '24h', '7d', '30d', '90d'])
          .optional()
          .describe('Sort by price or by the change over a window.'),
        order: z.enum(['asc', 'desc']).optional(),
        min_price: z
          .number()
          .min(0)
          .max(10_000_000)
          .optional()
          .describe('Only cards priced at or above this, in USD.'),
        include_price_history: z.boolean().default(false),
        priceHistoryDuration: z.enum(HISTORY_WINDOWS).optional(),
        include_statistics: z
          .array(z.enum(['7d', '30d', '90d', '1y', 'allTime']))
          .max(5)
          .optional(),
        limit: z
          .number()
          .int()
          .min(1)
          .max(200)
          .optional()
          .describe('Cards per page (default 20; the plan’s maximum applies).'),
        offset: z.number().int().min(0).max(10_000).optional(),
      },
      annotations: read,
    },
    run('search_cards', (args) => api.searchCards(args)),
  );

  server.registerTool(
    'get_card_prices',
    {
      title: "Get a card's prices",
      description:
        "A card's current price per variant and region (GET /v2/cards/{id}, prices only): each variant's markets carry price, currency, updated_at and change_24h_pct. A region without data has price null, never a converted one.",
      inputSchema: {
        id: id.describe('Card UUID (v2 id, v1 uuid) or its v1 slug.'),
        ...variantQuery,
      },
      annotations: read,
    },
    run('get_card_prices', ({ id, ...query }) => api.getCardV2(id, { ...query, include: [] })),
  );

  server.registerTool(
    'get_price_history',
    {
      title: 'Price history and statistics',
      description:
        "A card's price history and statistics per variant and region (GET /v2/cards/{id} with include): each market's price_history over the window, and periods (change_pct, avg, min, max, stddev, trend_slope, …) for the windows asked.",
      inputSchema: {
        id: id.describe('Card UUID (v2 id, v1 uuid) or its v1 slug.'),
        window: z.enum(HISTORY_WINDOWS).default('30d').describe('How far back price_history goes.'),
        periods: z
          .array(z.enum(PERIODS))
          .max(PERIODS.length)
          .default([...PERIODS])
          .describe('Statistics windows to include (empty: history only).'),
        ...variantQuery,
      },
      annotations: read,
    },
    run('get_price_history', ({ id, window, periods, ...query }) =>
      api.getCardV2(id, {
        ...query,
        include: [...new Set(periods)].map((p) => `periods.${p}`).concat(`price_history.${window}`),
      }),
    ),
  );

  server.registerTool(
    'list_games',
    {
      title: 'List games',
      description: 'The supported games with their counts and market index (GET /v1/games).',
      annotations: read,
    },
    run('list_games', () => api.listGames()),
  );

  server.registerTool(
    'list_sets',
    {
      title: 'List sets',
      description: "A game's sets with release dates and card counts (GET /v1/sets).",
      inputSchema: {
        game: text.describe('Game id or display name (see list_games).'),
        q: z.string().min(1).max(200).optional().describe('Part of the set name.'),
        orderBy: z.enum(['name', 'release_date']).optional(),
        order: z.enum(['asc', 'desc']).optional(),
      },
      annotations: read,
    },
    run('list_sets', (args) => api.listSets(args)),
  );

  server.registerTool(
    'create_price_alert',
    {
      title: 'Create a price alert',
      description:
        'Watch a price (POST /v1/alerts): an event is POSTed to url, signed, when the rule becomes true. Give exactly one of card_id and variant_id. The answer carries the signing secret, shown only once. Plans cap a key’s alerts.',
      inputSchema: {
        card_id: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe('Card id or UUID: its highest-priced raw variant.'),
        variant_id: z.string().min(1).max(200).optional().describe('One variant id or UUID.'),
        region: z.string().min(2).max(64).optional().describe('Market or country code, default US.'),
        rule: z.enum(['price_above', 'price_below', 'change_24h', 'change_7d']),
        value: z
          .number()
          .positive()
          .max(100_000_000)
          .describe('An amount in the market’s currency, or a percent.'),
        url: z.string().min(1).max(2048).describe('https URL on a public address that receives the events.'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    run('create_price_alert', (args) => api.createAlert(args)),
  );

  server.registerTool(
    'list_price_alerts',
    {
      title: 'List price alerts',
      description: "The key's price alerts, oldest first (GET /v1/alerts).",
      annotations: read,
    },
    run('list_price_alerts', () => api.listAlerts()),
  );

  server.registerTool(
    'delete_price_alert',
    {
      title: 'Delete a price alert',
      description: 'Delete one of the key’s alerts (DELETE /v1/alerts/{id}); nothing more is sent for it.',
      inputSchema: { id: z.string().trim().min(1).max(64).describe('The alert id (from create or list).') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    run('delete_price_alert', async ({ id }) => {
      await api.deleteAlert(id);
      return { deleted: true, id };
    }),
  );
}
