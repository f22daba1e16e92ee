/**
 * The API calls the tools make, each one ordinary request through the gateway under the caller's
 * key (so each is authenticated, metered and rate-limited like any other). An answer is the API's
 * own JSON; a refusal is an `ApiCallError` with the status and the API's message, which the tools
 * turn into a tool error.
 */
export interface TcgApi {
  listGames(): Promise<JsonObject>;
  listSets(query: Query): Promise<JsonObject>;
  searchCards(query: Query): Promise<JsonObject>;
  getCardV2(id: string, query: Query): Promise<JsonObject>;
  createAlert(body: JsonObject): Promise<JsonObject>;
  listAlerts(): Promise<JsonObject>;
  deleteAlert(id: string): Promise<void>;
}

export type JsonObject = { [key: string]: unknown };

/** Query parameters as the tools pass them on; the client sends a list comma-separated. */
export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

/** What went wrong with a call: the API's refusal (`status` set), or no answer at all. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    /** The HTTP status, when the API answered. */
    readonly status?: number,
    /** The API's error code (v1 `code`, v2 `code`), when it sent one. */
    readonly code?: string,
    /** Seconds the API asked to wait (`Retry-After` of a 429 or 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}
