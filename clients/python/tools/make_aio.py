"""Writes ``src/tcg_pricing/aio.py`` from ``src/tcg_pricing/client.py``: the async client is the sync
one with every call awaited, its generators async and its sleep a coroutine (as ``unasync`` does
for httpx). Run ``python3 tools/make_aio.py`` after changing ``client.py``; a unit test fails
while the two differ."""

from __future__ import annotations

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SYNC = os.path.join(HERE, "..", "src", "tcg_pricing", "client.py")
ASYNC = os.path.join(HERE, "..", "src", "tcg_pricing", "aio.py")

# (pattern, replacement), applied in order; each must match at least once.
RULES = [
    (r'^""".*?"""', '"""The asynchronous client: ``async with AsyncTcgClient(url, key) as c: await c.v1.games.list()``.\n\nGenerated from ``client.py`` by ``tools/make_aio.py``: change that one, then run this.\n"""'),
    (r"^import dataclasses\n", "import asyncio\nimport dataclasses\n"),
    (r"^import time\n", ""),
    (r"\bIterator\b", "AsyncIterator"),
    (r"from typing import Any, ", "from typing import Any, Awaitable, "),
    (r"from \._sync_transport import SyncTransport", "from ._async_transport import AsyncTransport"),
    (r"SyncTransport\(", "AsyncTransport("),
    (r"\bTcgClient\b", "AsyncTcgClient"),
    (r'"""Synchronous client of the trading-card pricing API\.', '"""Asynchronous client of the trading-card pricing API, on asyncio streams: the same surface\n    as ``TcgClient``, every call awaited, ``pages`` and ``iterate`` async generators.'),
    (r"Thread-safe; use it as a context manager or call\n    ``close\(\)`` to drop its kept-alive connections\.", "Use it within one event loop, as an async context\n    manager, or await ``aclose()`` to drop its kept-alive connections."),
    (r"sleep: Callable\[\[float\], None\] = time\.sleep", "sleep: Callable[[float], Awaitable[None]] = asyncio.sleep"),
    (r"def __enter__\(self\)", "async def __aenter__(self)"),
    (r"def __exit__\(self, \*exc: object\) -> None:\n        self\.close\(\)", "async def __aexit__(self, *exc: object) -> None:\n        await self.aclose()"),
    (r"def close\(self\) -> None:\n        self\._transport\.close\(\)", "async def aclose(self) -> None:\n        await self._transport.aclose()"),
    (r"(\n    )def (list|get|create|delete|deliveries|batch|request|_send|_model|pages|iterate|ids|lookup)\(", r"\1async def \2("),
    (r"self\._transport\.send\(", "await self._transport.send("),
    (r"self\._sleep\(wait\)", "await self._sleep(wait)"),
    (r"= self\._send\(req\)", "= await self._send(req)"),
    (r"return self\._c\._model\(", "return await self._c._model("),
    (r"(\n        )self\._c\._send\(", r"\1await self._c._send("),
    (r"page = self\.(list|pages)\(", r"page = await self.\1("),
    (r"for page in self\.pages\(", "async for page in self.pages("),
]


def transform(source: str) -> str:
    for pattern, replacement in RULES:
        source, n = re.subn(pattern, replacement, source, flags=re.S | re.M)
        if n == 0:
            raise SystemExit(f"make_aio: {pattern!r} matched nothing in client.py")
    return source


def main() -> None:
    with open(SYNC, encoding="utf-8") as f:
        out = transform(f.read())
    if "--check" in sys.argv:
        with open(ASYNC, encoding="utf-8") as f:
            sys.exit(0 if f.read() == out else 1)
    with open(ASYNC, "w", encoding="utf-8") as f:
        f.write(out)


if __name__ == "__main__":
    main()
