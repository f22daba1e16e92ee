"""The clients against a scripted server on 127.0.0.1: requests, parsing, errors, retries, timeouts.

Every scenario runs twice, through ``TcgClient`` and through ``AsyncTcgClient``. The sleep between
retries is injected and recorded, so the backoff is checked without waiting for it.
"""

from __future__ import annotations

import email.utils
import inspect
import json
import ssl
import time
import unittest
from typing import Any, Callable, Dict, List

from _support import (
    GAME,
    USAGE,
    AsyncCalls,
    LocalServer,
    Reply,
    Seen,
    SyncCalls,
    dead_port,
    drip,
    json_reply,
    TLS_DIR,
    raw_writer,
    self_signed,
    v1_alert,
    v1_card,
    v2_card,
)

import tcg_pricing
from tcg_pricing import (
    AsyncTcgClient,
    BatchItem,
    RateLimited,
    TcgApiError,
    TcgClient,
    TcgConnectionError,
    TcgProtocolError,
    TcgTimeoutError,
)


def v1_problem(status: int, code: str, error: str, **headers: str) -> Reply:
    return json_reply({"error": error, "code": code}, status, **headers)


def v2_problem(status: int, code: str, detail: str, **headers: str) -> Reply:
    body = {"type": "https://docs.example.com/errors#x", "title": "T", "status": status, "detail": detail, "code": code}
    return Reply(status, json.dumps(body).encode(), {"content-type": "application/problem+json", **headers})


def games(_: Seen) -> Reply:
    return json_reply({"data": [GAME], "_metadata": USAGE})


def sequence(*replies: Reply) -> Callable[[Seen], Reply]:
    """Answers with each reply in turn, then repeats the last one."""
    queue = list(replies)

    def next_reply(_: Seen) -> Reply:
        return queue.pop(0) if len(queue) > 1 else queue[0]

    return next_reply


