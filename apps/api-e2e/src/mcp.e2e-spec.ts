import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { join, resolve } from 'node:path';
import {
  DAY,
  dragon,
  goblinNm,
  knight,
  knightNm,
  lp,
  nm,
  seedCatalogue,
  series,
  SET,
  T_NOW,
  THREE_CARDS,
} from './fixtures';
import { fetchWithKey, getJson } from './http';
import { newKey } from './keys';
import { startStack, type Stack } from './stack';

/** The entry `npm run mcp` runs once it has built. */
const MCP_MAIN = join(resolve(__dirname, '../../..'), 'dist/apps/mcp-server/src/main.js');

const TOOLS = [
  'create_price_alert',
  'delete_price_alert',
  'get_card_prices',
  'get_price_history',
  'list_games',
  'list_price_alerts',
  'list_sets',
  'search_cards',
];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What a tool answered, as an agent reads it: its structured content, and its text as JSON. */
function structured(result: Awaited<ReturnType<Client['callTool']>>): Json {
  const r = result as CallToolResult;
  expect(r.isError).toBeFalsy();
  const text = r.content.find((c) => c.type === 'text');
  expect(JSON.parse((text as { text: string }).text)).toEqual(r.structuredContent);
  return r.structuredContent as Json;
}

function errorText(result: Awaited<ReturnType<Client['callTool']>>): string {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  return (r.content[0] as { text: string }).text;
}

/** Each variant's markets as `variant slug → region → price`, the figures an agent reads off. */
function marketPrices(card: Json): Record<string, Record<string, number | null>> {
  return Object.fromEntries(
    (card['variants'] as Json[]).map((v) => [
      v['slug'],
      Object.fromEntries((v['markets'] as Json[]).map((m) => [m['region'], m['price']])),
    ]),
  );
}

