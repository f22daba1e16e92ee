"""One HTTP/1.1 exchange at a time on ``http.client``, with a hard deadline and kept-alive connections."""

from __future__ import annotations

import http.client
import io
import math
import socket
import ssl
import threading
import time
from typing import Callable, Dict, List, Optional

from ._core import MAX_BODY_BYTES, Endpoint, Request, Response, decode_content, request_headers
from .errors import TcgConnectionError, TcgProtocolError, TcgTimeoutError

_MAX_IDLE = 4
_READ_CHUNK = 64 * 1024
#: What a kept-alive connection the server has since closed looks like when it is reused.
_STALE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError, ConnectionAbortedError)


class _DeadlineSocket:
    """A connected socket whose every send and receive ends by the current request's deadline.

    ``http.client`` sets one socket timeout per operation, so a server sending a byte at a time
    could hold a call far past its timeout; here each receive gets only the time that is left.
    """

    def __init__(self, sock: socket.socket, deadline: Callable[[], float]) -> None:
        self._sock = sock
        self._deadline = deadline

    def _left(self) -> float:
        left = self._deadline() - time.monotonic()
        if left <= 0:
            raise socket.timeout("deadline passed")
        return left

    def sendall(self, data: bytes) -> None:
        self._sock.settimeout(self._left())
        self._sock.sendall(data)

    def recv_into(self, buffer: memoryview) -> int:
        self._sock.settimeout(self._left())
        return self._sock.recv_into(buffer)

    def makefile(self, mode: str = "rb", *args: object, **kwargs: object) -> io.BufferedReader:
        return io.BufferedReader(_Reader(self), _READ_CHUNK)

    def close(self) -> None:
        self._sock.close()


class _Reader(io.RawIOBase):
    def __init__(self, sock: _DeadlineSocket) -> None:
        self._s = sock

    def readable(self) -> bool:
        return True

    def readinto(self, b: memoryview) -> int:  # type: ignore[override]
        return self._s.recv_into(b)


class _Connection(http.client.HTTPConnection):
    def __init__(self, endpoint: Endpoint, tls: Optional[ssl.SSLContext]) -> None:
        super().__init__(endpoint.host, endpoint.port)
        self._tls = tls
        self.deadline = math.inf
        self.used = False

    def connect(self) -> None:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout("deadline passed")
        raw = socket.create_connection((self.host, self.port), timeout=left)
        try:
            raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self._tls is not None:
                raw.settimeout(max(0.001, self.deadline - time.monotonic()))
                raw = self._tls.wrap_socket(raw, server_hostname=self.host)
        except BaseException:
            raw.close()
            raise
        self.sock = _DeadlineSocket(raw, lambda: self.deadline)


class SyncTransport:
    """Sends requests on a few kept-alive connections (at most ``_MAX_IDLE`` idle), thread-safe."""

    def __init__(self, endpoint: Endpoint, api_key: str, gzip: bool, ssl_context: Optional[ssl.SSLContext]) -> None:
        self._endpoint = endpoint
        self._api_key = api_key
        self._gzip = gzip
        self._tls = (ssl_context or ssl.create_default_context()) if endpoint.scheme == "https" else None
        self._idle: List[_Connection] = []
        self._lock = threading.Lock()
        self._closed = False

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    def send(self, req: Request, timeout: float) -> Response:
        deadline = time.monotonic() + timeout
        if req.idempotent:
            conn = self._take()
            if conn is not None:
                try:
                    return self._exchange(conn, req, deadline)
                except _StaleConnection:
                    pass  # the server closed it while idle: once more on a new one
        return self._exchange(_Connection(self._endpoint, self._tls), req, deadline, fresh=True)

    def _take(self) -> Optional[_Connection]:
        with self._lock:
            return self._idle.pop() if self._idle else None

    def _give_back(self, conn: _Connection) -> None:
        with self._lock:
            if not self._closed and len(self._idle) < _MAX_IDLE:
                conn.deadline = math.inf
                self._idle.append(conn)
                return
        conn.close()

    def _exchange(self, conn: _Connection, req: Request, deadline: float, fresh: bool = False) -> Response:
        conn.deadline = deadline
        url = req.target(self._endpoint.prefix)
        keep = False
        try:
            conn.request(
                req.method, url, body=req.body, headers=request_headers(self._endpoint, self._api_key, req, self._gzip)
            )
            res = conn.getresponse()
            headers: Dict[str, str] = {}
            for name, value in res.getheaders():
                key = name.lower()
                headers[key] = f"{headers[key]}, {value}" if key in headers else value
            length = headers.get("content-length")
            if length is not None and length.strip().isdigit() and int(length) > MAX_BODY_BYTES:
                raise TcgProtocolError(f"the answer declares {length} bytes, more than {MAX_BODY_BYTES}")
            chunks: List[bytes] = []
            size = 0
            while True:
                chunk = res.read(_READ_CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    raise TcgProtocolError(f"the answer is longer than {MAX_BODY_BYTES} bytes")
                chunks.append(chunk)
            if length is not None and length.strip().isdigit() and size < int(length):
                # http.client returns a short body as it is when the connection ends early.
                raise http.client.IncompleteRead(b"", int(length) - size)
            keep = not res.will_close
            conn.used = True
            return Response(res.status, headers, decode_content(headers, b"".join(chunks)))
        except TcgProtocolError:
            raise
        except _STALE as e:
            if conn.used and not fresh:
                raise _StaleConnection() from e
            raise TcgConnectionError(f"connection to {self._endpoint.host_header} broke: {e}") from None
        except (socket.timeout, TimeoutError):
            raise TcgTimeoutError(f"{req.method} {req.path}: no complete answer in time") from None
        except http.client.IncompleteRead as e:
            raise TcgConnectionError(f"connection closed mid-answer: {e!r}") from None
        except http.client.HTTPException as e:
            raise TcgProtocolError(f"malformed HTTP answer: {e!r}") from None
        except ssl.SSLError as e:
            raise TcgConnectionError(f"TLS with {self._endpoint.host_header} failed: {e}") from None
        except OSError as e:
            raise TcgConnectionError(f"cannot reach {self._endpoint.host_header}: {e}") from None
        finally:
            if keep:
                self._give_back(conn)
            else:
                conn.close()


class _StaleConnection(Exception):
    pass
