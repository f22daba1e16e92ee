"""The clients against a running stack, as a user sees it.

Runs when ``TCG_BASE_URL`` and ``TCG_API_KEY`` are set (``apps/api-e2e/src/client-python.e2e-spec.ts``
sets them, with the catalogue it seeded); otherwise every test here says it is skipped.

- ``TCG_SEED``: JSON ``{"game": {"id", "name"}, "set": {"id", "name"}, "cards": [{"id", "uuid", "name"}]}``,
  the catalogue the stack holds (the checks that need it are skipped without it);
- ``TCG_LOW_PLAN_KEY``: a key of a plan with a low per-minute limit, for the 429 check;
- ``TCG_ALERT_URL``: a webhook URL the stack accepts for an alert (default a public https one).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unittest
from typing import Any, Callable, Dict, List

from _support import AsyncCalls, SyncCalls, docs_page_python_example

from tcg_pricing import AsyncTcgClient, RateLimited, TcgApiError, TcgClient

BASE_URL = os.environ.get("TCG_BASE_URL", "")
API_KEY = os.environ.get("TCG_API_KEY", "")
LOW_PLAN_KEY = os.environ.get("TCG_LOW_PLAN_KEY", "")
SEED: Dict[str, Any] = json.loads(os.environ["TCG_SEED"]) if os.environ.get("TCG_SEED") else {}
ALERT_URL = os.environ.get("TCG_ALERT_URL", "https://hooks.example.com/tcg")

live = unittest.skipUnless(BASE_URL and API_KEY, "set TCG_BASE_URL and TCG_API_KEY to run against a live stack")
seeded = unittest.skipUnless(SEED, "set TCG_SEED to the catalogue the stack holds")


class Live:
    """The checks; a subclass says how a client is made and a call is run (sync or async)."""

    sleeps: List[float]

    def make(self, api_key: str = API_KEY, **kwargs: Any) -> Any:
        raise NotImplementedError

    def call(self, client: Any, fn: Callable[[Any], Any]) -> Any:
        raise NotImplementedError

    def pages(self, client: Any, fn: Callable[[Any], Any]) -> List[Any]:
        raise NotImplementedError

    @seeded
    def test_the_seeded_game_and_set_are_listed(self) -> None:
        client = self.make()
        games = self.call(client, lambda c: c.v1.games.list())
        by_id = {g.id: g for g in games.data}
        game = by_id[SEED["game"]["id"]]
        self.assertEqual(game.name, SEED["game"]["name"])
        self.assertEqual(game.cards_count, len(SEED["cards"]))
        self.assertGreater(games.metadata.api_requests_used, 0)
        sets = self.call(client, lambda c: c.v1.sets.list(SEED["game"]["id"]))
        self.assertIn((SEED["set"]["id"], SEED["set"]["name"]), [(s.id, s.name) for s in sets.data])
        self.assertFalse(sets.meta.has_more)

    @seeded
    def test_v1_pages_give_every_seeded_card_exactly_once(self) -> None:
        pages = self.pages(self.make(), lambda c: c.v1.cards.pages(set=SEED["set"]["id"], limit=3))
        ids = [card.id for page in pages for card in page.data]
        self.assertEqual(sorted(ids), sorted(c["id"] for c in SEED["cards"]))
        self.assertGreater(len(pages), 1)
        self.assertEqual(pages[0].meta.total, len(SEED["cards"]))
        self.assertTrue(all(card.variants and card.variants[0].price is not None for p in pages for card in p.data))

    @seeded
    def test_v2_cursors_give_every_seeded_card_exactly_once(self) -> None:
        pages = self.pages(self.make(), lambda c: c.v2.cards.pages(set=SEED["set"]["id"], limit=3, include=[]))
        ids = [card.id for page in pages for card in page.data]
        self.assertEqual(sorted(ids), sorted(c["uuid"] for c in SEED["cards"]))
        self.assertGreater(len(pages), 1)
        self.assertFalse(pages[-1].meta.has_more)
        self.assertIsNotNone(pages[0].rate_limit)
        market = pages[0].data[0].variants[0].markets[0]
        self.assertEqual((market.region, market.currency), ("NA", "USD"))
        self.assertIsNone(market.periods)  # include=[]: prices only

    @seeded
    def test_a_batch_lookup_by_slug_and_uuid(self) -> None:
        first, second = SEED["cards"][0], SEED["cards"][1]
        answer = self.call(self.make(), lambda c: c.v1.cards.batch([{"cardId": first["id"]}, {"cardId": second["uuid"]}]))
        self.assertEqual(sorted(card.id for card in answer.data), sorted([first["id"], second["id"]]))

    @seeded
    def test_a_v2_card_by_slug_carries_its_uuid_and_na_market(self) -> None:
        card = SEED["cards"][0]
        answer = self.call(self.make(), lambda c: c.v2.cards.get(card["id"], include=["periods.7d"]))
        self.assertEqual((answer.data.id, answer.data.slug, answer.data.name), (card["uuid"], card["id"], card["name"]))
        market = answer.data.variants[0].markets[0]
        self.assertEqual(market.region, "NA")
        self.assertIn("7d", market.periods)

    @seeded
    def test_an_alert_is_created_listed_read_and_deleted(self) -> None:
        client = self.make()
        card = SEED["cards"][0]
        created = self.call(
            client, lambda c: c.v1.alerts.create(card_id=card["id"], rule="price_above", value=100000, url=ALERT_URL)
        )
        alert = created.data
        self.assertTrue(alert.secret.startswith("whsec_"))
        self.assertEqual((alert.card_id, alert.rule, alert.value, alert.status), (card["id"], "price_above", 100000, "active"))
        listed = self.call(client, lambda c: c.v1.alerts.list())
        self.assertIn(alert.id, [a.id for a in listed.data])
        got = self.call(client, lambda c: c.v1.alerts.get(alert.id))
        self.assertEqual(got.data.card_name, card["name"])
        self.assertIsNone(self.call(client, lambda c: c.v1.alerts.delete(alert.id)))
        with self.assertRaises(TcgApiError) as caught:
            self.call(client, lambda c: c.v1.alerts.get(alert.id))
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "NOT_FOUND"))
        self.assertNotIn(alert.id, [a.id for a in self.call(client, lambda c: c.v1.alerts.list()).data])

    @seeded
    def test_the_crosswalk_and_a_currency_answer_read_as_the_json_sent(self) -> None:
        client = self.make()
        card = SEED["cards"][0]
        ids = self.call(client, lambda c: c.v2.cards.ids(card["uuid"]))
        raw = self.call(client, lambda c: c.request("GET", f"/v2/cards/{card['uuid']}/ids"))
        self.assertEqual((ids.data.id, ids.data.slug), (card["uuid"], card["id"]))
        self.assertEqual(ids.data.raw, raw["data"])
        found = self.call(client, lambda c: c.v2.ids.lookup("tcgplayer_product", "1007"))
        raw = self.call(client, lambda c: c.request("GET", "/v2/ids/tcgplayer_product/1007"))
        self.assertEqual((found.data.kind, found.data.value), ("tcgplayer_product", "1007"))
        self.assertEqual(found.data.raw, raw["data"])
        priced = self.call(client, lambda c: c.v2.cards.get(card["id"], currency="EUR", include=[]))
        market = priced.data.variants[0].markets[0]
        self.assertEqual((market.currency, market.conversion.currency), ("USD", "EUR"))
        # A price in euros with its dated rate, or none with the reason (no rate stored): never a guess.
        if market.conversion.price is None:
            self.assertTrue(market.conversion.reason)
        else:
            self.assertIsNotNone(market.conversion.rate)
            self.assertIsNotNone(market.conversion.rate_date)

    def test_an_unknown_card_is_a_typed_404(self) -> None:
        with self.assertRaises(TcgApiError) as caught:
            self.call(self.make(), lambda c: c.v2.cards.get("no-such-card-anywhere"))
        e = caught.exception
        self.assertEqual((e.status, e.code), (404, "NOT_FOUND"))
        self.assertIsInstance(e.body, dict)
        self.assertEqual(e.body["status"], 404)  # an RFC 7807 problem

    def test_bad_parameters_are_typed_400s_naming_the_parameter(self) -> None:
        client = self.make()
        with self.assertRaises(TcgApiError) as v1:
            self.call(client, lambda c: c.v1.cards.list(language="Klingon"))
        self.assertEqual((v1.exception.status, v1.exception.code), (400, "INVALID_REQUEST"))
        self.assertIn("language", v1.exception.message)
        with self.assertRaises(TcgApiError) as v2:
            self.call(client, lambda c: c.v2.cards.list(regions=["MOON"]))
        self.assertEqual((v2.exception.status, v2.exception.code), (400, "INVALID_REQUEST"))
        self.assertIn("regions", v2.exception.message)

    @unittest.skipUnless(LOW_PLAN_KEY, "set TCG_LOW_PLAN_KEY to a key with a low per-minute limit")
    def test_a_spent_minute_is_rate_limited_with_retry_after(self) -> None:
        # The waits are recorded, not slept: every one must be at least the Retry-After it followed.
        client = self.make(LOW_PLAN_KEY, retries=2, max_retry_wait=10_000)
        with self.assertRaises(RateLimited) as caught:
            for _ in range(200):
                self.call(client, lambda c: c.v1.games.list())
        e = caught.exception
        self.assertEqual((e.status, e.code), (429, "RATE_LIMIT_EXCEEDED"))
        self.assertIsNotNone(e.retry_after)
        self.assertGreaterEqual(e.retry_after, 1)
        self.assertLessEqual(e.retry_after, 60)
        self.assertEqual(len(self.sleeps), 2)
        self.assertTrue(all(s >= 1 for s in self.sleeps), self.sleeps)


@live
class SyncLiveTest(SyncCalls, Live, unittest.TestCase):
    def make(self, api_key: str = API_KEY, **kwargs: Any) -> TcgClient:
        client = TcgClient(BASE_URL, api_key, timeout=20, sleep=self.sleeps.append, **kwargs)
        self.clients.append(client)
        return client


@live
class AsyncLiveTest(AsyncCalls, Live, unittest.TestCase):
    def make(self, api_key: str = API_KEY, **kwargs: Any) -> AsyncTcgClient:
        client = AsyncTcgClient(BASE_URL, api_key, timeout=20, sleep=self.sleep, **kwargs)
        self.clients.append(client)
        return client


HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(HERE, "..", "README.md")


@live
@seeded
class ExamplesLiveTest(unittest.TestCase):
    """The examples a user copies (README, the gateway's /docs page) run against the stack."""

    def run_example(self, code: str) -> str:
        code = (
            code.replace("http://127.0.0.1:8080", BASE_URL)
            .replace("YOUR_API_KEY", API_KEY)
            .replace("<card uuid or slug>", SEED["cards"][0]["id"])
        )
        env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "src"), PYTHONDONTWRITEBYTECODE="1")
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        return run.stdout

    def test_the_readme_examples_run(self) -> None:
        with open(README, encoding="utf-8") as f:
            blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
        self.assertEqual(len(blocks), 2)
        out = self.run_example(blocks[0])
        self.assertIn(SEED["game"]["name"], out)
        self.assertIn("404 NOT_FOUND", out)
        out = self.run_example(blocks[1])
        self.assertIn(SEED["cards"][0]["name"], out)

    def test_the_docs_page_example_runs(self) -> None:
        out = self.run_example(docs_page_python_example(self))
        self.assertIn(SEED["game"]["name"], out)
        self.assertIn("404 NOT_FOUND", out)


if __name__ == "__main__":
    unittest.main()
