"""Shared by the tests: the package from ``src/`` without installing it, and a scripted local server."""

from __future__ import annotations

import asyncio
import atexit
import gzip as gzip_module
import html
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))


@dataclass
class Seen:
    """A request as the server received it."""

    method: str
    path: str
    query: Dict[str, str]
    headers: Dict[str, str]
    body: bytes
    client_port: int


@dataclass
class Reply:
    status: int = 200
    body: Union[bytes, str, Any] = b""
    headers: Dict[str, str] = field(default_factory=dict)
    gzip: bool = False
    #: Close the connection after answering without saying so (a kept-alive connection gone stale).
    drop_after: bool = False


Script = Callable[[Seen], Union[Reply, Callable[[BaseHTTPRequestHandler], None]]]


def json_reply(body: Any, status: int = 200, **headers: str) -> Reply:
    return Reply(status, json.dumps(body).encode(), {"content-type": "application/json", **headers})


class LocalServer:
    """An HTTP/1.1 server on 127.0.0.1 in a thread; each request is answered by ``script``
    (a ``Reply``, or a function that writes to the handler's socket itself)."""

    def __init__(self, script: Script, tls: Optional[ssl.SSLContext] = None) -> None:
        self.script = script
        self.seen: List[Seen] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                url = urllib.parse.urlsplit(self.path)
                seen = Seen(
                    self.command,
                    url.path,
                    dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True)),
                    {k.lower(): v for k, v in self.headers.items()},
                    body,
                    self.client_address[1],
                )
                outer.seen.append(seen)
                reply = outer.script(seen)
                if callable(reply):
                    reply(self)
                    self.close_connection = True
                    return
                payload = reply.body if isinstance(reply.body, bytes) else str(reply.body).encode()
                if reply.gzip:
                    payload = gzip_module.compress(payload)
                    reply.headers["content-encoding"] = "gzip"
                self.send_response(reply.status)
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                self.wfile.flush()
                if reply.drop_after:
                    self.close_connection = True

            do_GET = do_POST = do_DELETE = _handle

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        scheme = "https" if tls is not None else "http"
        self.url = f"{scheme}://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)

    def __enter__(self) -> "LocalServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def self_signed(directory: str) -> Optional[Tuple[str, str]]:
    """A certificate for 127.0.0.1 and its key, made with the openssl command; None without it."""
    if shutil.which("openssl") is None:
        return None
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
        check=True, capture_output=True, timeout=60,
    )
    return cert, key


TLS_DIR = tempfile.mkdtemp(prefix="tcg-pricing-tls-")
atexit.register(shutil.rmtree, TLS_DIR, True)


