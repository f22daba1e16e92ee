import {
  type CardsQuery,
  type CardV2Query,
  type CreateAlertBody,
  type SetsQuery,
  TcgApiError,
  TcgClient,
  TcgResponseTooLargeError,
  TcgTimeoutError,
} from '@tcg-pricing/client';
import { ApiCallError, type JsonObject, type Query, type TcgApi } from './tcg-api';

export interface ClientApiOptions {
  /** The gateway's base address. */
  readonly baseUrl: string;
  /** The caller's key, sent as `x-api-key` on every call. */
  readonly apiKey: string;
  /** Longest one call may take, headers and body. */
  readonly timeoutMs: number;
  /** Largest answer read; past it the call fails. */
  readonly maxResponseBytes: number;
}

/**
 * The API through the repository's TypeScript client (`clients/typescript`), one request per call:
 * no retries, because a retry is one more metered request the agent did not ask for; the agent
 * gets the 429 or 503 with its `Retry-After` instead and decides.
 */
export class ClientTcgApi implements TcgApi {
  private readonly client: TcgClient;

  constructor(options: ClientApiOptions) {
    this.client = new TcgClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs,
      retries: 0,
      maxResponseBytes: options.maxResponseBytes,
    });
  }

  listGames(): Promise<JsonObject> {
    return call(() => this.client.v1.games.list());
  }

  listSets(query: Query): Promise<JsonObject> {
    return call(() => this.client.v1.sets.list(query as SetsQuery));
  }

  searchCards(query: Query): Promise<JsonObject> {
    return call(() => this.client.v1.cards.list(query as CardsQuery));
  }

  getCardV2(id: string, query: Query): Promise<JsonObject> {
    return call(() => this.client.v2.cards.get(id, query as CardV2Query));
  }

  createAlert(body: JsonObject): Promise<JsonObject> {
    return call(() => this.client.v1.alerts.create(body as CreateAlertBody));
  }

  listAlerts(): Promise<JsonObject> {
    return call(() => this.client.v1.alerts.list());
  }

  async deleteAlert(id: string): Promise<void> {
    await call(async () => {
      await this.client.v1.alerts.delete(id);
      return {};
    });
  }
}

/** The client's answer as the JSON object it is, or its error as the tools word one. */
async function call(request: () => Promise<object>): Promise<JsonObject> {
  try {
    return (await request()) as JsonObject;
  } catch (error) {
    if (error instanceof TcgApiError) {
      // The client's code is `HTTP_<status>` when the body had none: then there is nothing to add.
      const code = error.code.startsWith('HTTP_') ? undefined : error.code;
      throw new ApiCallError(error.message, error.status, code, error.retryAfter);
    }
    if (error instanceof TcgResponseTooLargeError)
      throw new ApiCallError(
        `The API's answer is larger than ${error.maxResponseBytes} bytes; narrow the request (a smaller limit).`,
      );
    if (error instanceof TcgTimeoutError)
      throw new ApiCallError(`The API did not answer in time (${error.message}).`);
    throw new ApiCallError(
      `The API could not be reached (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}