class Scenarios:
    """The scenarios; a subclass says how a client is made and a call is run."""

    sleeps: List[float]

    # -- adapters, defined by the subclasses
    def make(self, url: str, **kwargs: Any) -> Any:
        raise NotImplementedError

    def call(self, client: Any, fn: Callable[[Any], Any]) -> Any:
        raise NotImplementedError

    def pages(self, client: Any, fn: Callable[[Any], Any]) -> List[Any]:
        raise NotImplementedError

    # -- requests and parsing

    def test_games_are_typed_and_the_request_carries_the_key(self) -> None:
        with LocalServer(games) as srv:
            client = self.make(srv.url)
            answer = self.call(client, lambda c: c.v1.games.list())
        game = answer.data[0]
        self.assertIsInstance(game, tcg_pricing.Game)
        self.assertEqual((game.id, game.name, game.cards_count), ("test-game", "Test Game", 3))
        self.assertEqual(game.game_value_change_7d_pct, 1.37)
        self.assertEqual(answer.metadata.api_plan, "starter")
        self.assertEqual(answer.metadata.api_daily_requests_remaining, 1999)
        self.assertEqual(game.raw["a_field_added_later"], {"nested": True})
        seen = srv.seen[0]
        self.assertEqual((seen.method, seen.path), ("GET", "/v1/games"))
        self.assertEqual(seen.headers["x-api-key"], "k-123")
        self.assertEqual(seen.headers["accept-encoding"], "gzip")
        self.assertTrue(seen.headers["user-agent"].startswith("tcg-pricing-python/"))

    def test_query_parameters_take_the_api_names_lists_and_booleans(self) -> None:
        page = {"data": [v1_card(1)], "meta": {"total": 1, "limit": 5, "offset": 0, "hasMore": False}, "_metadata": USAGE}
        with LocalServer(lambda s: json_reply(page)) as srv:
            client = self.make(srv.url)
            answer = self.call(
                client,
                lambda c: c.v1.cards.list(
                    q="card one",
                    set="first edition",
                    card_id="a/b?c",
                    condition=["NM", "LP"],
                    include_price_history=False,
                    include_statistics=["7d", "allTime"],
                    order_by="price",
                    limit=5,
                ),
            )
        self.assertEqual(
            srv.seen[0].query,
            {
                "q": "card one",
                "set": "first edition",
                "cardId": "a/b?c",
                "condition": "NM,LP",
                "include_price_history": "false",
                "include_statistics": "7d,allTime",
                "orderBy": "price",
                "limit": "5",
            },
        )
        variant = answer.data[0].variants[0]
        self.assertEqual(variant.price, 11.5)
        self.assertEqual(variant.price_change_7d, 2.5)
        self.assertEqual(variant.price_history[1], tcg_pricing.PricePoint(t=1793491200, p=10.5))
        self.assertIsNone(variant.stddev_pop_price_7d)  # absent: None
        self.assertEqual(variant.raw["someNewStatistic"], 3)

    def test_v2_card_markets_periods_grading_and_rate_limit_header(self) -> None:
        reply = json_reply({"data": v2_card(3)}, RateLimit="limit=60, remaining=57, reset=31")
        with LocalServer(lambda s: reply) as srv:
            client = self.make(srv.url)
            answer = self.call(
                client, lambda c: c.v2.cards.get("a card/slug", regions=["NA", "EU"], graded="only", include=[])
            )
        self.assertEqual(srv.seen[0].path, "/v2/cards/a%20card%2Fslug")
        self.assertEqual(srv.seen[0].query, {"regions": "NA,EU", "graded": "only", "include": ""})
        card = answer.data
        self.assertEqual(card.game, tcg_pricing.GameRef(id="test-game", name="Test Game"))
        variant = card.variants[0]
        self.assertEqual(variant.grading.canonical, "PSA 10")
        self.assertEqual(variant.grading.grade, 10.0)
        na, eu = variant.markets
        self.assertEqual((na.region, na.currency, na.price), ("NA", "USD", 99.5))
        self.assertEqual(na.periods["7d"].change_pct, 1.2)
        self.assertEqual(na.periods["1y"].max, 120)
        self.assertIsNone(na.periods["1y"].avg)
        self.assertEqual(na.raw["converted"], {"currency": "EUR", "rate": 0.92})
        self.assertIsNone(eu.price)
        self.assertEqual(eu.periods, {})
        self.assertEqual(answer.rate_limit, tcg_pricing.RateLimit(60, 57, 31))

    def test_a_currency_answer_carries_the_conversion_beside_the_native_price(self) -> None:
        card = v2_card(1)
        card["variants"][0]["markets"][0]["conversion"] = {
            "currency": "EUR",
            "price": 91.1,
            "rate": 0.915578,
            "rate_date": "2026-10-30",
            "source": "ECB euro foreign exchange reference rates",
            "periods": {"7d": {"avg": 89.7, "min": 88.8, "max": 91.5}},
            "price_history": [{"t": 1793491200, "p": 91.1, "rate": 0.915578, "rate_date": "2026-10-30"}],
        }
        card["variants"][0]["markets"][1]["conversion"] = {
            "currency": "EUR", "price": None, "rate": None, "rate_date": None, "source": None, "reason": "no price",
        }
        with LocalServer(lambda s: json_reply({"data": card})) as srv:
            answer = self.call(self.make(srv.url), lambda c: c.v2.cards.get("x", currency="EUR"))
        self.assertEqual(srv.seen[0].query, {"currency": "EUR"})
        na, eu = answer.data.variants[0].markets
        self.assertEqual((na.price, na.currency), (99.5, "USD"))
        self.assertEqual((na.conversion.currency, na.conversion.price, na.conversion.rate), ("EUR", 91.1, 0.915578))
        self.assertEqual(na.conversion.rate_date, "2026-10-30")
        self.assertEqual(na.conversion.periods["7d"].avg, 89.7)
        self.assertEqual(na.conversion.price_history[0].p, 91.1)
        self.assertEqual((eu.conversion.price, eu.conversion.reason), (None, "no price"))

    def test_the_id_crosswalk_of_a_card_and_a_lookup_by_id(self) -> None:
        assertion = {"kind": "tcgplayer_product", "value": "1029", "feed": "mtgjson", "first_seen": "2026-12-07", "last_seen": "2026-12-07"}
        conflict = {
            "reason": "values_differ",
            "kind": "tcgplayer_product",
            "detail": "tcgplayer_product: mtgjson says 1029, scryfall says 1030",
            "assertions": [
                {"card_id": "u", "card_slug": "s", "variant_id": None, "variant_slug": None, "value": "1030", "feed": "scryfall", "last_seen": None}
            ],
        }

        def script(s: Seen) -> Reply:
            if s.path.startswith("/v2/cards/"):
                variants = [{"id": "v", "slug": "vs", "ids": [dict(assertion, kind="tcgplayer_sku", value="7")]}]
                return json_reply({"data": {"id": "u", "slug": "s", "ids": [assertion], "variants": variants, "conflicts": [conflict]}})
            holder = {"card_id": "u", "card_slug": "s", "variant_id": None, "variant_slug": None, "asserted_by": [{"feed": None, "first_seen": None, "last_seen": None}]}
            return json_reply({"data": {"kind": "tcgplayer_product", "value": "1029", "cards": [holder], "conflicts": []}})

        with LocalServer(script) as srv:
            client = self.make(srv.url)
            ids = self.call(client, lambda c: c.v2.cards.ids("u"))
            found = self.call(client, lambda c: c.v2.ids.lookup("tcgplayer_product", "10/29"))
        self.assertEqual([s.path for s in srv.seen], ["/v2/cards/u/ids", "/v2/ids/tcgplayer_product/10%2F29"])
        self.assertEqual((ids.data.ids[0].kind, ids.data.ids[0].value, ids.data.ids[0].feed), ("tcgplayer_product", "1029", "mtgjson"))
        self.assertEqual(ids.data.variants[0].ids[0].value, "7")
        self.assertEqual(ids.data.conflicts[0].assertions[0].feed, "scryfall")
        self.assertEqual(found.data.cards[0].card_id, "u")
        self.assertIsNone(found.data.cards[0].asserted_by[0].feed)

    def test_gzip_answers_are_decoded(self) -> None:
        big = {"data": [GAME] * 50, "_metadata": USAGE}
        reply = Reply(200, json.dumps(big).encode(), {"content-type": "application/json"}, gzip=True)
        with LocalServer(lambda s: reply) as srv:
            answer = self.call(self.make(srv.url), lambda c: c.v1.games.list())
        self.assertEqual(len(answer.data), 50)

    def test_gzip_is_not_asked_for_when_turned_off(self) -> None:
        with LocalServer(games) as srv:
            self.call(self.make(srv.url, gzip=False), lambda c: c.v1.games.list())
        self.assertEqual(srv.seen[0].headers["accept-encoding"], "identity")

    def test_an_answer_of_another_shape_is_a_protocol_error_naming_the_field(self) -> None:
        bad = dict(GAME, cards_count="three")
        with LocalServer(lambda s: json_reply({"data": [bad], "_metadata": USAGE})) as srv:
            with self.assertRaises(TcgProtocolError) as caught:
                self.call(self.make(srv.url), lambda c: c.v1.games.list())
        self.assertIn("GamesResponse.data[0].cards_count", str(caught.exception))
        self.assertIn("expected an integer", str(caught.exception))

    def test_a_body_that_is_not_json_is_a_protocol_error(self) -> None:
        with LocalServer(lambda s: Reply(200, b"<html>oops</html>")) as srv:
            with self.assertRaises(TcgProtocolError):
                self.call(self.make(srv.url), lambda c: c.v1.games.list())

    def test_batch_sends_the_items_in_the_api_keys(self) -> None:
        page = {"data": [v1_card(1)], "meta": {"total": 1, "limit": 20, "offset": 0, "hasMore": False}, "_metadata": USAGE}
        with LocalServer(lambda s: json_reply(page)) as srv:
            self.call(
                self.make(srv.url),
                lambda c: c.v1.cards.batch(
                    [BatchItem(card_id="x", condition="NM"), {"vendorSkuId": "SKU-1"}], include_price_history=False
                ),
            )
        seen = srv.seen[0]
        self.assertEqual((seen.method, seen.path, seen.query), ("POST", "/v1/cards", {"include_price_history": "false"}))
        self.assertEqual(json.loads(seen.body), [{"cardId": "x", "condition": "NM"}, {"vendorSkuId": "SKU-1"}])
        self.assertEqual(seen.headers["content-type"], "application/json")

    def test_a_batch_over_200_items_is_refused_before_sending(self) -> None:
        with LocalServer(games) as srv:
            with self.assertRaises(ValueError):
                self.call(self.make(srv.url), lambda c: c.v1.cards.batch([{"cardId": str(i)} for i in range(201)]))
        self.assertEqual(srv.seen, [])

    def test_alerts_create_list_get_delete(self) -> None:
        alert = v1_alert(450)

        def script(s: Seen) -> Reply:
            if s.method == "POST":
                return json_reply({"data": dict(alert, secret="whsec_abc"), "_metadata": USAGE}, 201)
            if s.method == "DELETE":
                return Reply(204)
            if s.path == "/v1/alerts":
                return json_reply({"data": [alert], "_metadata": USAGE})
            return json_reply({"data": alert, "_metadata": USAGE})

        with LocalServer(script) as srv:
            client = self.make(srv.url)
            created = self.call(client, lambda c: c.v1.alerts.create(card_id="c", rule="price_above", value=450, url=alert["url"]))
            listed = self.call(client, lambda c: c.v1.alerts.list())
            got = self.call(client, lambda c: c.v1.alerts.get(alert["id"]))
            deleted = self.call(client, lambda c: c.v1.alerts.delete(alert["id"]))
        self.assertEqual(created.data.secret, "whsec_abc")
        self.assertEqual(created.data.value, 450.0)
        self.assertEqual([a.id for a in listed.data], [alert["id"]])
        self.assertEqual(got.data.rule, "price_above")
        self.assertIsNone(deleted)
        self.assertEqual(json.loads(srv.seen[0].body), {"card_id": "c", "rule": "price_above", "value": 450, "url": alert["url"]})
        self.assertEqual([(s.method, s.path) for s in srv.seen[1:]], [
            ("GET", "/v1/alerts"),
            ("GET", f"/v1/alerts/{alert['id']}"),
            ("DELETE", f"/v1/alerts/{alert['id']}"),
        ])

    # -- paging

    def test_v1_iterate_walks_offsets_by_the_page_length_until_has_more_is_false(self) -> None:
        cards = [v1_card(n) for n in range(7)]

        def script(s: Seen) -> Reply:
            offset = int(s.query.get("offset", "0"))
            limit = min(int(s.query.get("limit", "20")), 3)  # the plan clamps 5 to 3
            data = cards[offset : offset + limit]
            meta = {"total": 7, "limit": limit, "offset": offset, "hasMore": offset + limit < 7}
            return json_reply({"data": data, "meta": meta, "_metadata": USAGE})

        with LocalServer(script) as srv:
            client = self.make(srv.url)
            pages = self.pages(client, lambda c: c.v1.cards.pages(set="s", limit=5))
            self.assertEqual([s.query["offset"] for s in srv.seen], ["0", "3", "6"])
            self.assertEqual(all(s.query["set"] == "s" for s in srv.seen), True)
            self.assertEqual([c.name for p in pages for c in p.data], [f"Card {n}" for n in range(7)])
            srv.seen.clear()
            cards = self.pages(client, lambda c: c.v1.cards.iterate(set="s", limit=5, offset=2))
        self.assertEqual([c.name for c in cards], [f"Card {n}" for n in range(2, 7)])
        self.assertIsInstance(cards[0], tcg_pricing.Card)
        self.assertEqual([s.query["offset"] for s in srv.seen], ["2", "5"])

    def test_v2_iterate_follows_cursors_until_has_more_is_false(self) -> None:
        def script(s: Seen) -> Reply:
            at = int(s.query.get("cursor", "c0")[1:])
            data = [v2_card(n) for n in range(at, min(at + 2, 5))]
            more = at + 2 < 5
            meta = {
                "count": len(data),
                "total": None,
                "limit": 2,
                "has_more": more,
                "cursor": {"next": f"c{at + 2}" if more else None, "prev": None},
            }
            return json_reply({"data": data, "meta": meta})

        with LocalServer(script) as srv:
            client = self.make(srv.url)
            pages = self.pages(client, lambda c: c.v2.cards.pages(game="g", limit=2))
            self.assertEqual([s.query.get("cursor") for s in srv.seen], [None, "c2", "c4"])
            self.assertEqual([c.name for p in pages for c in p.data], [f"Card {n}" for n in range(5)])
            self.assertIsNone(pages[0].meta.total)
            cards = self.pages(client, lambda c: c.v2.cards.iterate(game="g", limit=2, cursor="c2"))
        self.assertEqual([c.name for c in cards], [f"Card {n}" for n in range(2, 5)])
        self.assertIsInstance(cards[0], tcg_pricing.CardV2)

    def test_a_cursor_that_does_not_move_is_an_error_not_a_loop(self) -> None:
        meta = {"count": 1, "total": 9, "limit": 1, "has_more": True, "cursor": {"next": "same", "prev": None}}
        with LocalServer(lambda s: json_reply({"data": [v2_card(1)], "meta": meta})) as srv:
            with self.assertRaises(TcgProtocolError):
                self.pages(self.make(srv.url), lambda c: c.v2.cards.iterate(cursor="same"))
        self.assertEqual(len(srv.seen), 1)

    def test_games_and_sets_iterate_their_one_page(self) -> None:
        sets = {"data": [{"id": "s", "name": "S", "game_id": "g", "game": "G", "release_date": None, "cards_count": 2, "set_value_usd": 1.5}],
                "meta": {"total": 1, "limit": 1, "offset": 0, "hasMore": False}, "_metadata": USAGE}
        with LocalServer(lambda s: json_reply({"data": [GAME], "_metadata": USAGE}) if s.path == "/v1/games" else json_reply(sets)) as srv:
            client = self.make(srv.url)
            self.assertEqual([g.id for g in self.pages(client, lambda c: c.v1.games.iterate())], ["test-game"])
            self.assertEqual([s.id for s in self.pages(client, lambda c: c.v1.sets.iterate("g"))], ["s"])
        self.assertEqual(srv.seen[1].query, {"game": "g"})

    # -- errors

    def test_v1_error_body_gives_status_code_and_message(self) -> None:
        reply = v1_problem(400, "INVALID_REQUEST", "Invalid value 'Klingon' for 'language'.", **{"x-request-id": "r-1"})
        with LocalServer(lambda s: reply) as srv:
            with self.assertRaises(TcgApiError) as caught:
                self.call(self.make(srv.url), lambda c: c.v1.cards.list(language="Klingon"))
        e = caught.exception
        self.assertIsInstance(e, tcg_pricing.TcgBadRequestError)
        self.assertEqual((e.status, e.code), (400, "INVALID_REQUEST"))
        self.assertEqual(e.message, "Invalid value 'Klingon' for 'language'.")
        self.assertEqual(e.body["code"], "INVALID_REQUEST")
        self.assertEqual(e.request_id, "r-1")
        self.assertNotIsInstance(e, RateLimited)
        self.assertEqual(len(srv.seen), 1)  # a 400 is not retried

    def test_v2_problem_gives_status_code_and_detail(self) -> None:
        with LocalServer(lambda s: v2_problem(404, "NOT_FOUND", "No card 'x'.")) as srv:
            with self.assertRaises(TcgApiError) as caught:
                self.call(self.make(srv.url), lambda c: c.v2.cards.get("x"))
        e = caught.exception
        self.assertIsInstance(e, tcg_pricing.TcgNotFoundError)
        self.assertEqual((e.status, e.code, e.message), (404, "NOT_FOUND", "No card 'x'."))
        self.assertEqual(e.body["title"], "T")

    def test_an_error_that_is_not_json_keeps_its_text(self) -> None:
        with LocalServer(lambda s: Reply(502, b"Bad Gateway from a proxy")) as srv:
            with self.assertRaises(TcgApiError) as caught:
                self.call(self.make(srv.url), lambda c: c.v1.games.list())
        self.assertEqual((caught.exception.status, caught.exception.code), (502, None))
        self.assertIsInstance(caught.exception, tcg_pricing.TcgServerError)
        self.assertIn("Bad Gateway from a proxy", caught.exception.message)

    # -- retries

    def test_429_is_retried_no_sooner_than_retry_after(self) -> None:
        script = sequence(v1_problem(429, "RATE_LIMIT_EXCEEDED", "slow down", **{"Retry-After": "7"}), games(None))  # type: ignore[arg-type]
        with LocalServer(script) as srv:
            answer = self.call(self.make(srv.url), lambda c: c.v1.games.list())
        self.assertEqual(answer.data[0].id, "test-game")
        self.assertEqual(len(srv.seen), 2)
        self.assertEqual(len(self.sleeps), 1)
        self.assertGreaterEqual(self.sleeps[0], 7)
        self.assertLessEqual(self.sleeps[0], 7.5)

    def test_retry_after_as_an_http_date_is_honoured(self) -> None:
        when = email.utils.formatdate(time.time() + 20, usegmt=True)
        script = sequence(v2_problem(503, "SERVICE_UNAVAILABLE", "busy", **{"Retry-After": when}), json_reply({"data": v2_card(1)}))
        with LocalServer(script) as srv:
            self.call(self.make(srv.url), lambda c: c.v2.cards.get("x"))
        self.assertGreaterEqual(self.sleeps[0], 18)

    def test_503_without_retry_after_backs_off_exponentially_with_jitter(self) -> None:
        with LocalServer(lambda s: v1_problem(503, "SERVICE_UNAVAILABLE", "down")) as srv:
            with self.assertRaises(TcgApiError) as caught:
                self.call(self.make(srv.url, retries=4, random=lambda: 0.5), lambda c: c.v1.games.list())
        self.assertEqual(caught.exception.status, 503)
        self.assertEqual(len(srv.seen), 5)
        # d = 0.5 * 2**n; wait = d/2 + 0.5 * d/2
        self.assertEqual(self.sleeps, [0.375, 0.75, 1.5, 3.0])

    def test_jitter_keeps_each_wait_between_half_and_all_of_the_step(self) -> None:
        for r in (0.0, 0.999):
            self.sleeps.clear()
            with LocalServer(lambda s: v1_problem(503, "SERVICE_UNAVAILABLE", "down")):
                pass
            with LocalServer(lambda s: v1_problem(503, "SERVICE_UNAVAILABLE", "down")) as srv:
                with self.assertRaises(TcgApiError):
                    self.call(self.make(srv.url, retries=3, random=lambda: r), lambda c: c.v1.games.list())
            for n, wait in enumerate(self.sleeps):
                d = 0.5 * 2**n
                self.assertGreaterEqual(wait, d / 2)
                self.assertLessEqual(wait, d)

    def test_retries_exhausted_raise_rate_limited_with_retry_after(self) -> None:
        reply = v1_problem(429, "RATE_LIMIT_EXCEEDED", "10 per minute", **{"Retry-After": "3"})
        with LocalServer(lambda s: reply) as srv:
            with self.assertRaises(RateLimited) as caught:
                self.call(self.make(srv.url, retries=2), lambda c: c.v1.games.list())
        e = caught.exception
        self.assertEqual((e.status, e.code, e.retry_after, e.message), (429, "RATE_LIMIT_EXCEEDED", 3.0, "10 per minute"))
        self.assertEqual(len(srv.seen), 3)
        self.assertTrue(all(s >= 3 for s in self.sleeps))

    def test_a_retry_after_beyond_the_wait_cap_is_raised_at_once(self) -> None:
        reply = v1_problem(429, "DAILY_LIMIT_EXCEEDED", "100 per day", **{"Retry-After": "3600"})
        with LocalServer(lambda s: reply) as srv:
            with self.assertRaises(RateLimited) as caught:
                self.call(self.make(srv.url, max_retry_wait=60), lambda c: c.v1.games.list())
        self.assertEqual((caught.exception.code, caught.exception.retry_after), ("DAILY_LIMIT_EXCEEDED", 3600.0))
        self.assertEqual((len(srv.seen), self.sleeps), (1, []))

    def test_the_wait_cap_bounds_the_sum_of_waits(self) -> None:
        with LocalServer(lambda s: v1_problem(503, "SERVICE_UNAVAILABLE", "down", **{"Retry-After": "4"})) as srv:
            with self.assertRaises(TcgApiError):
                self.call(self.make(srv.url, retries=10, max_retry_wait=10, random=lambda: 0), lambda c: c.v1.games.list())
        self.assertEqual(self.sleeps, [4, 4])
        self.assertEqual(len(srv.seen), 3)

    def test_a_get_whose_connection_fails_is_retried_a_batch_is_not(self) -> None:
        url = f"http://127.0.0.1:{dead_port()}"
        with self.assertRaises(TcgConnectionError):
            self.call(self.make(url, retries=2, random=lambda: 0), lambda c: c.v1.games.list())
        self.assertEqual(self.sleeps, [0.25, 0.5])
        self.sleeps.clear()
        with self.assertRaises(TcgConnectionError):
            self.call(self.make(url, retries=2), lambda c: c.v1.cards.batch([{"cardId": "x"}]))
        self.assertEqual(self.sleeps, [])

    def test_a_batch_is_retried_on_503(self) -> None:
        page = {"data": [], "meta": {"total": 0, "limit": 20, "offset": 0, "hasMore": False}, "_metadata": USAGE}
        with LocalServer(sequence(v1_problem(503, "SERVICE_UNAVAILABLE", "busy"), json_reply(page))) as srv:
            self.call(self.make(srv.url), lambda c: c.v1.cards.batch([{"cardId": "x"}]))
        self.assertEqual([s.body for s in srv.seen], [b'[{"cardId":"x"}]'] * 2)

    def test_deleting_an_alert_is_retried_on_429_but_not_on_503(self) -> None:
        with LocalServer(lambda s: v1_problem(503, "SERVICE_UNAVAILABLE", "down")) as srv:
            with self.assertRaises(tcg_pricing.TcgServerError):
                self.call(self.make(srv.url), lambda c: c.v1.alerts.delete("a"))
        self.assertEqual(len(srv.seen), 1)
        with LocalServer(sequence(v1_problem(429, "RATE_LIMIT_EXCEEDED", "x", **{"Retry-After": "1"}), Reply(204))) as srv:
            self.call(self.make(srv.url), lambda c: c.v1.alerts.delete("a"))
        self.assertEqual(len(srv.seen), 2)

    def test_creating_an_alert_is_retried_on_429_but_not_on_503(self) -> None:
        with LocalServer(lambda s: v1_problem(503, "SERVICE_UNAVAILABLE", "down")) as srv:
            with self.assertRaises(TcgApiError):
                self.call(self.make(srv.url), lambda c: c.v1.alerts.create(card_id="c", rule="price_above", value=1, url="https://h.example/x"))
        self.assertEqual(len(srv.seen), 1)
        with LocalServer(lambda s: v1_problem(429, "RATE_LIMIT_EXCEEDED", "x", **{"Retry-After": "1"})) as srv:
            with self.assertRaises(RateLimited):
                self.call(self.make(srv.url, retries=1), lambda c: c.v1.alerts.create(card_id="c", rule="price_above", value=1, url="https://h.example/x"))
        self.assertEqual(len(srv.seen), 2)

    def test_a_call_may_set_its_own_retries(self) -> None:
        reply = v1_problem(503, "SERVICE_UNAVAILABLE", "down")
        with LocalServer(lambda s: reply) as srv:
            client = self.make(srv.url, retries=0)
            with self.assertRaises(tcg_pricing.TcgServerError):
                self.call(client, lambda c: c.v1.cards.list(q="bolt", retries=3))
            self.assertEqual(len(srv.seen), 4)
            with self.assertRaises(tcg_pricing.TcgServerError):
                self.call(client, lambda c: c.v1.games.list())
            self.assertEqual(len(srv.seen), 5)
            with self.assertRaises(ValueError):
                self.call(client, lambda c: c.v1.games.list(retries=-1))
        self.assertEqual(len(srv.seen), 5)

    def test_retries_zero_means_one_attempt(self) -> None:
        with LocalServer(lambda s: v1_problem(429, "RATE_LIMIT_EXCEEDED", "x", **{"Retry-After": "1"})) as srv:
            with self.assertRaises(RateLimited):
                self.call(self.make(srv.url, retries=0), lambda c: c.v1.games.list())
        self.assertEqual((len(srv.seen), self.sleeps), (1, []))

    # -- timeouts, connections, framing

    def test_a_silent_server_times_out_at_the_deadline(self) -> None:
        with LocalServer(lambda s: raw_writer(b"", then_sleep=3)) as srv:
            started = time.monotonic()
            with self.assertRaises(TcgTimeoutError):
                self.call(self.make(srv.url, timeout=0.3), lambda c: c.v1.games.list())
            self.assertLess(time.monotonic() - started, 1.5)

    def test_a_per_call_timeout_overrides_the_client_one(self) -> None:
        with LocalServer(lambda s: raw_writer(b"", then_sleep=3)) as srv:
            started = time.monotonic()
            with self.assertRaises(TcgTimeoutError):
                self.call(self.make(srv.url, timeout=30), lambda c: c.v1.games.list(timeout=0.3))
            self.assertLess(time.monotonic() - started, 1.5)

    def test_a_server_dripping_bytes_still_times_out_at_the_deadline(self) -> None:
        head = b"HTTP/1.1 200 OK\r\n" + b"x-pad: " + b"a" * 200 + b"\r\n"
        with LocalServer(lambda s: drip(head, every=0.02, max_seconds=5)) as srv:
            started = time.monotonic()
            with self.assertRaises(TcgTimeoutError):
                self.call(self.make(srv.url, timeout=0.5), lambda c: c.v1.games.list())
            self.assertLess(time.monotonic() - started, 2.0)

    def test_nothing_listening_is_a_connection_error(self) -> None:
        with self.assertRaises(TcgConnectionError):
            self.call(self.make(f"http://127.0.0.1:{dead_port()}"), lambda c: c.v1.games.list())

    def test_a_connection_closed_mid_body_is_a_connection_error(self) -> None:
        answer = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{\"data\""
        with LocalServer(lambda s: raw_writer(answer)) as srv:
            with self.assertRaises(TcgConnectionError):
                self.call(self.make(srv.url), lambda c: c.v1.games.list())

    def test_a_declared_body_over_the_cap_is_refused_unread(self) -> None:
        answer = b"HTTP/1.1 200 OK\r\ncontent-length: 999999999999\r\n\r\n{}"
        with LocalServer(lambda s: raw_writer(answer)) as srv:
            with self.assertRaises(TcgProtocolError):
                self.call(self.make(srv.url), lambda c: c.v1.games.list())

    def test_too_many_headers_are_refused(self) -> None:
        answer = b"HTTP/1.1 200 OK\r\n" + b"".join(b"x-h%d: 1\r\n" % i for i in range(150)) + b"content-length: 2\r\n\r\n{}"
        with LocalServer(lambda s: raw_writer(answer)) as srv:
            with self.assertRaises(TcgProtocolError):
                self.call(self.make(srv.url), lambda c: c.v1.games.list())

    def test_a_chunked_body_is_read(self) -> None:
        body = json.dumps({"data": [GAME], "_metadata": USAGE}).encode()
        chunks = b"".join(b"%x;ext=1\r\n%s\r\n" % (len(body[i : i + 100]), body[i : i + 100]) for i in range(0, len(body), 100))
        answer = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n" + chunks + b"0\r\nx-trailer: 1\r\n\r\n"
        with LocalServer(lambda s: raw_writer(answer)) as srv:
            answer_model = self.call(self.make(srv.url), lambda c: c.v1.games.list())
        self.assertEqual(answer_model.data[0].name, "Test Game")

    def test_connections_are_kept_alive_and_a_stale_one_is_replaced(self) -> None:
        replies = [Reply(**{**json_reply({"data": [GAME], "_metadata": USAGE}).__dict__}) for _ in range(4)]
        replies[1].drop_after = True  # the server closes the connection after the second answer
        queue = list(replies)
        with LocalServer(lambda s: queue.pop(0)) as srv:
            client = self.make(srv.url)
            for _ in range(3):
                self.call(client, lambda c: c.v1.games.list())
                time.sleep(0.05)  # lets the server's close reach the client's idle connection
        ports = [s.client_port for s in srv.seen]
        self.assertEqual(len(ports), 3)
        self.assertEqual(ports[0], ports[1])  # kept alive
        self.assertNotEqual(ports[1], ports[2])  # the closed one replaced, no error seen

    def test_bad_arguments_are_refused_before_any_request(self) -> None:
        with self.assertRaises(ValueError):
            self.make("ftp://example.com")
        with self.assertRaises(ValueError):
            self.make("http://127.0.0.1:1", api_key="bad\r\nx-injected: 1")
        with LocalServer(games) as srv:
            with self.assertRaises(ValueError):
                self.call(self.make(srv.url), lambda c: c.v1.alerts.get(""))
        self.assertEqual(srv.seen, [])

    def test_request_reaches_a_route_without_a_typed_method(self) -> None:
        def script(s: Seen) -> Reply:
            if s.method == "GET":
                return json_reply({"data": {"ids": []}}) if len(srv.seen) > 1 else v2_problem(503, "SERVICE_UNAVAILABLE", "x")
            return v1_problem(503, "SERVICE_UNAVAILABLE", "x")

        with LocalServer(script) as srv:
            client = self.make(srv.url)
            answer = self.call(client, lambda c: c.request("GET", "/v2/cards/a b/ids", query={"kind": ["x", "y"]}))
            self.assertEqual(answer, {"data": {"ids": []}})
            self.assertEqual((srv.seen[1].path, srv.seen[1].query), ("/v2/cards/a%20b/ids", {"kind": "x,y"}))
            with self.assertRaises(tcg_pricing.TcgServerError):  # a POST is refused-kind: no retry on 503
                self.call(client, lambda c: c.request("POST", "/v1/things", body={"a": 1}))
        self.assertEqual(json.loads(srv.seen[2].body), {"a": 1})
        self.assertEqual(len(srv.seen), 3)

    def test_https_with_a_trusted_certificate_and_not_with_an_unknown_one(self) -> None:
        pair = self_signed(TLS_DIR)
        if pair is None:
            self.skipTest("the openssl command is not installed: no certificate to test TLS with")
        server_side = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server_side.load_cert_chain(*pair)
        trusting = ssl.create_default_context(cafile=pair[0])
        with LocalServer(games, tls=server_side) as srv:
            answer = self.call(self.make(srv.url, ssl_context=trusting), lambda c: c.v1.games.list())
            self.assertEqual(answer.data[0].id, "test-game")
            with self.assertRaises(TcgConnectionError) as caught:
                self.call(self.make(srv.url, retries=0), lambda c: c.v1.games.list())
        self.assertIn("certificate", str(caught.exception).lower())
        self.assertEqual(len(srv.seen), 1)

    def test_a_base_url_path_prefixes_every_request(self) -> None:
        with LocalServer(games) as srv:
            self.call(self.make(srv.url + "/api/"), lambda c: c.v1.games.list())
        self.assertEqual(srv.seen[0].path, "/api/v1/games")


class SyncClientTest(SyncCalls, Scenarios, unittest.TestCase):
    def make(self, url: str, **kwargs: Any) -> TcgClient:
        kwargs.setdefault("api_key", "k-123")
        client = TcgClient(url, sleep=self.sleeps.append, **kwargs)
        self.clients.append(client)
        return client


class AsyncClientTest(AsyncCalls, Scenarios, unittest.TestCase):
    def make(self, url: str, **kwargs: Any) -> AsyncTcgClient:
        kwargs.setdefault("api_key", "k-123")
        client = AsyncTcgClient(url, sleep=self.sleep, **kwargs)
        self.clients.append(client)
        return client


class SurfaceTest(unittest.TestCase):
    def test_the_async_client_has_the_sync_client_surface(self) -> None:
        sync, aio = TcgClient("http://127.0.0.1:1", "k"), AsyncTcgClient("http://127.0.0.1:1", "k")
        pairs = [
            (sync.v1.games, aio.v1.games),
            (sync.v1.sets, aio.v1.sets),
            (sync.v1.cards, aio.v1.cards),
            (sync.v1.alerts, aio.v1.alerts),
            (sync.v2.cards, aio.v2.cards),
            (sync.v2.ids, aio.v2.ids),
        ]
        for s, a in pairs:
            names = {n for n in dir(s) if not n.startswith("_")}
            self.assertEqual(names, {n for n in dir(a) if not n.startswith("_")})
            for name in names:
                s_sig = inspect.signature(getattr(s, name))
                a_sig = inspect.signature(getattr(a, name))
                self.assertEqual(list(s_sig.parameters), list(a_sig.parameters), name)
                if name in ("iterate", "pages"):
                    self.assertTrue(inspect.isasyncgenfunction(getattr(a, name)))
                else:
                    self.assertTrue(inspect.iscoroutinefunction(getattr(a, name)), name)
        self.assertEqual(
            set(inspect.signature(TcgClient).parameters), set(inspect.signature(AsyncTcgClient).parameters)
        )


class GeneratedTest(unittest.TestCase):
    def test_the_async_client_is_generated_from_the_sync_one(self) -> None:
        import os
        import subprocess
        import sys

        tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "make_aio.py")
        run = subprocess.run([sys.executable, tool, "--check"], timeout=30)
        self.assertEqual(run.returncode, 0, "aio.py differs from client.py: run python3 clients/python/tools/make_aio.py")


