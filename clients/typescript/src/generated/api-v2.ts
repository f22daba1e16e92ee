// Generated from docs/openapi/api-v2.json by openapi-typescript 7.13.0 (`npm run clients:generate`).
// Do not edit: change the API, run `npm run openapi`, then `npm run clients:generate`.
export interface paths {
    "/v2/cards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Browse, search or look up cards, priced per region
         * @description Identifier parameters win over a search, the most specific first: variant_id, vendor_sku, card_id, vendor_id. Browse and search are cursor-paginated; a lookup that matches nothing is 200 with empty `data`. Unknown parameters are a 400. With neither `regions` nor `graded`, the result equals v1's raw NA pricing in the v2 shape.
         */
        get: operations["listCards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/cards/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Look up one card, priced per region */
        get: operations["getCard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/cards/{id}/ids": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every marketplace id the feeds know for a card and its variants, and where they disagree
         * @description Each id with the feed that said it and the first and last UTC day a sync read it there (docs/id-crosswalk.md). `conflicts` lists every disagreement: two feeds giving the card (or a variant) different values of one kind, or one value given to another card too. No query parameters.
         */
        get: operations["getCardIds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/ids/{kind}/{value}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The cards a marketplace id belongs to, by kind
         * @description The cards (or variants, for a SKU) any feed gave this id, each with the feeds that said so; an id no feed gave is 200 with an empty `cards`. More than one card is a conflict, listed. No query parameters.
         */
        get: operations["lookupId"];
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
        CardExternalIdsV2: {
            /**
             * @description Marketplace product ID (v1 `vendorId`).
             * @example null
             */
            vendor: string | null;
            /**
             * @description Card-data provider ID (v1 `imagedbId`).
             * @example null
             */
            imagedb: string | null;
            /**
             * @description Card-data provider ID (v1 `opensetId`).
             * @example c944c7dc960c4832604973844edee2a1fdc82d98
             */
            openset: string | null;
        };
        CardGameV2: {
            /** @example magic-the-gathering */
            id: string;
            /** @example Magic: The Gathering */
            name: string;
        };
        CardIdsV2: {
            /**
             * Format: uuid
             * @description The card’s id (v2 `id`).
             */
            id: string;
            /** @description The card’s legacy slug. */
            slug: string;
            /** @description The card’s own ids, by kind, value and feed. */
            ids: components["schemas"]["IdAssertionV2"][];
            /** @description The variants any feed gave an id, by slug. */
            variants: components["schemas"]["VariantIdsV2"][];
            /** @description Every disagreement between feeds over this card’s ids; empty when they agree. */
            conflicts: components["schemas"]["IdConflictV2"][];
        };
        CardIdsV2Response: {
            data: components["schemas"]["CardIdsV2"];
        };
        CardSetV2: {
            /** @example magic-the-gathering-limited-edition-alpha */
            id: string;
            /** @example Limited Edition Alpha */
            name: string | null;
        };
        CardV2: {
            /**
             * Format: uuid
             * @description Stable native identifier (v1 `uuid`); key on it.
             * @example 9b687c18-3204-583e-ba39-00de37c7b19c
             */
            id: string;
            /**
             * @description Legacy v1 card `id`; still accepted for lookups.
             * @example magic-the-gathering-limited-edition-alpha-black-lotus-rare
             */
            slug: string;
            /** @example Black Lotus */
            name: string;
            game: components["schemas"]["CardGameV2"];
            set: components["schemas"]["CardSetV2"];
            /**
             * @description Card number in its set.
             * @example 232
             */
            number: string | null;
            /** @example Rare */
            rarity: string | null;
            external_ids: components["schemas"]["CardExternalIdsV2"];
            /**
             * @description Free-form extra detail.
             * @example Artifact
             */
            details: string | null;
            variants: components["schemas"]["VariantV2"][];
        };
        CardV2Response: {
            data: components["schemas"]["CardV2"];
        };
        CardsV2Response: {
            data: components["schemas"]["CardV2"][];
            meta: components["schemas"]["PaginationMetaV2"];
        };
        ConversionV2: {
            /**
             * @description The asked ISO 4217 code.
             * @example EUR
             */
            currency: string;
            /**
             * @description `price` in the asked currency, rounded once to its minor unit; null when there is no price or no rate (`reason`).
             * @example 10.41
             */
            price: number | null;
            /**
             * @description Units of the asked currency per unit of the native one (cross rates through the euro), 6 decimals; 1 when they are the same.
             * @example 0.946522
             */
            rate: number | null;
            /**
             * Format: date
             * @description The rate's own date: the UTC day of `updated_at`, or the latest ECB business day before it (weekends, TARGET holidays), at most 7 days back; null without a rate or when nothing was converted.
             * @example 2017-03-03
             */
            rate_date: string | null;
            /**
             * @description Who published the rate; null without a rate or when nothing was converted.
             * @example ECB euro foreign exchange reference rates
             */
            source: string | null;
            /**
             * @description Why `price` is null: the market has no price, or the ECB has no rate for the currency within 7 days of the day.
             * @example no ECB rate for USD on 2017-03-20 or in the 7 days before it
             */
            reason?: string;
            /** @description The windows of `periods`, their money statistics at the rate of the market's observation day (the day every window ends on). */
            periods?: components["schemas"]["ConvertedPeriodsV2"];
            /** @description The points of `price_history`, each converted with the rate of its own day. */
            price_history?: components["schemas"]["ConvertedPricePointV2"][];
        };
        ConvertedPeriodStatsV2: {
            /**
             * @description Mean price.
             * @example 9.94
             */
            avg?: number | null;
            /**
             * @description Lowest price.
             * @example 9.47
             */
            min?: number | null;
            /**
             * @description Highest price.
             * @example 10.41
             */
            max?: number | null;
            /**
             * @description Population standard deviation.
             * @example 0.47
             */
            stddev?: number | null;
            /**
             * @description Interquartile range.
             * @example 0.47
             */
            iqr?: number | null;
            /**
             * @description Least-squares trend, units of the asked currency per day.
             * @example 0.9465
             */
            trend_slope?: number | null;
        };
        ConvertedPeriodsV2: {
            "7d"?: components["schemas"]["ConvertedPeriodStatsV2"];
            "30d"?: components["schemas"]["ConvertedPeriodStatsV2"];
            "90d"?: components["schemas"]["ConvertedPeriodStatsV2"];
            /** @description `min` and `max` only. */
            "1y"?: components["schemas"]["ConvertedPeriodStatsV2"];
            /** @description `min` and `max` only. */
            all_time?: components["schemas"]["ConvertedPeriodStatsV2"];
        };
        ConvertedPricePointV2: {
            /**
             * @description The point's Unix timestamp (seconds), as in `price_history`.
             * @example 1488542400
             */
            t: number;
            /**
             * @description The price in the asked currency; null when its day has no rate (`reason`).
             * @example 10.41
             */
            p: number | null;
            /**
             * @description Units of the asked currency per unit of the native one, 6 decimals.
             * @example 0.946522
             */
            rate: number | null;
            /**
             * Format: date
             * @description The date of the rate used: the point's UTC day, or the latest ECB business day before it.
             * @example 2017-03-03
             */
            rate_date: string | null;
            /** @description Why there is no converted price (no ECB rate within 7 days). */
            reason?: string;
        };
        CursorsV2: {
            /**
             * @description Opaque cursor of the next page; null on the last one.
             * @example eyJrIjpbIm1hZ2ljIiwiMjMyIl19.c2lnbmF0dXJl
             */
            next: string | null;
            /**
             * @description Opaque cursor of the previous page; null on the first one.
             * @example null
             */
            prev: string | null;
        };
        GradingV2: {
            /**
             * @example PSA
             * @enum {string}
             */
            company: "PSA" | "BGS" | "CGC" | "BCCG" | "BVG" | "SGC";
            /**
             * @description Numeric grade, 1 to 10 in halves; null only for cards graded as authentic.
             * @example 9
             */
            grade: number | null;
            /**
             * @description Special designation, e.g. `Black Label`.
             * @example null
             */
            grade_label: string | null;
            /**
             * @description Grading qualifier (e.g. an off-centre mark); qualified cards are priced separately.
             * @example null
             */
            qualifier: string | null;
            /**
             * @description Display-ready grade.
             * @example PSA 9
             */
            canonical: string;
        };
        IdAssertionV2: {
            /**
             * @description What the id is: `tcgplayer_product`, `tcgplayer_etched_product` (the etched printing’s product), `tcgplayer_sku` (a variant’s), `cardmarket_product`, `scryfall_id`, `mtgjson_uuid` (one per face of a multi-face card), `multiverse_id`.
             * @example tcgplayer_product
             * @enum {string}
             */
            kind: "tcgplayer_product" | "tcgplayer_etched_product" | "tcgplayer_sku" | "cardmarket_product" | "scryfall_id" | "mtgjson_uuid" | "multiverse_id";
            /**
             * @description The id as the marketplace or provider writes it.
             * @example 1029
             */
            value: string;
            /**
             * @description The feed that said it; null: back-filled from what the catalogue held before the crosswalk, which no one feed can be named for.
             * @example mtgjson
             * @enum {string|null}
             */
            feed: "mtgjson" | "scryfall" | "tcgcsv" | "cardmarket" | null;
            /**
             * Format: date
             * @description UTC day a sync first read it from the feed (a TCGCSV back-fill: its archive's day); null: back-filled, the day is not known.
             * @example 2026-12-07
             */
            first_seen: string | null;
            /**
             * Format: date
             * @description UTC day a sync last read it from the feed (a TCGCSV back-fill: its archive's day); null: back-filled, the day is not known.
             * @example 2026-12-07
             */
            last_seen: string | null;
        };
        IdConflictAssertionV2: {
            /** Format: uuid */
            card_id: string;
            card_slug: string;
            /**
             * Format: uuid
             * @description null: the card’s own id.
             */
            variant_id: string | null;
            variant_slug: string | null;
            /** @example 1030 */
            value: string;
            /**
             * @example scryfall
             * @enum {string}
             */
            feed: "mtgjson" | "scryfall" | "tcgcsv" | "cardmarket";
            /**
             * Format: date
             * @description UTC day a sync last read it from the feed (a TCGCSV back-fill: its archive's day); null: back-filled, the day is not known.
             * @example 2026-12-07
             */
            last_seen: string | null;
        };
        IdConflictV2: {
            /**
             * @description `values_differ`: two feeds give one card (or variant) different values of one kind, each feed’s latest values compared; `value_shared`: one value of a kind is given to more than one card (or variant).
             * @example values_differ
             * @enum {string}
             */
            reason: "values_differ" | "value_shared";
            /**
             * @description What the id is: `tcgplayer_product`, `tcgplayer_etched_product` (the etched printing’s product), `tcgplayer_sku` (a variant’s), `cardmarket_product`, `scryfall_id`, `mtgjson_uuid` (one per face of a multi-face card), `multiverse_id`.
             * @example tcgplayer_product
             * @enum {string}
             */
            kind: "tcgplayer_product" | "tcgplayer_etched_product" | "tcgplayer_sku" | "cardmarket_product" | "scryfall_id" | "mtgjson_uuid" | "multiverse_id";
            /**
             * @description The disagreement in words.
             * @example tcgplayer_product: mtgjson says 1029, scryfall says 1030
             */
            detail: string;
            assertions: components["schemas"]["IdConflictAssertionV2"][];
        };
        IdHolderV2: {
            /**
             * Format: uuid
             * @description The card’s id: `GET /v2/cards/{id}` takes it.
             */
            card_id: string;
            card_slug: string;
            /**
             * Format: uuid
             * @description null: the card’s own id.
             */
            variant_id: string | null;
            variant_slug: string | null;
            /** @description Which feeds said it, and when. */
            asserted_by: components["schemas"]["IdSayingV2"][];
        };
        IdLookupV2: {
            /**
             * @description What the id is: `tcgplayer_product`, `tcgplayer_etched_product` (the etched printing’s product), `tcgplayer_sku` (a variant’s), `cardmarket_product`, `scryfall_id`, `mtgjson_uuid` (one per face of a multi-face card), `multiverse_id`.
             * @example tcgplayer_product
             * @enum {string}
             */
            kind: "tcgplayer_product" | "tcgplayer_etched_product" | "tcgplayer_sku" | "cardmarket_product" | "scryfall_id" | "mtgjson_uuid" | "multiverse_id";
            /** @example 1029 */
            value: string;
            /** @description Empty when no feed gave this id to any card. */
            cards: components["schemas"]["IdHolderV2"][];
            /** @description Non-empty when the id is given to more than one card. */
            conflicts: components["schemas"]["IdConflictV2"][];
        };
        IdLookupV2Response: {
            data: components["schemas"]["IdLookupV2"];
        };
        IdSayingV2: {
            /**
             * @description The feed that said it; null: back-filled from what the catalogue held before the crosswalk, which no one feed can be named for.
             * @example mtgjson
             * @enum {string|null}
             */
            feed: "mtgjson" | "scryfall" | "tcgcsv" | "cardmarket" | null;
            /**
             * Format: date
             * @description UTC day a sync first read it from the feed (a TCGCSV back-fill: its archive's day); null: back-filled, the day is not known.
             * @example 2026-12-07
             */
            first_seen: string | null;
            /**
             * Format: date
             * @description UTC day a sync last read it from the feed (a TCGCSV back-fill: its archive's day); null: back-filled, the day is not known.
             * @example 2026-12-07
             */
            last_seen: string | null;
        };
        MarketV2: {
            /**
             * @description The requested region code: a market code (NA, EU, UK, JP, OCE, LATAM, OTHER) or an ISO 3166-1 alpha-2 country code.
             * @example NA
             */
            region: string;
            /**
             * @description ISO 4217 code quoting `price` and every `periods` value: the market's main currency, or the country's.
             * @example USD
             */
            currency: string;
            /**
             * @description Observed price in this region; null when the region has no data. Never converted or copied from another region.
             * @example 28500
             */
            price: number | null;
            /**
             * @description Unix timestamp (seconds) of the latest observation; null when the region has none.
             * @example 1767225600
             */
            updated_at: number | null;
            /**
             * @description Percent change over 24 hours (v1 `priceChange24hr`).
             * @example 0.85
             */
            change_24h_pct: number | null;
            /**
             * @description Where this market's observations come from: `tcgplayer` (TCGplayer market price, NA's primary source), `cardmarket` (Cardmarket trend price, EU's), `imported` (the operator's own price files) or `simulated` (generated sample prices, not market data); null when the region has no observation. `updated_at` is the time of its last observation.
             * @example tcgplayer
             * @enum {string|null}
             */
            source: "simulated" | "imported" | "tcgplayer" | "cardmarket" | null;
            /** @description Statistics per window; present when `include` asks for periods (the default); `{}` for a region without data. */
            periods?: components["schemas"]["PeriodsV2"];
            /** @description Observed prices, oldest first, over the `price_history` window back from the latest one; present when `include` asks for it (the default); `[]` for a region without data. */
            price_history?: components["schemas"]["PricePointV2"][];
            /** @description Present only with `currency=`: the price in that currency, with the rate, its date and its source (docs/currencies.md). */
            conversion?: components["schemas"]["ConversionV2"];
        };
        PaginationMetaV2: {
            /**
             * @description Items in this response's `data`.
             * @example 20
             */
            count: number;
            /**
             * @description Matches across pages; null means unknown (not counted in time), not zero.
             * @example 295
             */
            total: number | null;
            /**
             * @description Page size used (a larger `limit` is clamped to the plan).
             * @example 20
             */
            limit: number;
            /** @example true */
            has_more: boolean;
            cursor: components["schemas"]["CursorsV2"];
        };
        PeriodStatsV2: {
            /**
             * @description Percent change over the window. 7d, 30d and 90d only.
             * @example 5.1
             */
            change_pct?: number | null;
            /**
             * @description Mean price. 7d, 30d and 90d only.
             * @example 27950.5
             */
            avg?: number | null;
            /**
             * @description Lowest price.
             * @example 27100
             */
            min?: number | null;
            /**
             * @description Highest price.
             * @example 28500
             */
            max?: number | null;
            /**
             * @description Population standard deviation. 7d, 30d and 90d only.
             * @example 402.77
             */
            stddev?: number | null;
            /**
             * @description Coefficient of variation (stddev / avg, a ratio). 7d, 30d and 90d only.
             * @example 0.0144
             */
            cov?: number | null;
            /**
             * @description Interquartile range. 7d, 30d and 90d only.
             * @example 600
             */
            iqr?: number | null;
            /**
             * @description Least-squares trend, currency units per day. 7d, 30d and 90d only.
             * @example 41.3
             */
            trend_slope?: number | null;
            /**
             * @description Adjacent observations with different prices. 7d, 30d and 90d only.
             * @example 9
             */
            changes_count?: number | null;
            /**
             * @description Position of the current price in the window's low-high range, 0 to 1. 30d and 90d only.
             * @example 1
             */
            range_position?: number | null;
            /**
             * Format: date
             * @description UTC date of the earliest observation at the all-time low. all_time only.
             * @example 2025-01-14
             */
            min_date?: string | null;
            /**
             * Format: date
             * @description UTC date of the earliest observation at the all-time high. all_time only.
             * @example 2026-01-01
             */
            max_date?: string | null;
        };
        PeriodsV2: {
            "7d"?: components["schemas"]["PeriodStatsV2"];
            "30d"?: components["schemas"]["PeriodStatsV2"];
            "90d"?: components["schemas"]["PeriodStatsV2"];
            /** @description `min` and `max` only. */
            "1y"?: components["schemas"]["PeriodStatsV2"];
            /** @description `min`, `max`, `min_date` and `max_date` only. */
            all_time?: components["schemas"]["PeriodStatsV2"];
        };
        PricePointV2: {
            /**
             * @description Unix timestamp (seconds).
             * @example 1767225600
             */
            t: number;
            /**
             * @description Price in the market's currency.
             * @example 28500
             */
            p: number;
        };
        ProblemDetailsDto: {
            /**
             * Format: uri
             * @description Problem type: the error documentation address with the problem's slug as fragment.
             * @example https://docs.example.com/errors#invalid-request
             */
            type: string;
            /**
             * @description Short title of the problem type.
             * @example Invalid request
             */
            title: string;
            /**
             * @description HTTP status.
             * @example 400
             */
            status: number;
            /**
             * @description What went wrong; for a bad parameter, its name and the values it accepts.
             * @example Invalid value 'MOON' for 'regions'. Accepted: market codes NA, EU, UK, JP, OCE, LATAM, OTHER or an ISO 3166-1 alpha-2 country code.
             */
            detail: string;
            /**
             * @description Stable error code, the same as v1's.
             * @example INVALID_REQUEST
             * @enum {string}
             */
            code: "MISSING_API_KEY" | "INVALID_API_KEY" | "INVALID_REQUEST" | "FORBIDDEN" | "NOT_FOUND" | "PAYLOAD_TOO_LARGE" | "RATE_LIMIT_EXCEEDED" | "DAILY_LIMIT_EXCEEDED" | "REQUEST_LIMIT_EXCEEDED" | "SERVICE_UNAVAILABLE" | "GATEWAY_TIMEOUT" | "INTERNAL_ERROR";
        };
        VariantExternalIdsV2: {
            /**
             * @description Marketplace SKU ID.
             * @example null
             */
            vendor_sku: string | null;
        };
        VariantIdsV2: {
            /**
             * Format: uuid
             * @description The variant’s id (v2 `variants[].id`).
             */
            id: string;
            /** @description The variant’s legacy slug. */
            slug: string;
            ids: components["schemas"]["IdAssertionV2"][];
        };
        VariantV2: {
            /**
             * Format: uuid
             * @description Stable identifier (v1 variant `uuid`).
             * @example d8ee383d-b80b-543c-a417-dba03eca7cf4
             */
            id: string;
            /**
             * @description Legacy v1 variant `id`; still accepted for lookups.
             * @example magic-the-gathering-limited-edition-alpha-black-lotus-rare_near-mint_normal
             */
            slug: string;
            /**
             * @example raw
             * @enum {string}
             */
            type: "raw" | "graded";
            /**
             * @description Set for raw variants; null for graded ones.
             * @example Near Mint
             * @enum {string|null}
             */
            condition: "Near Mint" | "Lightly Played" | "Moderately Played" | "Heavily Played" | "Damaged" | "Sealed" | null;
            /**
             * @description Print type only (no language suffix, unlike v1).
             * @example Normal
             */
            printing: string | null;
            /**
             * @description Set only for non-English printings; null means English.
             * @example null
             * @enum {string|null}
             */
            language: "Japanese" | "French" | "German" | "Spanish" | "Italian" | "Chinese (S)" | "Chinese (T)" | "Portuguese" | "Russian" | "Korean" | null;
            external_ids: components["schemas"]["VariantExternalIdsV2"];
            /**
             * @description Set for graded variants; null for raw ones.
             * @example null
             */
            grading: components["schemas"]["GradingV2"] | null;
            /** @description One entry per requested region, in request order; `markets[0]` is the primary market. */
            markets: components["schemas"]["MarketV2"][];
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
    listCards: {
        parameters: {
            query?: {
                /** @description Card UUID or legacy v1 slug: look up one card. */
                card_id?: string;
                /** @description Variant UUID or legacy v1 slug: look up one variant, whatever `graded` says; the fastest lookup. */
                variant_id?: string;
                /** @description Marketplace product ID (v1 `vendorId`): look up one card. */
                vendor_id?: string;
                /** @description Marketplace SKU ID (v1 `vendorSkuId`): look up one variant, whatever `graded` says. */
                vendor_sku?: string;
                /** @description Region codes in priority order, not case-sensitive: market codes (NA, EU, UK, JP, OCE, LATAM, OTHER) or ISO 3166-1 alpha-2 country codes. The first is the primary market (`markets[0]`), the one `min_price` and `order_by` read. Each region beyond the first costs one more request. */
                regions?: string[];
                /** @description Raw variants only (`exclude`), graded only (`only`) or both (`include`, one more request). `grading_company` alone implies `only`. */
                graded?: "exclude" | "only" | "include";
                /** @description Every grade of this company; sets `graded=only` unless `graded=include` is passed; a 400 with `graded=exclude`. */
                grading_company?: "PSA" | "BGS" | "CGC" | "BCCG" | "BVG" | "SGC";
                /** @description Grades within `grading_company` (required with it): numbers from 1 to 10 in steps of 0.5, or `Authentic`. */
                grade?: string[];
                /** @description Components to expand per market; replaces the default (every period and `price_history.7d`), not adds to it. `include=` (empty) sends prices only. Several history windows give the longest. */
                include?: ("periods" | "periods.7d" | "periods.30d" | "periods.90d" | "periods.1y" | "periods.all_time" | "price_history" | "price_history.7d" | "price_history.30d" | "price_history.90d" | "price_history.180d" | "price_history.1y")[];
                /** @description Opaque cursor from `meta.cursor` or the `Link` header; bound to the query's filters, order and regions (`limit` and `include` may change). */
                cursor?: string;
                /** @description Cards per page; a value above the plan's maximum (20 free, 100 starter, 100 professional, 200 enterprise) is clamped to it. */
                limit?: number;
                /** @description Free-text search on card name: at least 3 letters or digits in a row. */
                q?: string;
                /** @description Game ID or, case-insensitively, its display name. */
                game?: string;
                /** @description Set ID. */
                set?: string;
                /** @description Card number within its set. */
                number?: string;
                /** @description Languages, case-insensitive. Narrows each card's `variants`, never removes cards (`meta`, `X-Total-Count` and cursors are unchanged); variants with no recorded language count as English; ignored with `variant_id`. */
                language?: ("English" | "Japanese" | "French" | "German" | "Spanish" | "Italian" | "Chinese (S)" | "Chinese (T)" | "Portuguese" | "Russian" | "Korean")[];
                /** @description Also show each market's price in this currency (ISO 4217, case-insensitive): a `conversion` object beside the native `price` and `currency`, converted with the ECB's euro reference rate of the market's own observation day (the latest published on or before it, at most 7 days back), with the rate, its date and its source; each `price_history` point with its own day's rate. Native prices, `min_price` and `order_by` are unchanged. See docs/currencies.md. */
                currency?: "EUR" | "USD" | "JPY" | "BGN" | "CZK" | "DKK" | "GBP" | "HUF" | "PLN" | "RON" | "SEK" | "CHF" | "ISK" | "NOK" | "TRY" | "AUD" | "BRL" | "CAD" | "CNY" | "HKD" | "IDR" | "ILS" | "INR" | "KRW" | "MXN" | "MYR" | "NZD" | "PHP" | "SGD" | "THB" | "ZAR";
                /** @description Only cards priced at or above this, in the primary market's currency. With `grading_company` or `grade` only within a `set` (else 400). */
                min_price?: number;
                /** @description Sort descending by the price or the change over a window of each card's highest-priced returned variant in the primary market (unpriced cards last, ties by card UUID). Without it a search orders by relevance and a browse by set, then card number. With `grading_company` or `grade` only within a `set` (else 400). */
                order_by?: "price" | "24h" | "7d" | "30d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of cards. */
            200: {
                headers: {
                    /**
                     * @description Usage of the window closest to exhaustion: `limit=<integer>, remaining=<integer>, reset=<seconds>`.
                     * @example limit=60, remaining=59, reset=42
                     */
                    RateLimit?: string;
                    /**
                     * @description All three windows of the plan: per minute, per UTC day, per UTC month.
                     * @example "minute";q=60;w=60, "day";q=2000;w=86400, "month";q=30000;w=2592000
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description Limit of the window in `RateLimit`.
                     * @example 60
                     */
                    "RateLimit-Limit"?: number;
                    /**
                     * @description Requests left in that window.
                     * @example 59
                     */
                    "RateLimit-Remaining"?: number;
                    /**
                     * @description Seconds until that window resets.
                     * @example 42
                     */
                    "RateLimit-Reset"?: number;
                    /**
                     * @description RFC 8288 links with relative references: `rel="next"` while more results exist, `rel="prev"` after the first page; they agree with `meta.cursor`.
                     * @example </v2/cards?set=magic-the-gathering-limited-edition-alpha&cursor=eyJrIjpbIm1hZ2ljIiwiMjMyIl19.c2lnbmF0dXJl>; rel="next"
                     */
                    Link?: string;
                    /**
                     * @description `meta.total`; left out when the total could not be counted in time.
                     * @example 295
                     */
                    "X-Total-Count"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardsV2Response"];
                };
            };
            /** @description INVALID_REQUEST: a malformed request, an unknown parameter or an unrecognised value, named with what it accepts. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "https://docs.example.com/errors#invalid-request",
                     *       "title": "Invalid request",
                     *       "status": 400,
                     *       "detail": "Invalid value 'yes' for 'graded'. Accepted: exclude, only, include.",
                     *       "code": "INVALID_REQUEST"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
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
                     *       "type": "https://docs.example.com/errors#invalid-api-key",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
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
                     *       "type": "https://docs.example.com/errors#rate-limit-exceeded",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
                };
            };
        };
    };
    getCard: {
        parameters: {
            query?: {
                /** @description Region codes in priority order, not case-sensitive: market codes (NA, EU, UK, JP, OCE, LATAM, OTHER) or ISO 3166-1 alpha-2 country codes. The first is the primary market (`markets[0]`), the one `min_price` and `order_by` read. Each region beyond the first costs one more request. */
                regions?: string[];
                /** @description Raw variants only (`exclude`), graded only (`only`) or both (`include`, one more request). `grading_company` alone implies `only`. */
                graded?: "exclude" | "only" | "include";
                /** @description Every grade of this company; sets `graded=only` unless `graded=include` is passed; a 400 with `graded=exclude`. */
                grading_company?: "PSA" | "BGS" | "CGC" | "BCCG" | "BVG" | "SGC";
                /** @description Grades within `grading_company` (required with it): numbers from 1 to 10 in steps of 0.5, or `Authentic`. */
                grade?: string[];
                /** @description Components to expand per market; replaces the default (every period and `price_history.7d`), not adds to it. `include=` (empty) sends prices only. Several history windows give the longest. */
                include?: ("periods" | "periods.7d" | "periods.30d" | "periods.90d" | "periods.1y" | "periods.all_time" | "price_history" | "price_history.7d" | "price_history.30d" | "price_history.90d" | "price_history.180d" | "price_history.1y")[];
                /** @description Languages, case-insensitive. Narrows each card's `variants`, never removes cards (`meta`, `X-Total-Count` and cursors are unchanged); variants with no recorded language count as English; ignored with `variant_id`. */
                language?: ("English" | "Japanese" | "French" | "German" | "Spanish" | "Italian" | "Chinese (S)" | "Chinese (T)" | "Portuguese" | "Russian" | "Korean")[];
                /** @description Also show each market's price in this currency (ISO 4217, case-insensitive): a `conversion` object beside the native `price` and `currency`, converted with the ECB's euro reference rate of the market's own observation day (the latest published on or before it, at most 7 days back), with the rate, its date and its source; each `price_history` point with its own day's rate. Native prices, `min_price` and `order_by` are unchanged. See docs/currencies.md. */
                currency?: "EUR" | "USD" | "JPY" | "BGN" | "CZK" | "DKK" | "GBP" | "HUF" | "PLN" | "RON" | "SEK" | "CHF" | "ISK" | "NOK" | "TRY" | "AUD" | "BRL" | "CAD" | "CNY" | "HKD" | "IDR" | "ILS" | "INR" | "KRW" | "MXN" | "MYR" | "NZD" | "PHP" | "SGD" | "THB" | "ZAR";
            };
            header?: never;
            path: {
                /** @description Card UUID (recommended) or legacy v1 slug. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The card. */
            200: {
                headers: {
                    /**
                     * @description Usage of the window closest to exhaustion: `limit=<integer>, remaining=<integer>, reset=<seconds>`.
                     * @example limit=60, remaining=59, reset=42
                     */
                    RateLimit?: string;
                    /**
                     * @description All three windows of the plan: per minute, per UTC day, per UTC month.
                     * @example "minute";q=60;w=60, "day";q=2000;w=86400, "month";q=30000;w=2592000
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description Limit of the window in `RateLimit`.
                     * @example 60
                     */
                    "RateLimit-Limit"?: number;
                    /**
                     * @description Requests left in that window.
                     * @example 59
                     */
                    "RateLimit-Remaining"?: number;
                    /**
                     * @description Seconds until that window resets.
                     * @example 42
                     */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardV2Response"];
                };
            };
            /** @description INVALID_REQUEST: a malformed request, an unknown parameter or an unrecognised value, named with what it accepts. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "https://docs.example.com/errors#invalid-request",
                     *       "title": "Invalid request",
                     *       "status": 400,
                     *       "detail": "Invalid value 'yes' for 'graded'. Accepted: exclude, only, include.",
                     *       "code": "INVALID_REQUEST"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
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
                     *       "type": "https://docs.example.com/errors#invalid-api-key",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
                };
            };
            /** @description NOT_FOUND: no card has this UUID or slug. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "https://docs.example.com/errors#not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Card 'magic-the-gathering-limited-edition-alpha-black-lotus-uncommon' not found.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
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
                     *       "type": "https://docs.example.com/errors#rate-limit-exceeded",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
                };
            };
        };
    };
    getCardIds: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Card UUID (recommended) or legacy v1 slug, as `GET /v2/cards/{id}` takes it. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The card’s ids. */
            200: {
                headers: {
                    /**
                     * @description Usage of the window closest to exhaustion: `limit=<integer>, remaining=<integer>, reset=<seconds>`.
                     * @example limit=60, remaining=59, reset=42
                     */
                    RateLimit?: string;
                    /**
                     * @description All three windows of the plan: per minute, per UTC day, per UTC month.
                     * @example "minute";q=60;w=60, "day";q=2000;w=86400, "month";q=30000;w=2592000
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description Limit of the window in `RateLimit`.
                     * @example 60
                     */
                    "RateLimit-Limit"?: number;
                    /**
                     * @description Requests left in that window.
                     * @example 59
                     */
                    "RateLimit-Remaining"?: number;
                    /**
                     * @description Seconds until that window resets.
                     * @example 42
                     */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardIdsV2Response"];
                };
            };
            /** @description INVALID_REQUEST: a malformed request, an unknown parameter or an unrecognised value, named with what it accepts. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "https://docs.example.com/errors#invalid-request",
                     *       "title": "Invalid request",
                     *       "status": 400,
                     *       "detail": "Invalid value 'yes' for 'graded'. Accepted: exclude, only, include.",
                     *       "code": "INVALID_REQUEST"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
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
                     *       "type": "https://docs.example.com/errors#invalid-api-key",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
                };
            };
            /** @description NOT_FOUND: no card has this UUID or slug. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "https://docs.example.com/errors#not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "Card 'magic-the-gathering-limited-edition-alpha-black-lotus-uncommon' not found.",
                     *       "code": "NOT_FOUND"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
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
                     *       "type": "https://docs.example.com/errors#rate-limit-exceeded",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
                };
            };
        };
    };
    lookupId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The kind of id, not case-sensitive. */
                kind: "tcgplayer_product" | "tcgplayer_etched_product" | "tcgplayer_sku" | "cardmarket_product" | "scryfall_id" | "mtgjson_uuid" | "multiverse_id";
                /** @description The id: a positive integer of at most 20 digits, no leading zero (products, SKUs, multiverse ids), or a UUID (`scryfall_id`, `mtgjson_uuid`, any case). */
                value: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The holders of the id. */
            200: {
                headers: {
                    /**
                     * @description Usage of the window closest to exhaustion: `limit=<integer>, remaining=<integer>, reset=<seconds>`.
                     * @example limit=60, remaining=59, reset=42
                     */
                    RateLimit?: string;
                    /**
                     * @description All three windows of the plan: per minute, per UTC day, per UTC month.
                     * @example "minute";q=60;w=60, "day";q=2000;w=86400, "month";q=30000;w=2592000
                     */
                    "RateLimit-Policy"?: string;
                    /**
                     * @description Limit of the window in `RateLimit`.
                     * @example 60
                     */
                    "RateLimit-Limit"?: number;
                    /**
                     * @description Requests left in that window.
                     * @example 59
                     */
                    "RateLimit-Remaining"?: number;
                    /**
                     * @description Seconds until that window resets.
                     * @example 42
                     */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdLookupV2Response"];
                };
            };
            /** @description INVALID_REQUEST: a malformed request, an unknown parameter or an unrecognised value, named with what it accepts. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "https://docs.example.com/errors#invalid-request",
                     *       "title": "Invalid request",
                     *       "status": 400,
                     *       "detail": "Invalid value 'yes' for 'graded'. Accepted: exclude, only, include.",
                     *       "code": "INVALID_REQUEST"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
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
                     *       "type": "https://docs.example.com/errors#invalid-api-key",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The API key is not valid.",
                     *       "code": "INVALID_API_KEY"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
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
                     *       "type": "https://docs.example.com/errors#rate-limit-exceeded",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "The per-minute limit of the starter plan is used up (this request costs 1).",
                     *       "code": "RATE_LIMIT_EXCEEDED"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetailsDto"];
                };
            };
        };
    };
}
