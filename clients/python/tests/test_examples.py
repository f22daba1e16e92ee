"""The Python examples users copy (this package's README, ``docs/clients.md``, the gateway's ``/docs``
page) run to their end against a scripted server that answers every route they call with the
documents the API sends: a renamed attribute or a changed signature fails here."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unittest
from typing import List

from _support import GAME, USAGE, LocalServer, Reply, Seen, docs_page_python_example, json_reply, v1_alert, v1_card, v2_card

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
README = os.path.join(HERE, "..", "README.md")
CLIENTS_PAGE = os.path.join(ROOT, "docs", "clients.md")

ALERT = v1_alert(20000)
V1_PAGE = {"data": [v1_card(1)], "meta": {"total": 1, "limit": 20, "offset": 0, "hasMore": False}, "_metadata": USAGE}
V2_PAGE = {
    "data": [v2_card(1)],
    "meta": {"count": 1, "total": 1, "limit": 20, "has_more": False, "cursor": {"next": None, "prev": None}},
}
SETS = {
    "data": [{"id": "s", "name": "S", "game_id": "g", "game": "G", "release_date": None, "cards_count": 1, "set_value_usd": 1}],
    "meta": {"total": 1, "limit": 1, "offset": 0, "hasMore": False},
    "_metadata": USAGE,
}


def api(seen: Seen) -> Reply:
    route = (seen.method, seen.path)
    if route == ("GET", "/v1/games"):
        return json_reply({"data": [GAME], "_metadata": USAGE})
    if route == ("GET", "/v1/sets"):
        return json_reply(SETS)
    if route == ("GET", "/v1/cards/autocomplete"):
        return json_reply({"data": [{"name": "Lightning Bolt", "game_id": "g", "cards_count": 3, "match": "prefix"}], "_metadata": USAGE})
    if seen.path == "/v1/cards":
        return json_reply(V1_PAGE)
    if route == ("GET", "/v2/cards"):
        return json_reply(V2_PAGE, RateLimit="limit=60, remaining=59, reset=30")
    if seen.method == "GET" and seen.path.startswith("/v2/cards/"):
        if "no-such-card" in seen.path:
            body = {"type": "x", "title": "Not found", "status": 404, "detail": "No card.", "code": "NOT_FOUND"}
            return Reply(404, json.dumps(body).encode(), {"content-type": "application/problem+json"})
        return json_reply({"data": v2_card(1)})
    if route == ("POST", "/v1/alerts"):
        return json_reply({"data": dict(ALERT, secret="whsec_x"), "_metadata": USAGE}, 201)
    if route == ("GET", "/v1/alerts"):
        return json_reply({"data": [ALERT], "_metadata": USAGE})
    if seen.method == "DELETE":
        return Reply(204)
    return json_reply({"error": f"no route {route}", "code": "NOT_FOUND"}, 404)


def python_blocks(path: str, after: str = "") -> List[str]:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if after:
        text = text[text.index(after) :]
        following = re.search(r"\n## ", text[len(after) :])
        text = text[: len(after) + following.start()] if following else text
    return re.findall(r"```python\n(.*?)```", text, re.S)


class ExamplesTest(unittest.TestCase):
    def run_examples(self, blocks: List[str]) -> None:
        self.assertTrue(blocks, "no Python example found")
        with LocalServer(api) as srv:
            for code in blocks:
                code = code.replace("http://127.0.0.1:8080", srv.url)
                env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "src"), PYTHONDONTWRITEBYTECODE="1")
                run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
                self.assertEqual(run.returncode, 0, f"{run.stderr}\n--- in ---\n{code}")

    def test_the_readme_examples(self) -> None:
        self.run_examples(python_blocks(README))

    def test_the_clients_page_examples(self) -> None:
        if not os.path.exists(CLIENTS_PAGE):
            self.skipTest("not in the repository: no docs/clients.md")
        self.run_examples(python_blocks(CLIENTS_PAGE, after="## Python"))

    def test_the_docs_page_example(self) -> None:
        self.run_examples([docs_page_python_example(self)])


if __name__ == "__main__":
    unittest.main()