describe('MCP server (stdio and streamable HTTP through the gateway)', () => {
  let stack: Stack;

  beforeAll(async () => {
    await seedCatalogue(
      THREE_CARDS,
      [nm, lp, knightNm, goblinNm],
      [
        { variantUuid: nm.uuid, ...series(1000) },
        { variantUuid: nm.uuid, region: 'EU', t: [T_NOW - DAY, T_NOW], p: [900, 950] },
        { variantUuid: lp.uuid, ...series(800) },
        { variantUuid: knightNm.uuid, t: [T_NOW - 2 * DAY, T_NOW], p: [30, 35] },
      ],
    );
    // Alerts may point at 127.0.0.1 here, so that no test reaches out; nothing is sent (no sender).
    stack = await startStack({ mcp: true, v1Env: { ALERT_PRIVATE_URLS: 'allow' } });
  });

  afterAll(async () => {
    await stack?.close();
  });

  const connectors: [string, (key: string) => Promise<Client>][] = [
    [
      'stdio (the built entry, key from the environment)',
      async (key) => {
        const client = new Client({ name: 'e2e', version: '1.0.0' });
        await client.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [MCP_MAIN],
            env: {
              PATH: process.env['PATH'] ?? '',
              TCG_API_URL: stack.gatewayUrl,
              TCG_API_KEY: key,
              LOG_LEVEL: 'warn',
            },
            stderr: 'inherit',
          }),
        );
        return client;
      },
    ],
    [
      "streamable HTTP at the gateway's /mcp (key in x-api-key)",
      async (key) => {
        const client = new Client({ name: 'e2e', version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${stack.gatewayUrl}/mcp`), {
            requestInit: { headers: { 'x-api-key': key } },
          }),
        );
        return client;
      },
    ],
  ];

  describe.each(connectors)('over %s', (_name, connect) => {
    let client: Client | undefined;
    afterEach(async () => {
      await client?.close();
      client = undefined;
    });

    it('lists the tools, each with an input schema', async () => {
      client = await connect(await newKey('starter'));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.description).toBeTruthy();
      }
      const search = tools.find((t) => t.name === 'search_cards')!;
      // The API's own limits, carried into the schema the agent sees.
      expect(search.inputSchema.properties!['q']).toMatchObject({ minLength: 3, maxLength: 200 });
      expect(search.inputSchema.properties!['offset']).toMatchObject({ minimum: 0, maximum: 10_000 });
    });

    it("gets a seeded card's prices: the markets a raw v2 request returns", async () => {
      client = await connect(await newKey('starter'));
      const card = structured(
        await client.callTool({
          name: 'get_card_prices',
          arguments: { id: dragon.uuid, regions: ['NA', 'EU'] },
        }),
      );
      const raw = await getJson<Json>(
        `${stack.gatewayUrl}/v2/cards/${dragon.uuid}?regions=NA,EU&include=`,
        await newKey('starter'),
      );
      expect(card).toEqual(raw);
      // What the seed priced: the dragon's NA Near Mint at its last point, and its two EU days.
      const nmNa = series(1000).p.at(-1)! / 100;
      expect(marketPrices(card['data'])).toEqual({
        [lp.id]: { NA: series(800).p.at(-1)! / 100, EU: null },
        [nm.id]: { NA: nmNa, EU: 9.5 },
      });
    });

    it('gives price history and statistics for the windows asked', async () => {
      client = await connect(await newKey('starter'));
      const card = structured(
        await client.callTool({
          name: 'get_price_history',
          arguments: { id: dragon.id, window: '90d', periods: ['30d', 'all_time'] },
        }),
      );
      const market = (card['data']['variants'] as Json[]).find((v) => v['slug'] === nm.id)!['markets'][0];
      expect(Object.keys(market['periods']).sort()).toEqual(['30d', 'all_time']);
      expect(market['price_history'].length).toBeGreaterThan(80);
      expect(market['price_history'].at(-1)).toEqual({ t: T_NOW, p: series(1000).p.at(-1)! / 100 });
    });

    it("searches, lists games and sets, and creates, lists and deletes an alert: one request each on the caller's key", async () => {
      const key = await newKey('starter');
      client = await connect(key);
      await client.listTools(); // protocol messages cost nothing

      const games = structured(await client.callTool({ name: 'list_games', arguments: {} }));
      expect(games['data'].map((g: Json) => g['id'])).toEqual(['test-game']);
      expect(games['_metadata'].apiRequestsUsed).toBe(1);

      const sets = structured(await client.callTool({ name: 'list_sets', arguments: { game: 'Test Game' } }));
      expect(sets['data'].map((s: Json) => s['id'])).toEqual([SET.id]);
      expect(sets['_metadata'].apiRequestsUsed).toBe(2);

      const found = structured(await client.callTool({ name: 'search_cards', arguments: { q: 'dragon' } }));
      expect(found['data'].map((c: Json) => c['uuid'])).toEqual([dragon.uuid]);
      expect(found['data'][0]['variants'][0]['priceHistory']).toBeNull(); // left out unless asked
      expect(found['_metadata'].apiRequestsUsed).toBe(3);

      // v2 answers carry no _metadata: the count shows in the next v1 answer.
      structured(await client.callTool({ name: 'get_card_prices', arguments: { id: knight.uuid } }));

      const created = structured(
        await client.callTool({
          name: 'create_price_alert',
          arguments: { card_id: dragon.id, rule: 'price_above', value: 450, url: 'http://127.0.0.1:9/hook' },
        }),
      );
      expect(created['data']).toMatchObject({
        card_id: dragon.id,
        rule: 'price_above',
        value: 450,
        status: 'active',
      });
      expect(created['data']['secret']).toMatch(/^whsec_/);
      expect(created['_metadata'].apiRequestsUsed).toBe(5);

      const listed = structured(await client.callTool({ name: 'list_price_alerts', arguments: {} }));
      expect(listed['data'].map((a: Json) => a['id'])).toEqual([created['data']['id']]);
      expect(listed['_metadata'].apiRequestsUsed).toBe(6);

      const deleted = structured(
        await client.callTool({ name: 'delete_price_alert', arguments: { id: created['data']['id'] } }),
      );
      expect(deleted).toEqual({ deleted: true, id: created['data']['id'] });

      // Refused before any request: the argument is checked against the tool's schema.
      expect(errorText(await client.callTool({ name: 'search_cards', arguments: { q: 'ab' } }))).toMatch(
        /\bq\b/,
      );

      const after = structured(await client.callTool({ name: 'list_price_alerts', arguments: {} }));
      expect(after['data']).toEqual([]);
      // Eight tool calls that reached the API, eight units; the refused argument and the protocol none.
      expect(after['_metadata'].apiRequestsUsed).toBe(8);
      const direct = await getJson<Json>(`${stack.gatewayUrl}/v1/games`, key);
      expect(direct['_metadata'].apiRequestsUsed).toBe(9);
    });

    it("turns a bad argument and the API's refusals into tool errors, and keeps serving", async () => {
      client = await connect(await newKey('starter'));
      expect(
        errorText(
          await client.callTool({
            name: 'get_card_prices',
            arguments: { id: dragon.uuid, regions: ['N A'] },
          }),
        ),
      ).toMatch(/regions/);
      expect(
        errorText(await client.callTool({ name: 'list_sets', arguments: { game: 'x'.repeat(300) } })),
      ).toMatch(/game/);
      // The API's own 404 and 400, with its status, code and message.
      const missing = errorText(
        await client.callTool({
          name: 'get_card_prices',
          arguments: { id: '00000000-0000-4000-8000-000000000000' },
        }),
      );
      expect(missing).toMatch(/^The API answered 404 NOT_FOUND: /);
      const badSet = errorText(
        await client.callTool({ name: 'list_sets', arguments: { game: 'no-such-game' } }),
      );
      expect(badSet).toMatch(/^The API answered (400|404) [A-Z_]+: .*game/i);
      expect(
        errorText(await client.callTool({ name: 'delete_price_alert', arguments: { id: 'not-an-alert' } })),
      ).toMatch(/^The API answered (400|404) /);
      // Still serving.
      expect(structured(await client.callTool({ name: 'list_games', arguments: {} }))['data']).toHaveLength(
        1,
      );
    });
  });

  it('refuses /mcp without a key or with a wrong one (401, v1 error shape), and charges nothing', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${stack.gatewayUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(initialize),
      });
    const none = await post({});
    expect(none.status).toBe(401);
    expect((await none.json()) as Json).toEqual({
      error: 'Send your API key in the x-api-key header.',
      code: 'MISSING_API_KEY',
    });
    const wrong = await post({ 'x-api-key': 'tcg_live_not-a-real-key-0000000000000000' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as Json)['code']).toBe('INVALID_API_KEY');

    const key = await newKey('starter');
    const ok = await post({ 'x-api-key': key });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Json)['result'].serverInfo.name).toBe('tcg-pricing');
    // The transport request itself was not charged.
    expect((await getJson<Json>(`${stack.gatewayUrl}/v1/games`, key))['_metadata'].apiRequestsUsed).toBe(1);
  });

  it('serves /llms.txt without a key, as text, naming every route of the served OpenAPI documents and every tool', async () => {
    const res = await fetchWithKey(`${stack.gatewayUrl}/llms.txt`, null);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text.split('\n')[0]).toBe('# Trading-card pricing API');
    expect(text).toMatch(/^> /m);
    // The drift check against what the gateway serves: every operation of both documents is listed.
    for (const version of ['v1', 'v2']) {
      const document = (await (await fetch(`${stack.gatewayUrl}/openapi/${version}.json`)).json()) as Json;
      const operations = Object.entries(document['paths'] as Json).flatMap(([path, item]) =>
        Object.keys(item as Json)
          .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
          .map((m) => `${m.toUpperCase()} ${path}`),
      );
      expect(operations.length).toBeGreaterThan(1);
      for (const operation of operations)
        expect(text).toContain(`- [${operation}](/openapi/${version}.json): `);
    }
    // And against the MCP server's own tool list.
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.gatewayUrl}/mcp`), {
        requestInit: { headers: { 'x-api-key': await newKey('starter') } },
      }),
    );
    try {
      for (const tool of (await client.listTools()).tools) expect(text).toContain(`- \`${tool.name}\`: `);
    } finally {
      await client.close();
    }
  });
});
