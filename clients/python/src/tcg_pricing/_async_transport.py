"""A small, bounded HTTP/1.1 exchange on asyncio streams (TLS through ``ssl``), kept-alive connections.

It reads what the API sends and no more: a status line, at most ``MAX_HEADERS`` header lines of at
most ``MAX_HEADER_LINE`` bytes (``MAX_HEADER_BYTES`` together), then a body framed by
Content-Length, chunked transfer coding or the connection's end, at most ``MAX_BODY_BYTES``. The
whole exchange (connect, TLS, send, answer) runs under one deadline.
"""

from __future__ import annotations

import asyncio
import ssl
from typing import Dict, List, Optional, Tuple

from ._core import (
    MAX_BODY_BYTES,
    MAX_HEADER_BYTES,
    MAX_HEADER_LINE,
    MAX_HEADERS,
    Endpoint,
    Request,
    Response,
    decode_content,
    request_headers,
)
from .errors import TcgConnectionError, TcgProtocolError, TcgTimeoutError

_MAX_IDLE = 4
_STALE = (ConnectionResetError, BrokenPipeError, ConnectionAbortedError, asyncio.IncompleteReadError)


class _Conn:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.used = False

    def close(self) -> None:
        try:
            self.writer.close()
        except Exception:  # already closed; nothing to give back
            pass


class _Stale(Exception):
    pass


