// Generated from docs/openapi/api-v1.json by openapi-typescript 7.13.0 (`npm run clients:generate`).
// Do not edit: change the API, run `npm run openapi`, then `npm run clients:generate`.
export interface paths {
    "/v1/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The key's alerts */
        get: operations["listAlerts"];
        put?: never;
        /**
         * Watch a price: an event is POSTed to `url` when the rule becomes true
         * @description Evaluated after each import or feed sync; fires when the rule becomes true (not again while it stays true). Events are signed as Standard Webhooks specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the secret in this answer, and retried with growing gaps for 24 h. Plans cap a key's alerts (free 5, starter 50, professional 500, enterprise 5,000).
         */
        post: operations["createAlert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One alert, with whether its rule holds and its status */
        get: operations["getAlert"];
        put?: never;
        post?: never;
        /** Delete an alert: nothing more is sent for it */
        delete: operations["deleteAlert"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The alert's last 50 delivery attempts */
        get: operations["listAlertDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the bulk data files
         * @description The latest snapshot of each game as gzip NDJSON and gzip CSV: every variant with its card, current price and statistics per region. Made after every import (once the data has been quiet for a few seconds) and at least daily. Costs 1.
         */
        get: operations["listBulkSnapshots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bulk/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the dated archives of the bulk data
         * @description Every archived file: per UTC day and game, that day's first snapshot in both formats, never rewritten, kept 400 days by default (BULK_ARCHIVE_DAYS). And in `history`, each game's full-history file, written daily and downloaded at `/v1/bulk/{game}/history.ndjson.gz`: one line per variant and region, `{card_id, variant_id, variant_uuid, region, currency, from, prices}`, `prices` holding each UTC day from `from` on (the day's last observation, null for a day without). Costs 1.
         */
        get: operations["listBulkArchives"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bulk/archive/{date}/{game}/{format}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a file of a day's archive
         * @description As `GET /v1/bulk/{game}/{format}` (gzip file, exact length, `ETag` the SHA-256 listed, one byte range, HEAD), for the file archived on `date`; it never changes (`Cache-Control: immutable`). Costs 1.
         */
        get: operations["downloadBulkArchive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bulk/{game}/{format}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a bulk data file
         * @description The latest snapshot of the game in the format, as a gzip file (`Content-Type: application/gzip`, not a content coding): exact `Content-Length`, `ETag` the SHA-256 listed, `If-None-Match` gives 304. HEAD sends the headers only. One byte range on request, so a cut download resumes: `Range: bytes=<first>-[<last>]` or `bytes=-<suffix>` gives 206 with `Content-Range`, a range starting past the end 416 with `Content-Range: bytes *\/<size>`; several ranges, or an `If-Range` that is not the current ETag or `Last-Modified`, give the whole file (200). Costs 1, whatever the size.
         */
        get: operations["downloadBulkSnapshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search or look up cards and their variant prices
         * @description Identifier parameters win over a search, the most specific first: variantId, vendorSkuId, cardId, vendorId, opensetId, imagedbId. A lookup that matches nothing is 200 with empty `data`. Unknown parameters are ignored.
         */
        get: operations["searchCards"];
        put?: never;
        /**
         * Look up many cards in one request
         * @description Every lookup of the batch in request order, each card once (at its first lookup, with that lookup's filters). The query string sets how the cards are presented, as on GET.
         */
        post: operations["batchCards"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cards/autocomplete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Suggest card names as one types
         * @description Up to 20 distinct card names: those with a word starting with `q` first (the names more cards carry first, then those that start with it), then, when none matches so, names close to `q` for a typo. Metered like any request.
         */
        get: operations["autocompleteCardNames"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/games": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the supported games
         * @description Every game with its summary counts and market index.
         */
        get: operations["listGames"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the sets of a game
         * @description Every set of the game, unpaged: `meta` reports the whole list.
         */
        get: operations["listSets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AlertDto: {
            /**
             * Format: uuid
             * @example 6f1c2a7e-5d8b-4c3f-9a0e-1b2c3d4e5f60
             */
            id: string;
            /**
             * @description The watched card's ID.
             * @example lightning-bolt-lea
             */
            card_id: string;
            /** @example Lightning Bolt */
            card_name: string;
            /**
             * @description The watched variant's ID; null: the card's highest-priced raw variant.
             * @example null
             */
            variant_id: string | null;
            /**
             * @description The market whose price is watched.
             * @example US
             */
            region: string;
            /**
             * @description The market's currency (ISO 4217).
             * @example USD
             */
            currency: string;
            /**
             * @example price_above
             * @enum {string}
             */
            rule: "price_above" | "price_below" | "change_24h" | "change_7d";
            /**
             * @description The threshold: an amount in `currency` for a price rule, a percent for a change rule.
             * @example 450
             */
            value: number;
            /**
             * @description Where events are POSTed.
             * @example https://hooks.example.com/tcg
             */
            url: string;
            /**
             * @description `disabled`: its deliveries failed for 24 h (see `disabled_reason`); it sends nothing more.
             * @enum {string}
             */
            status: "active" | "disabled";
            /**
             * @description Whether the rule held at the last evaluation. An alert fires when this turns true, once; it fires again only after it has turned false.
             * @example false
             */
            holds: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            last_fired_at: string | null;
            /** Format: date-time */
            disabled_at: string | null;
            /** @example null */
            disabled_reason: string | null;
        };
        AlertListResponseDto: {
            /** @description The key's alerts, oldest first. */
            data: components["schemas"]["AlertDto"][];
            _metadata: components["schemas"]["UsageMetadataDto"];
        };
        AlertResponseDto: {
            data: components["schemas"]["AlertDto"];
            _metadata: components["schemas"]["UsageMetadataDto"];
        };
        BatchCardRequestItemDto: {
            /**
             * @description Slug or UUID of a card.
             * @example magic-the-gathering-limited-edition-alpha-black-lotus-rare
             */
            cardId?: string;
            /** @description Slug or UUID of a variant: that card with that variant only. */
            variantId?: string;
            /** @description Marketplace product ID. */
            vendorId?: string;
            /** @description Card-data provider ID. */
            opensetId?: string;
            /** @description Card-data provider ID. */
            imagedbId?: string;
            /** @description Marketplace SKU ID (variant level). */
            vendorSkuId?: string;
            /**
             * @description Printing types, comma-separated, case-insensitive; narrows the card's variants.
             * @example Normal
             */
            printing?: string;
            /**
             * @description Conditions by short or long name, comma-separated, case-insensitive: Near Mint, NM, Lightly Played, LP, Moderately Played, MP, Heavily Played, HP, Damaged, DMG, Sealed, S.
             * @example NM,LP
             */
            condition?: string;
            /**
             * @description Unix timestamp (seconds), for delta sync: only variants updated after it; the card is left out when none is.
             * @example 1767139200
             */
            updated_after?: number;
        };
        BulkArchiveDto: {
            /**
             * @description Game identifier (slug).
             * @example magic-the-gathering
             */
            game: string;
            /**
             * @description File format: the day’s snapshot as gzip NDJSON or gzip CSV.
             * @example csv.gz
             * @enum {string}
             */
            format: "ndjson.gz" | "csv.gz";
            /**
             * @description The data version the rows were read at (the `X-Data-Version` of API answers at that time).
             * @example 1842
             */
            data_version: number;
            /**
             * @description Unix timestamp (seconds) of the consistent read the file was made from.
             * @example 1767225600
             */
            generated_at: number;
            /**
             * @description Size of the gzip file in bytes.
             * @example 6815744
             */
            bytes: number;
            /**
             * @description Rows in the file (the CSV header not counted): one per variant and region with prices (history: per variant and region with observations).
             * @example 62630
             */
            rows: number;
            /**
             * @description SHA-256 of the gzip file, lower-case hex; also its `ETag`.
             * @example 9f2c4e0d7a1b3c5e8f6a2d4b1c3e5f7a9b0c2d4e6f8a1b3c5d7e9f0a2b4c6d8e
             */
            sha256: string;
            /**
             * @description Where to download it (relative to the API base), with the same API key.
             * @example /v1/bulk/archive/2026-11-27/magic-the-gathering/csv.gz
             */
            download_url: string;
            /**
             * @description The UTC day whose archive it is (YYYY-MM-DD).
             * @example 2026-11-27
             */
            date: string;
        };
        BulkArchivesResponseDto: {
            /** @description Every archived file, the latest day first, then by game and format. */
            data: components["schemas"]["BulkArchiveDto"][];
            /** @description Each game's latest full-history file (`history.ndjson.gz`, written daily): every variant's daily price series per region. */
            history: components["schemas"]["BulkSnapshotDto"][];
            _metadata: components["schemas"]["UsageMetadataDto"];
        };
        BulkSnapshotDto: {
            /**
             * @description Game identifier (slug).
             * @example magic-the-gathering
             */
            game: string;
            /**
             * @description File format: the snapshot as gzip NDJSON or gzip CSV, or `history.ndjson.gz`, the game's full history (every variant's daily price series per region, written daily).
             * @example csv.gz
             * @enum {string}
             */
            format: "ndjson.gz" | "csv.gz" | "history.ndjson.gz";
            /**
             * @description The data version the rows were read at (the `X-Data-Version` of API answers at that time).
             * @example 1842
             */
            data_version: number;
            /**
             * @description Unix timestamp (seconds) of the consistent read the file was made from.
             * @example 1767225600
             */
            generated_at: number;
            /**
             * @description Size of the gzip file in bytes.
             * @example 6815744
             */
            bytes: number;
            /**
             * @description Rows in the file (the CSV header not counted): one per variant and region with prices (history: per variant and region with observations).
             * @example 62630
             */
            rows: number;
            /**
             * @description SHA-256 of the gzip file, lower-case hex; also its `ETag`.
             * @example 9f2c4e0d7a1b3c5e8f6a2d4b1c3e5f7a9b0c2d4e6f8a1b3c5d7e9f0a2b4c6d8e
             */
            sha256: string;
            /**
             * @description Where to download it (relative to the API base), with the same API key.
             * @example /v1/bulk/magic-the-gathering/csv.gz
             */
            download_url: string;
        };
        BulkSnapshotsResponseDto: {
            /** @description The latest snapshot of each game and format. */
            data: components["schemas"]["BulkSnapshotDto"][];
            _metadata: components["schemas"]["UsageMetadataDto"];
        };
        CardDto: {
            /**
             * @description Card slug: `game-set-name-rarity`.
             * @example magic-the-gathering-limited-edition-alpha-black-lotus-rare
             */
            id: string;
            /**
             * Format: uuid
             * @description UUID of the card; use it for unique identification.
             * @example 9b687c18-3204-583e-ba39-00de37c7b19c
             */
            uuid: string;
            /** @example Black Lotus */
            name: string;
            /**
             * @description Game ID.
             * @example magic-the-gathering
             */
            game: string;
            /**
             * @description Set ID.
             * @example magic-the-gathering-limited-edition-alpha
             */
            set: string;
            /** @example Limited Edition Alpha */
            set_name: string;
            /**
             * @description Card number in its set.
             * @example 232
             */
            number: string | null;
            /**
             * @description Marketplace product ID.
             * @example null
             */
            vendorId: string | null;
            /**
             * @description Identifier from a card-data provider.
             * @example c944c7dc960c4832604973844edee2a1fdc82d98
             */
            opensetId: string | null;
            /**
             * @description Identifier from a card-data provider.
             * @example null
             */
            imagedbId: string | null;
            /** @example Rare */
            rarity: string | null;
            /**
             * @description Free-form extra detail.
             * @example Artifact
             */
            details: string | null;
            variants: components["schemas"]["VariantDto"][];
        };
        CardsResponseDto: {
            data: components["schemas"]["CardDto"][];
            meta: components["schemas"]["PaginationMetaDto"];
            _metadata: components["schemas"]["UsageMetadataDto"];
        };
        CreateAlertDto: {
            /**
             * @description The card to watch (ID or UUID): its highest-priced raw variant, the price cards are sorted by. Give this or `variant_id`.
             * @example lightning-bolt-lea
             */
            card_id?: string;
            /** @description The one variant to watch (ID or UUID). Give this or `card_id`. */
            variant_id?: string;
            /**
             * @description The market (v2 region code or ISO 3166-1 country), default `US`.
             * @example US
             */
            region?: string;
            /**
             * @description `price_above`/`price_below`: the price goes above/below `value`; `change_24h`/`change_7d`: it moves by more than `value` percent over 24 hours/7 days, up or down.
             * @enum {string}
             */
            rule: "price_above" | "price_below" | "change_24h" | "change_7d";
            /**
             * @description A positive amount in the market's currency (price rules), or a percent (change rules).
             * @example 450
             */
            value: number;
            /**
             * @description Where events are POSTed: `https` on a public address (checked again at each delivery; redirects are not followed).
             * @example https://hooks.example.com/tcg
             */
            url: string;
        };
        CreatedAlertDto: {
            /**
             * Format: uuid
             * @example 6f1c2a7e-5d8b-4c3f-9a0e-1b2c3d4e5f60
             */
            id: string;
            /**
             * @description The watched card's ID.
             * @example lightning-bolt-lea
             */
            card_id: string;
            /** @example Lightning Bolt */
            card_name: string;
            /**
             * @description The watched variant's ID; null: the card's highest-priced raw variant.
             * @example null
             */
            variant_id: string | null;
            /**
             * @description The market whose price is watched.
             * @example US
             */
            region: string;
            /**
             * @description The market's currency (ISO 4217).
             * @example USD
             */
            currency: string;
            /**
             * @example price_above
             * @enum {string}
             */
            rule: "price_above" | "price_below" | "change_24h" | "change_7d";
            /**
             * @description The threshold: an amount in `currency` for a price rule, a percent for a change rule.
             * @example 450
             */
            value: number;
            /**
             * @description Where events are POSTed.
             * @example https://hooks.example.com/tcg
             */
            url: string;
            /**
             * @description `disabled`: its deliveries failed for 24 h (see `disabled_reason`); it sends nothing more.
             * @enum {string}
             */
            status: "active" | "disabled";
            /**
             * @description Whether the rule held at the last evaluation. An alert fires when this turns true, once; it fires again only after it has turned false.
             * @example false
             */
            holds: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            last_fired_at: string | null;
            /** Format: date-time */
            disabled_at: string | null;
            /** @example null */
            disabled_reason: string | null;
            /**
             * @description The Standard Webhooks signing secret (`whsec_` and base64): verify `webhook-signature` with it. Shown only in this answer.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        CreatedAlertResponseDto: {
            data: components["schemas"]["CreatedAlertDto"];
            _metadata: components["schemas"]["UsageMetadataDto"];
        };
        DeliveryAttemptDto: {
            /** @description The event (its `webhook-id`; every attempt of it carries the same). */
            event_id: string;
            /**
             * @description The attempt's number for this event, from 1.
             * @example 1
             */
            attempt: number;
            /** Format: date-time */
            at: string;
            /**
             * @description The receiver's HTTP status; null when none came.
             * @example 200
             */
            status?: number | null;
            /**
             * @description Milliseconds from the attempt to its outcome.
             * @example 84
             */
            duration_ms: number;
            /**
             * @description Why it failed: `no_response` (no HTTP status came: no connection, a reset, TLS, or no answer in time), `destination_refused` (the host resolved to a refused address, or to none: nothing sent), `redirect_not_followed`, `http_<status>`, `internal_error`; null when delivered.
             * @example null
             */
            error: string | null;
        };
        DeliveryAttemptsResponseDto: {
            /** @description The last 50 attempts, latest first. */
            data: components["schemas"]["DeliveryAttemptDto"][];
            _metadata: components["schemas"]["UsageMetadataDto"];
        };
        ErrorDto: {
            /**
             * @description What went wrong; for a bad parameter, its name and the values it accepts.
             * @example Invalid value 'Klingon' for 'language'. Accepted: English, Japanese, French, German, Spanish, Italian, Chinese (S), Chinese (T), Portuguese, Russian, Korean.
             */
            error: string;
            /**
             * @description Stable error code.
             * @example INVALID_REQUEST
             * @enum {string}
             */
            code: "MISSING_API_KEY" | "INVALID_API_KEY" | "INVALID_REQUEST" | "FORBIDDEN" | "NOT_FOUND" | "PAYLOAD_TOO_LARGE" | "RATE_LIMIT_EXCEEDED" | "DAILY_LIMIT_EXCEEDED" | "REQUEST_LIMIT_EXCEEDED" | "SERVICE_UNAVAILABLE" | "GATEWAY_TIMEOUT" | "INTERNAL_ERROR";
        };
        GameDto: {
            /**
             * @description Game identifier (slug).
             * @example magic-the-gathering
             */
            id: string;
            /** @example Magic: The Gathering */
            name: string;
            /**
             * @description Cards of the game.
             * @example 4518
             */
            cards_count: number;
            /**
             * @description Raw and graded variants.
             * @example 62630
             */
            variants_count: number;
            /**
             * @description Sealed products.
             * @example 68
             */
            sealed_count: number;
            /** @example 17 */
            sets_count: number;
            /**
             * @description Unix timestamp (seconds) of the latest price observation; null before the first one.
             * @example 1767225600
             */
            last_updated: number | null;
            /**
             * @description Market index in cents: the sum over the game's cards of their highest-priced raw variant (NA).
             * @example 184467523
             */
            game_value_index_cents: number;
            /**
             * Format: float
             * @description Percent change of the market index over 7 days; null when there is no index 7 days back.
             * @example 1.37
             */
            game_value_change_7d_pct: number | null;
            /**
             * @description Where the game's prices come from, sorted: `simulated` (generated sample prices, not market data), `imported` (the operator's own price files), `tcgplayer` (TCGplayer market price, NA), `cardmarket` (Cardmarket trend price, EU). Empty before the first price. Each v2 market names its own `source`.
             * @example [
             *       "cardmarket",
             *       "tcgplayer"
             *     ]
             */
            price_sources: ("simulated" | "imported" | "tcgplayer" | "cardmarket")[];
        };
        GamesResponseDto: {
            data: components["schemas"]["GameDto"][];
            _metadata: components["schemas"]["UsageMetadataDto"];
        };
        NameSuggestionDto: {
            /**
             * @description The card name, as the cards carry it.
             * @example Lightning Bolt
             */
            name: string;
            /**
             * @description Identifier of the name's game.
             * @example magic-the-gathering
             */
            game_id: string;
            /**
             * @description How many cards of the game carry the name.
             * @example 4
             */
            cards_count: number;
            /**
             * @description `prefix`: a word of the name starts with `q` (those come first, the names more cards carry first); `similar`: the name is close to `q`, for a typo (looked for when no name matches by prefix).
             * @example prefix
             * @enum {string}
             */
            match: "prefix" | "similar";
        };
        NameSuggestionsResponseDto: {
            data: components["schemas"]["NameSuggestionDto"][];
            _metadata: components["schemas"]["UsageMetadataDto"];
        };
        PaginationMetaDto: {
            /**
             * @description Matches across all pages.
             * @example 1
             */
            total: number;
            /**
             * @description Page size used (a larger `limit` is clamped to the plan).
             * @example 20
             */
            limit: number;
            /** @example 0 */
            offset: number;
            /**
             * @description Whether another page follows.
             * @example false
             */
            hasMore: boolean;
        };
        PricePointDto: {
            /**
             * Format: float
             * @description Price in USD.
             * @example 28500
             */
            p: number;
            /**
             * @description Unix timestamp (seconds).
             * @example 1767225600
             */
            t: number;
        };
        SetDto: {
            /**
             * @description Set identifier (slug).
             * @example magic-the-gathering-limited-edition-alpha
             */
            id: string;
            /** @example Limited Edition Alpha */
            name: string;
            /**
             * @description Identifier of the set's game.
             * @example magic-the-gathering
             */
            game_id: string;
            /**
             * @description Display name of the set's game.
             * @example Magic: The Gathering
             */
            game: string;
            /**
             * Format: date
             * @example 1993-08-05
             */
            release_date: string | null;
            /** @example 295 */
            cards_count: number;
            /**
             * Format: float
             * @description Market value of the set in USD: the sum over its cards of their highest-priced raw variant (NA).
             * @example 1534872.5
             */
            set_value_usd: number;
        };
        SetsResponseDto: {
            data: components["schemas"]["SetDto"][];
            meta: components["schemas"]["PaginationMetaDto"];
            _metadata: components["schemas"]["UsageMetadataDto"];
        };
        UsageMetadataDto: {
            /**
             * @description The plan of the API key.
             * @example starter
             * @enum {string}
             */
            apiPlan: "free" | "starter" | "professional" | "enterprise";
            /**
             * @description Requests allowed per UTC month.
             * @example 30000
             */
            apiRequestLimit: number;
            /**
             * @description Requests counted this UTC month, this one included.
             * @example 1250
             */
            apiRequestsUsed: number;
            /**
             * @description Requests left this UTC month.
             * @example 28750
             */
            apiRequestsRemaining: number;
            /**
             * @description Requests allowed per UTC day.
             * @example 2000
             */
            apiDailyLimit: number;
            /**
             * @description Requests counted this UTC day, this one included.
             * @example 87
             */
            apiDailyRequestsUsed: number;
            /**
             * @description Requests left this UTC day (decisions.md: the official client reads it).
             * @example 1913
             */
            apiDailyRequestsRemaining: number;
            /**
             * @description Requests allowed per clock minute.
             * @example 60
             */
            apiRateLimit: number;
        };
        VariantDto: {
            /**
             * @description Variant slug: `<cardId>_<condition>_<printing>[_<language>]`.
             * @example magic-the-gathering-limited-edition-alpha-black-lotus-rare_near-mint_normal
             */
            id: string;
            /**
             * Format: uuid
             * @description UUID of the variant.
             * @example d8ee383d-b80b-543c-a417-dba03eca7cf4
             */
            uuid: string;
            /**
             * @description Long form of the condition name.
             * @example Near Mint
             * @enum {string}
             */
            condition: "Near Mint" | "Lightly Played" | "Moderately Played" | "Heavily Played" | "Damaged" | "Sealed";
            /**
             * @description Printing type; a non-English variant carries the suffix ` - <Language>` (`Normal - Japanese`).
             * @example Normal
             */
            printing: string;
            /**
             * @example English
             * @enum {string}
             */
            language: "English" | "Japanese" | "French" | "German" | "Spanish" | "Italian" | "Chinese (S)" | "Chinese (T)" | "Portuguese" | "Russian" | "Korean";
            /**
             * @description Marketplace SKU ID.
             * @example null
             */
            vendorSkuId: string | null;
            /**
             * Format: float
             * @description Current price in USD (NA market); null when the variant has no price.
             * @example 28500
             */
            price: number | null;
            /**
             * @description Unix timestamp (seconds) of the latest observation; null when the variant has no price.
             * @example 1767225600
             */
            lastUpdated: number | null;
            /**
             * @description Percent change over 24 hours; null without an earlier observation to compare with.
             * @example 0.85
             */
            priceChange24hr: number | null;
            /**
             * @description Percent change over 7 days; null when the window is not requested through `include_statistics` or without an earlier observation to compare with.
             * @example 2.4
             */
            priceChange7d: number | null;
            /**
             * @description Mean price over 7 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 28321.43
             */
            avgPrice: number | null;
            /**
             * @description Lowest price over 7 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 27800
             */
            minPrice7d: number | null;
            /**
             * @description Highest price over 7 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 28500
             */
            maxPrice7d: number | null;
            /**
             * @description Population standard deviation of the prices over 7 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 254.1
             */
            stddevPopPrice7d: number | null;
            /**
             * @description Coefficient of variation over 7 days (stddev / avg, a ratio); null when the window is not requested through `include_statistics` or when the mean is 0.
             * @example 0.009
             */
            covPrice7d: number | null;
            /**
             * @description Interquartile range of the prices over 7 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 350
             */
            iqrPrice7d: number | null;
            /**
             * @description Least-squares trend over 7 days, USD per day; null when the window is not requested through `include_statistics` or with fewer than two distinct times.
             * @example 98.2143
             */
            trendSlope7d: number | null;
            /**
             * @description Adjacent observations with different prices over 7 days; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 3
             */
            priceChangesCount7d: number | null;
            /**
             * @description Percent change over 30 days; null when the window is not requested through `include_statistics` or without an earlier observation to compare with.
             * @example 5.1
             */
            priceChange30d: number | null;
            /**
             * @description Mean price over 30 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 27950.5
             */
            avgPrice30d: number | null;
            /**
             * @description Lowest price over 30 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 27100
             */
            minPrice30d: number | null;
            /**
             * @description Highest price over 30 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 28500
             */
            maxPrice30d: number | null;
            /**
             * @description Population standard deviation of the prices over 30 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 402.77
             */
            stddevPopPrice30d: number | null;
            /**
             * @description Coefficient of variation over 30 days (stddev / avg, a ratio); null when the window is not requested through `include_statistics` or when the mean is 0.
             * @example 0.0144
             */
            covPrice30d: number | null;
            /**
             * @description Interquartile range of the prices over 30 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 600
             */
            iqrPrice30d: number | null;
            /**
             * @description Least-squares trend over 30 days, USD per day; null when the window is not requested through `include_statistics` or with fewer than two distinct times.
             * @example 41.3
             */
            trendSlope30d: number | null;
            /**
             * @description Adjacent observations with different prices over 30 days; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 9
             */
            priceChangesCount30d: number | null;
            /**
             * @description Position of the current price in the 30-day low-high range, 0 to 1; null when the window is not requested through `include_statistics` or when the low equals the high.
             * @example 1
             */
            priceRelativeTo30dRange: number | null;
            /**
             * @description Percent change over 90 days; null when the window is not requested through `include_statistics` or without an earlier observation to compare with.
             * @example 9.62
             */
            priceChange90d: number | null;
            /**
             * @description Mean price over 90 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 27012.34
             */
            avgPrice90d: number | null;
            /**
             * @description Lowest price over 90 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 25600
             */
            minPrice90d: number | null;
            /**
             * @description Highest price over 90 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 28500
             */
            maxPrice90d: number | null;
            /**
             * @description Population standard deviation of the prices over 90 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 811.06
             */
            stddevPopPrice90d: number | null;
            /**
             * @description Coefficient of variation over 90 days (stddev / avg, a ratio); null when the window is not requested through `include_statistics` or when the mean is 0.
             * @example 0.03
             */
            covPrice90d: number | null;
            /**
             * @description Interquartile range of the prices over 90 days, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 1250
             */
            iqrPrice90d: number | null;
            /**
             * @description Least-squares trend over 90 days, USD per day; null when the window is not requested through `include_statistics` or with fewer than two distinct times.
             * @example 29.1
             */
            trendSlope90d: number | null;
            /**
             * @description Adjacent observations with different prices over 90 days; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 24
             */
            priceChangesCount90d: number | null;
            /**
             * @description Position of the current price in the 90-day low-high range, 0 to 1; null when the window is not requested through `include_statistics` or when the low equals the high.
             * @example 1
             */
            priceRelativeTo90dRange: number | null;
            /**
             * @description Lowest price over 1 year, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 22150
             */
            minPrice1y: number | null;
            /**
             * @description Highest price over 1 year, USD; null when the window is not requested through `include_statistics` or without observations in the window.
             * @example 28500
             */
            maxPrice1y: number | null;
            /**
             * @description All-time lowest price, USD; null when the window is not requested through `include_statistics` or without observations.
             * @example 15400
             */
            minPriceAllTime: number | null;
            /**
             * Format: date
             * @description UTC date of the earliest observation at the all-time low; null when the window is not requested through `include_statistics` or without observations.
             * @example 2025-01-14
             */
            minPriceAllTimeDate: string | null;
            /**
             * @description All-time highest price, USD; null when the window is not requested through `include_statistics` or without observations.
             * @example 28500
             */
            maxPriceAllTime: number | null;
            /**
             * Format: date
             * @description UTC date of the earliest observation at the all-time high; null when the window is not requested through `include_statistics` or without observations.
             * @example 2026-01-01
             */
            maxPriceAllTimeDate: string | null;
            /** @description Observations over `priceHistoryDuration` back from the latest one, oldest first; `[]` when the variant has no price, null with `include_price_history=false`. */
            priceHistory: components["schemas"]["PricePointDto"][] | null;
            /**
             * @deprecated
             * @description Deprecated: observations over 30 days back from the latest one; null with `include_price_history=false`.
             */
            priceHistory30d: components["schemas"]["PricePointDto"][] | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAlerts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertListResponseDto"];
                };
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    createAlert: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAlertDto"];
            };
        };
        responses: {
            /** @description The alert, with its signing secret (shown once). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedAlertResponseDto"];
                };
            };
            /** @description INVALID_REQUEST: a malformed request or an unrecognised parameter value, named with what it accepts. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Invalid value 'Klingon' for 'language'. Accepted: English, Japanese, French, German, Spanish, Italian, Chinese (S), Chinese (T), Portuguese, Russian, Korean.",
                     *       "code": "INVALID_REQUEST"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description FORBIDDEN: the plan does not allow it (a key's alerts are capped per plan). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The free plan allows 5 alerts per key; delete one to create another.",
                     *       "code": "FORBIDDEN"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description NOT_FOUND: no such resource for this key (another key's alert is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Alert not found.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    getAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertResponseDto"];
                };
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description NOT_FOUND: no such resource for this key (another key's alert is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Alert not found.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    deleteAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description NOT_FOUND: no such resource for this key (another key's alert is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Alert not found.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    listAlertDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAttemptsResponseDto"];
                };
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description NOT_FOUND: no such resource for this key (another key's alert is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Alert not found.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    listBulkSnapshots: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The available snapshots. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkSnapshotsResponseDto"];
                };
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    listBulkArchives: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archived files and the full-history files, with their SHA-256. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkArchivesResponseDto"];
                };
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    downloadBulkArchive: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The UTC day, YYYY-MM-DD. */
                date: string;
                /** @description Game identifier. */
                game: string;
                /** @description File format. */
                format: "ndjson.gz" | "csv.gz";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The gzip file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            /** @description The one range asked for in `Range`. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The file named in `If-None-Match`. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description NOT_FOUND: an unknown day, game or format, or a day without an archive. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "No archive of 'magic-the-gathering' for 2025-01-01: GET /v1/bulk/archive lists the days kept.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    downloadBulkSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Game identifier. */
                game: string;
                /** @description File format: the latest snapshot as NDJSON or CSV, or the game's full history. */
                format: "ndjson.gz" | "csv.gz" | "history.ndjson.gz";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The gzip file. */
            200: {
                headers: {
                    /** @description The SHA-256 of the file, quoted. */
                    ETag?: string;
                    /** @description The size of the file. */
                    "Content-Length"?: number;
                    /** @description attachment; filename="<game>-<data version>.<format>" */
                    "Content-Disposition"?: string;
                    /** @description The data version of the rows. */
                    "X-Data-Version"?: number;
                    /** @description `bytes`: one range may be asked for. */
                    "Accept-Ranges"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            /** @description The one range asked for in `Range`: `Content-Range: bytes <first>-<last>/<size>`. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            /** @description The file named in `If-None-Match` is still the latest. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description NOT_FOUND: an unknown game or format, named with the accepted values. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Unknown format 'zip'. Accepted: ndjson.gz, csv.gz.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description INVALID_REQUEST: the range starts at or past the end of the file (`Content-Range: bytes *\/<size>`). */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the game has no snapshot yet (the first is being made). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    searchCards: {
        parameters: {
            query?: {
                /** @description General search on card name: at least 3 letters or digits in a row. */
                q?: string;
                /** @description Game ID or, case-insensitively, its display name. */
                game?: string;
                /** @description Set ID. */
                set?: string;
                /** @description Slug or UUID of a card. */
                cardId?: string;
                /** @description Slug or UUID of a variant: that card with that variant only. */
                variantId?: string;
                /** @description Marketplace product ID. */
                vendorId?: string;
                /** @description Card-data provider ID. */
                opensetId?: string;
                /** @description Card-data provider ID. */
                imagedbId?: string;
                /** @description Marketplace SKU ID (variant level). */
                vendorSkuId?: string;
                /** @description Card number within a set. */
                number?: string;
                /** @description Printing types, case-insensitive; a ` - <Language>` suffix is ignored. Open vocabulary: an unknown printing matches nothing. */
                printing?: string[];
                /** @description Languages, case-insensitive. Narrows each card's `variants` and never removes cards; variants with no recorded language count as English; ignored with `variantId`. */
                language?: ("English" | "Japanese" | "French" | "German" | "Spanish" | "Italian" | "Chinese (S)" | "Chinese (T)" | "Portuguese" | "Russian" | "Korean")[];
                /** @description Conditions by short or long name, case-insensitive. */
                condition?: ("Near Mint" | "NM" | "Lightly Played" | "LP" | "Moderately Played" | "MP" | "Heavily Played" | "HP" | "Damaged" | "DMG" | "Sealed" | "S")[];
                /** @description How far back `priceHistory` goes from the latest observation. */
                priceHistoryDuration?: "7d" | "30d" | "90d" | "180d" | "1y";
                /** @description Include the `priceHistory` and `priceHistory30d` arrays (null when false). */
                include_price_history?: boolean;
                /** @description Statistic windows to fill; the flat fields of the others are null. */
                include_statistics?: ("7d" | "30d" | "90d" | "1y" | "allTime")[];
                /** @description Include cards none of whose returned variants has a price; ignored with `q`. */
                include_null_prices?: boolean;
                /** @description Unix timestamp (seconds): only variants updated after it, and only cards left with one (delta sync). A browse whose timestamp reaches more than 500 prices is a 400: a full copy is the bulk download. */
                updated_after?: number;
                /** @description Cards per page; a value above the plan's maximum (20 free, 100 starter and professional, 200 enterprise) is clamped to it. */
                limit?: number;
                /** @description Pagination offset, at most 10,000: deeper, narrow the browse to a `set` or walk /v2/cards' cursors. */
                offset?: number;
                /** @description Sort by the price or the change over a window of each card's highest-priced returned variant; ties break on card ID. Without it a search orders by relevance and a browse by set, then card number. With `condition`, `printing` or `updated_after` only within a `set` (else 400). */
                orderBy?: "price" | "24h" | "7d" | "30d" | "90d";
                /** @description Direction of `orderBy`. */
                order?: "asc" | "desc";
                /** @description Only cards priced at or above this, in USD (at most 2 decimals). With `condition`, `printing` or `updated_after` only within a `set` (else 400). */
                min_price?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of cards, each with its variants. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardsResponseDto"];
                };
            };
            /** @description INVALID_REQUEST: a malformed request or an unrecognised parameter value, named with what it accepts. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Invalid value 'Klingon' for 'language'. Accepted: English, Japanese, French, German, Spanish, Italian, Chinese (S), Chinese (T), Portuguese, Russian, Korean.",
                     *       "code": "INVALID_REQUEST"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    batchCards: {
        parameters: {
            query?: {
                /** @description How far back `priceHistory` goes from the latest observation. */
                priceHistoryDuration?: "7d" | "30d" | "90d" | "180d" | "1y";
                /** @description Include the `priceHistory` and `priceHistory30d` arrays (null when false). */
                include_price_history?: boolean;
                /** @description Statistic windows to fill; the flat fields of the others are null. */
                include_statistics?: ("7d" | "30d" | "90d" | "1y" | "allTime")[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Card lookups, each with exactly one identifier; at most 200 items, fewer on smaller plans (20 free, 100 starter and professional). */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchCardRequestItemDto"][];
            };
        };
        responses: {
            /** @description The cards of the batch; `meta.limit` is the number of lookups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardsResponseDto"];
                };
            };
            /** @description INVALID_REQUEST: a malformed request or an unrecognised parameter value, named with what it accepts. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Invalid value 'Klingon' for 'language'. Accepted: English, Japanese, French, German, Spanish, Italian, Chinese (S), Chinese (T), Portuguese, Russian, Korean.",
                     *       "code": "INVALID_REQUEST"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: more items than the plan's batch size (at most 200). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "At most 100 items per batch on the starter plan; this batch has 150.",
                     *       "code": "PAYLOAD_TOO_LARGE"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    autocompleteCardNames: {
        parameters: {
            query: {
                /** @description The start of a card name as typed, 2 to 64 characters, case-insensitive. A word of the name may start with it (`bol` finds Lightning Bolt); a name close to it is suggested too (`lightnin blot`). */
                q: string;
                /** @description Game ID or, case-insensitively, its display name: that game's names only. */
                game?: string;
                /** @description Most names returned, 1 to 20. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The suggested names, best first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NameSuggestionsResponseDto"];
                };
            };
            /** @description INVALID_REQUEST: a malformed request or an unrecognised parameter value, named with what it accepts. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Invalid value 'Klingon' for 'language'. Accepted: English, Japanese, French, German, Spanish, Italian, Chinese (S), Chinese (T), Portuguese, Russian, Korean.",
                     *       "code": "INVALID_REQUEST"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    listGames: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every supported game. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GamesResponseDto"];
                };
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    listSets: {
        parameters: {
            query: {
                /** @description Game ID or, case-insensitively, its display name. */
                game: string;
                /** @description Search sets by name (case-insensitive substring). */
                q?: string;
                orderBy?: "name" | "release_date";
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sets of the game. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SetsResponseDto"];
                };
            };
            /** @description INVALID_REQUEST: a malformed request or an unrecognised parameter value, named with what it accepts. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Invalid value 'Klingon' for 'language'. Accepted: English, Japanese, French, German, Spanish, Italian, Chinese (S), Chinese (T), Portuguese, Russian, Korean.",
                     *       "code": "INVALID_REQUEST"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description MISSING_API_KEY: no `x-api-key` header; INVALID_API_KEY: the key is not valid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED (per minute), DAILY_LIMIT_EXCEEDED (per UTC day) or REQUEST_LIMIT_EXCEEDED (per UTC month); a refused request costs nothing. */
            429: {
                headers: {
                    /** @description Seconds until the exhausted window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
}