class HelpersTest(unittest.TestCase):
    def test_retry_after_forms(self) -> None:
        from tcg_pricing._core import parse_retry_after

        self.assertEqual(parse_retry_after("120"), 120.0)
        self.assertIsNone(parse_retry_after(None))
        self.assertIsNone(parse_retry_after("-1"))
        self.assertIsNone(parse_retry_after("soon"))
        self.assertIsNone(parse_retry_after("9" * 40))
        self.assertEqual(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0), 10.0)
        self.assertEqual(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0), 0.0)

    def test_rate_limit_header(self) -> None:
        from tcg_pricing._core import parse_rate_limit

        self.assertEqual(parse_rate_limit("limit=10, remaining=0, reset=42"), tcg_pricing.RateLimit(10, 0, 42))
        self.assertIsNone(parse_rate_limit("limit=x"))
        self.assertIsNone(parse_rate_limit(None))

    def test_gzip_bombs_are_cut_at_the_cap(self) -> None:
        import gzip

        from tcg_pricing import _core

        bomb = gzip.compress(b"\0" * (_core.MAX_BODY_BYTES + 10))
        with self.assertRaises(TcgProtocolError):
            _core.decode_content({"content-encoding": "gzip"}, bomb)


if __name__ == "__main__":
    unittest.main()