class AsyncTransport:
    def __init__(self, endpoint: Endpoint, api_key: str, gzip: bool, ssl_context: Optional[ssl.SSLContext]) -> None:
        self._endpoint = endpoint
        self._api_key = api_key
        self._gzip = gzip
        self._tls = (ssl_context or ssl.create_default_context()) if endpoint.scheme == "https" else None
        self._idle: List[_Conn] = []
        self._closed = False

    async def aclose(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
        for conn in idle:
            try:
                await asyncio.wait_for(conn.writer.wait_closed(), 1.0)
            except (Exception, asyncio.TimeoutError):
                pass

    async def send(self, req: Request, timeout: float) -> Response:
        try:
            return await asyncio.wait_for(self._send(req), timeout)
        except asyncio.TimeoutError:
            raise TcgTimeoutError(f"{req.method} {req.path}: no complete answer in {timeout:g} s") from None

    async def _send(self, req: Request) -> Response:
        head = self._head(req)
        if req.idempotent:
            while self._idle:
                conn = self._idle.pop()
                if conn.reader.at_eof() or conn.writer.is_closing():
                    conn.close()
                    continue
                try:
                    return await self._exchange(conn, req, head)
                except _Stale:
                    break  # the server closed it while idle: once more on a new one
        try:
            reader, writer = await asyncio.open_connection(
                self._endpoint.host,
                self._endpoint.port,
                ssl=self._tls,
                server_hostname=self._endpoint.host if self._tls else None,
                limit=MAX_HEADER_LINE,
            )
        except ssl.SSLError as e:
            raise TcgConnectionError(f"TLS with {self._endpoint.host_header} failed: {e}") from None
        except OSError as e:
            raise TcgConnectionError(f"cannot reach {self._endpoint.host_header}: {e}") from None
        return await self._exchange(_Conn(reader, writer), req, head)

    async def _exchange(self, conn: _Conn, req: Request, head: bytes) -> Response:
        keep = False
        try:
            conn.writer.write(head + (req.body or b""))
            await conn.writer.drain()
            status, headers = await _read_head(conn.reader, fresh=not conn.used)
            while 100 <= status < 200:  # interim answers (we never ask for them) carry no body
                status, headers = await _read_head(conn.reader, fresh=False)
            body, reusable = await _read_body(conn.reader, req.method, status, headers)
            keep = reusable and "close" not in headers.get("connection", "").lower()
            conn.used = True
            return Response(status, headers, decode_content(headers, body))
        except _Stale:
            if conn.used:
                raise
            raise TcgConnectionError(f"{self._endpoint.host_header} closed the connection without answering") from None
        except TcgProtocolError:
            raise
        except asyncio.IncompleteReadError:
            raise TcgConnectionError(f"connection to {self._endpoint.host_header} closed mid-answer") from None
        except asyncio.LimitOverrunError:
            raise TcgProtocolError(f"a header or chunk-size line is longer than {MAX_HEADER_LINE} bytes") from None
        except ValueError as e:  # StreamReader's own overrun form
            raise TcgProtocolError(f"malformed HTTP answer: {e}") from None
        except ssl.SSLError as e:
            raise TcgConnectionError(f"TLS with {self._endpoint.host_header} failed: {e}") from None
        except OSError as e:
            if conn.used and isinstance(e, _STALE):
                raise _Stale() from e
            raise TcgConnectionError(f"connection to {self._endpoint.host_header} broke: {e}") from None
        finally:
            if keep and not self._closed and len(self._idle) < _MAX_IDLE:
                self._idle.append(conn)
            else:
                conn.close()

    def _head(self, req: Request) -> bytes:
        target = req.target(self._endpoint.prefix)
        if any(c in target for c in "\r\n ") or not target.isascii():
            raise ValueError(f"bad request target {target!r}")
        lines = [f"{req.method} {target} HTTP/1.1"]
        lines += [f"{k}: {v}" for k, v in request_headers(self._endpoint, self._api_key, req, self._gzip).items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")


async def _line(reader: asyncio.StreamReader) -> bytes:
    line = await reader.readuntil(b"\n")
    return line.rstrip(b"\r\n")


async def _read_head(reader: asyncio.StreamReader, fresh: bool) -> Tuple[int, Dict[str, str]]:
    try:
        status_line = await _line(reader)
    except asyncio.IncompleteReadError as e:
        if not e.partial and not fresh:
            raise _Stale() from e  # a kept-alive connection the server had closed
        raise
    parts = status_line.split(b" ", 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not (parts[1].isdigit() and len(parts[1]) == 3):
        raise TcgProtocolError(f"malformed status line {status_line[:80]!r}")
    status = int(parts[1])
    headers: Dict[str, str] = {}
    total = 0
    for _ in range(MAX_HEADERS + 1):
        line = await _line(reader)
        if not line:
            return status, headers
        total += len(line)
        if total > MAX_HEADER_BYTES:
            raise TcgProtocolError(f"headers longer than {MAX_HEADER_BYTES} bytes")
        name, sep, value = line.partition(b":")
        if not sep or not name or name != name.strip():
            raise TcgProtocolError(f"malformed header line {line[:80]!r}")
        key = name.decode("latin-1").lower()
        text = value.strip().decode("latin-1")
        headers[key] = f"{headers[key]}, {text}" if key in headers else text
    raise TcgProtocolError(f"more than {MAX_HEADERS} headers")


async def _read_body(
    reader: asyncio.StreamReader, method: str, status: int, headers: Dict[str, str]
) -> Tuple[bytes, bool]:
    """The body and whether the connection may carry another request after it."""
    if method == "HEAD" or status in (204, 304):
        return b"", True
    coding = headers.get("transfer-encoding", "").lower()
    if coding:
        if coding.split(",")[-1].strip() != "chunked":
            raise TcgProtocolError(f"unsupported transfer-encoding {coding!r}")
        return await _read_chunked(reader), True
    length = headers.get("content-length")
    if length is not None:
        if not length.isdigit() or len(length) > 15:
            raise TcgProtocolError(f"bad content-length {length[:40]!r}")
        n = int(length)
        if n > MAX_BODY_BYTES:
            raise TcgProtocolError(f"the answer declares {n} bytes, more than {MAX_BODY_BYTES}")
        return await reader.readexactly(n), True
    parts: List[bytes] = []
    size = 0
    while size <= MAX_BODY_BYTES:
        more = await reader.read(MAX_BODY_BYTES + 1 - size)
        if not more:
            return b"".join(parts), False
        parts.append(more)
        size += len(more)
    raise TcgProtocolError(f"the answer is longer than {MAX_BODY_BYTES} bytes")


async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
    parts: List[bytes] = []
    size = 0
    while True:
        line = await _line(reader)
        digits = line.split(b";", 1)[0].strip()
        if not digits or len(digits) > 8 or any(c not in b"0123456789abcdefABCDEF" for c in digits):
            raise TcgProtocolError(f"bad chunk size {line[:40]!r}")
        n = int(digits, 16)
        if n == 0:
            for _ in range(MAX_HEADERS + 1):  # trailers, ignored
                if not await _line(reader):
                    return b"".join(parts)
            raise TcgProtocolError(f"more than {MAX_HEADERS} trailer lines")
        size += n
        if size > MAX_BODY_BYTES:
            raise TcgProtocolError(f"the answer is longer than {MAX_BODY_BYTES} bytes")
        parts.append(await reader.readexactly(n))
        if await reader.readexactly(2) != b"\r\n":
            raise TcgProtocolError("chunk not followed by CRLF")