def dead_port() -> int:
    """A port on 127.0.0.1 where nothing listens (bound, then released)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def raw_writer(data: bytes, then_sleep: float = 0.0) -> Callable[[BaseHTTPRequestHandler], None]:
    """Writes ``data`` as the whole answer (for framings and faults ``http.server`` cannot make)."""

    def write(h: BaseHTTPRequestHandler) -> None:
        h.wfile.write(data)
        h.wfile.flush()
        if then_sleep:
            time.sleep(then_sleep)

    return write


def drip(data: bytes, every: float, max_seconds: float) -> Callable[[BaseHTTPRequestHandler], None]:
    """Sends ``data`` one byte every ``every`` seconds (a server that never quite goes silent)."""

    def write(h: BaseHTTPRequestHandler) -> None:
        end = time.monotonic() + max_seconds
        for b in data:
            if time.monotonic() > end:
                return
            try:
                h.wfile.write(bytes([b]))
                h.wfile.flush()
            except OSError:
                return
            time.sleep(every)

    return write


# ------------------------------------------------------------ documents as the API sends them

USAGE = {
    "apiPlan": "starter",
    "apiRequestLimit": 30000,
    "apiRequestsUsed": 1,
    "apiRequestsRemaining": 29999,
    "apiDailyLimit": 2000,
    "apiDailyRequestsUsed": 1,
    "apiDailyRequestsRemaining": 1999,
    "apiRateLimit": 60,
}

GAME = {
    "id": "test-game",
    "name": "Test Game",
    "cards_count": 3,
    "variants_count": 9,
    "sealed_count": 0,
    "sets_count": 1,
    "last_updated": 1793491200,
    "game_value_index_cents": 1500,
    "game_value_change_7d_pct": 1.37,
    "price_sources": ["simulated"],
    "a_field_added_later": {"nested": True},
}


def v1_card(n: int) -> Dict[str, Any]:
    return {
        "id": f"test-game-first-edition-card-{n}-rare",
        "uuid": f"00000000-0000-5000-8000-{n:012d}",
        "name": f"Card {n}",
        "game": "test-game",
        "set": "test-game-first-edition",
        "set_name": "First Edition",
        "number": str(n),
        "vendorId": None,
        "opensetId": None,
        "imagedbId": None,
        "rarity": "Rare",
        "details": None,
        "variants": [
            {
                "id": f"test-game-first-edition-card-{n}-rare_near-mint_normal",
                "uuid": f"00000000-0000-5000-9000-{n:012d}",
                "condition": "Near Mint",
                "printing": "Normal",
                "language": "English",
                "vendorSkuId": None,
                "price": 10.5 + n,
                "lastUpdated": 1793491200,
                "priceChange24hr": None,
                "priceChange7d": 2.5,
                "avgPrice": 10,
                "minPrice7d": 9,
                "maxPrice7d": 12,
                "priceHistory": [{"t": 1793404800, "p": 10}, {"t": 1793491200, "p": 10.5}],
                "priceHistory30d": None,
                "someNewStatistic": 3,
            }
        ],
    }


def v1_alert(value: float) -> Dict[str, Any]:
    """An alert as v1 answers it: active, never fired, its rule ``price_above`` ``value`` USD."""
    return {
        "id": "6f1c2a7e-5d8b-4c3f-9a0e-1b2c3d4e5f60",
        "card_id": "c",
        "card_name": "Card",
        "variant_id": None,
        "region": "US",
        "currency": "USD",
        "rule": "price_above",
        "value": value,
        "url": "https://hooks.example.com/tcg",
        "status": "active",
        "holds": False,
        "created_at": "2026-12-07T00:00:00.000Z",
        "last_fired_at": None,
        "disabled_at": None,
        "disabled_reason": None,
    }


def v2_card(n: int) -> Dict[str, Any]:
    return {
        "id": f"00000000-0000-5000-8000-{n:012d}",
        "slug": f"test-game-first-edition-card-{n}-rare",
        "name": f"Card {n}",
        "game": {"id": "test-game", "name": "Test Game"},
        "set": {"id": "test-game-first-edition", "name": "First Edition"},
        "number": str(n),
        "rarity": "Rare",
        "external_ids": {"vendor": None, "imagedb": None, "openset": None},
        "details": None,
        "variants": [
            {
                "id": f"00000000-0000-5000-9000-{n:012d}",
                "slug": f"test-game-first-edition-card-{n}-rare_psa-10_normal",
                "type": "graded",
                "condition": None,
                "printing": "Normal",
                "language": None,
                "external_ids": {"vendor_sku": None},
                "grading": {"company": "PSA", "grade": 10, "grade_label": None, "qualifier": None, "canonical": "PSA 10"},
                "markets": [
                    {
                        "region": "NA",
                        "currency": "USD",
                        "price": 99.5,
                        "updated_at": 1793491200,
                        "change_24h_pct": None,
                        "source": "simulated",
                        "periods": {"7d": {"change_pct": 1.2, "avg": 98, "min": 97, "max": 100}, "1y": {"min": 50, "max": 120}},
                        "price_history": [{"t": 1793491200, "p": 99.5}],
                        "converted": {"currency": "EUR", "rate": 0.92},
                    },
                    {
                        "region": "EU",
                        "currency": "EUR",
                        "price": None,
                        "updated_at": None,
                        "change_24h_pct": None,
                        "source": None,
                        "periods": {},
                        "price_history": [],
                    },
                ],
            }
        ],
    }


class SyncCalls:
    """How a shared scenario runs on the sync client: a call as it is, pages as a list. The test
    case's ``make`` gives a client (which server, which key), passing ``sleep=self.sleeps.append``
    and adding it to ``self.clients``, closed after the test."""

    def setUp(self) -> None:
        self.sleeps: List[float] = []
        self.clients: List[Any] = []

    def tearDown(self) -> None:
        for c in self.clients:
            c.close()

    def call(self, client: Any, fn: Callable[[Any], Any]) -> Any:
        return fn(client)

    def pages(self, client: Any, fn: Callable[[Any], Any]) -> List[Any]:
        return list(fn(client))


class AsyncCalls:
    """The same for the async client, each call run to its end on the test's own event loop; its
    ``make`` passes ``sleep=self.sleep``, which records the waits instead of waiting."""

    def setUp(self) -> None:
        self.sleeps: List[float] = []
        self.clients: List[Any] = []
        self.loop = asyncio.new_event_loop()

    def tearDown(self) -> None:
        for c in self.clients:
            self.loop.run_until_complete(c.aclose())
        self.loop.close()

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)

    def call(self, client: Any, fn: Callable[[Any], Any]) -> Any:
        return self.loop.run_until_complete(fn(client))

    def pages(self, client: Any, fn: Callable[[Any], Any]) -> List[Any]:
        async def collect() -> List[Any]:
            return [page async for page in fn(client)]

        return self.loop.run_until_complete(collect())


DOCS_PAGE = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "apps", "api-gateway", "src", "pages", "assets", "docs.html"
)


def docs_page_python_example(test: unittest.TestCase) -> str:
    """The Python example of the gateway's ``/docs`` page; skips ``test`` outside the repository."""
    if not os.path.exists(DOCS_PAGE):
        test.skipTest("not in the repository: no docs page")
    with open(DOCS_PAGE, encoding="utf-8") as f:
        found = re.search(r'aria-label="Python example"\s*><code>(.*?)</code></pre>', f.read(), re.S)
    test.assertIsNotNone(found)
    assert found is not None
    return html.unescape(found.group(1))
