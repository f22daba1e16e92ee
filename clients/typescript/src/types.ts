// Names for the generated types (./generated/, from the served OpenAPI documents), taken by
// operationId so that a parameter or field added to the API reaches the client when the types are
// generated again (`npm run clients:generate`).
import type { components as V1Components, operations as V1Operations } from './generated/api-v1.js';
import type { components as V2Components, operations as V2Operations } from './generated/api-v2.js';

type V1Schemas = V1Components['schemas'];
type V2Schemas = V2Components['schemas'];

/** The query parameters of an operation (an empty object when it has none). */
type QueryOf<Op> = Op extends { parameters: { query?: infer Q } }
  ? [NonNullable<Q>] extends [never]
    ? Record<string, never>
    : NonNullable<Q>
  : Record<string, never>;
/** The JSON body of an operation's success answer (200 or 201). */
type JsonOf<Op, Status extends number> = Op extends {
  responses: { [S in Status]: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
type BodyOf<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

// v1
export type Game = V1Schemas['GameDto'];
export type CardSet = V1Schemas['SetDto'];
export type Card = V1Schemas['CardDto'];
export type Variant = V1Schemas['VariantDto'];
export type PaginationMeta = V1Schemas['PaginationMetaDto'];
export type UsageMetadata = V1Schemas['UsageMetadataDto'];
export type Alert = V1Schemas['AlertDto'];
export type CreatedAlert = V1Schemas['CreatedAlertDto'];
export type DeliveryAttempt = V1Schemas['DeliveryAttemptDto'];
/** v1 error body: `{ error, code }`. */
export type V1ErrorBody = V1Schemas['ErrorDto'];

export type GamesResponse = JsonOf<V1Operations['listGames'], 200>;
export type SetsQuery = QueryOf<V1Operations['listSets']>;
export type SetsResponse = JsonOf<V1Operations['listSets'], 200>;
export type CardsQuery = QueryOf<V1Operations['searchCards']>;
export type CardsResponse = JsonOf<V1Operations['searchCards'], 200>;
export type BatchItem = V1Schemas['BatchCardRequestItemDto'];
/** How the batch's cards are presented (the query string of `POST /v1/cards`). */
export type BatchQuery = QueryOf<V1Operations['batchCards']>;
export type BatchResponse = JsonOf<V1Operations['batchCards'], 200>;
export type CreateAlertBody = BodyOf<V1Operations['createAlert']>;
export type CreatedAlertResponse = JsonOf<V1Operations['createAlert'], 201>;
export type AlertListResponse = JsonOf<V1Operations['listAlerts'], 200>;
export type AlertResponse = JsonOf<V1Operations['getAlert'], 200>;
export type DeliveryAttemptsResponse = JsonOf<V1Operations['listAlertDeliveries'], 200>;

// v2
export type CardV2 = V2Schemas['CardV2'];
export type VariantV2 = V2Schemas['VariantV2'];
export type MarketV2 = V2Schemas['MarketV2'];
export type PaginationMetaV2 = V2Schemas['PaginationMetaV2'];
/** v2 error body: RFC 7807 `application/problem+json` with the same `code`s as v1. */
export type ProblemDetails = V2Schemas['ProblemDetailsDto'];

export type CardsV2Query = QueryOf<V2Operations['listCards']>;
export type CardsV2Response = JsonOf<V2Operations['listCards'], 200>;
export type CardV2Query = QueryOf<V2Operations['getCard']>;
export type CardV2Response = JsonOf<V2Operations['getCard'], 200>;
/** The id crosswalk: every marketplace id the feeds assert for a card and its variants. */
export type CardIdsResponse = JsonOf<V2Operations['getCardIds'], 200>;
/** The kinds of id `GET /v2/ids/{kind}/{value}` looks up. */
export type IdKind = V2Operations['lookupId']['parameters']['path']['kind'];
export type IdLookupResponse = JsonOf<V2Operations['lookupId'], 200>;

/** What every method takes last. */
export interface CallOptions {
  /** Aborts the call, its retries and the waits between them. */
  readonly signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call (each attempt). */
  readonly timeoutMs?: number;
  /** Overrides the client's `retries` for this call. */
  readonly retries?: number;
}
