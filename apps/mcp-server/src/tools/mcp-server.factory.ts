import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from 'pino';
import type { TcgApi } from '../api/tcg-api';
import { registerTools } from './tools';

/** What an agent is told about the server when it connects. */
const INSTRUCTIONS =
  'Trading-card prices: games, sets, cards and their variants with current prices, statistics and ' +
  'history, per region. Every tool call is one API request metered under your API key (v1 answers ' +
  'carry _metadata with the quota used). Find cards with search_cards (or list_games/list_sets), then ' +
  "use a card's uuid with get_card_prices or get_price_history.";

/** One MCP server over the given API (one caller's key): a transport is connected to it. */
export function createMcpServer(api: TcgApi, logger: Logger): McpServer {
  const server = new McpServer({ name: 'tcg-pricing', version: '0.1.0' }, { instructions: INSTRUCTIONS });
  registerTools(server, api, logger);
  return server;
}
