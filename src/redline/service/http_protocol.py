"""The HTTP/1.1 connection: uvicorn's httptools protocol with the limits it lacks.

uvicorn (0.3x-0.5x) parses request headers of any size and waits for them forever: a
64 MB `Authorization` header is read into memory before any route (or auth) runs, and a
client that never finishes its headers holds a connection open indefinitely. This
subclass adds, per connection:

- a bound on the request line and headers (`max_header_bytes`): past it, the answer is
  431 and the connection closes, before the parser has buffered more;
- a deadline to finish them (`header_timeout_s`), from the connection's start and from
  the end of each response on a kept-alive connection: past it, the connection closes;
- a bound on open connections per process (`max_connections`): one over it is closed at
  once, so idle sockets cannot starve the server of file descriptors.

It also sends a response's head and body in one write (`_OneWrite`): uvicorn writes the
status line and headers, then the body, as two sends, so a short answer costs two
segments on the wire and two wake-ups of the client.

Written here because neither uvicorn nor httptools has these settings (uvicorn's h11
protocol caps only an incomplete event, answering 400, and has no header deadline).
"""

from __future__ import annotations

import asyncio
import json
import logging

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

log = logging.getLogger("redline.service")

MAX_HEADER_BYTES = 32 * 1024
HEADER_TIMEOUT_S = 10.0
MAX_CONNECTIONS = 1000


class GuardedHttpProtocol(HttpToolsProtocol):
    max_header_bytes = MAX_HEADER_BYTES
    header_timeout_s = HEADER_TIMEOUT_S
    max_connections = MAX_CONNECTIONS

    _in_headers = True
    _header_bytes = 0
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            log.warning("over %d open connections: closing a new one", self.max_connections)
            transport.close()
            return
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self._in_headers:
            super().data_received(data)
            return
        room = self.max_header_bytes - self._header_bytes
        head, rest = data[:room], data[room:]
        self._header_bytes += len(head)
        super().data_received(head)
        if rest and not self.transport.is_closing():
            if self._in_headers:  # the limit is reached and the headers are not complete
                self._send_431()
                return
            super().data_received(rest)

    # parser callbacks ------------------------------------------------------------------
    def on_headers_complete(self) -> None:
        self._in_headers = False
        self._header_bytes = 0
        self._cancel_header_timer()
        previous = self.cycle
        super().on_headers_complete()
        if self.cycle is not None and self.cycle is not previous:  # this request's own cycle
            self.cycle.transport = _OneWrite(self.transport, self.loop)  # type: ignore[assignment]

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_headers = True  # what follows is the next request's line and headers

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_headers()

    # limits ----------------------------------------------------------------------------
    def _await_headers(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._headers_too_slow)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self._in_headers and not self.transport.is_closing():
            self.transport.close()

    def _send_431(self) -> None:
        body = json.dumps(
            {
                "error": "headers_too_large",
                "detail": f"the request line and headers are over the limit of {self.max_header_bytes} bytes",
            }
        ).encode()
        head = (
            b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
            b"content-type: application/json\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n"
            b"connection: close\r\n\r\n"
        )
        self.transport.write(head + body)
        self.transport.close()


class _OneWrite:
    """A response's transport that holds the head back until the next write (its body) and
    sends both at once. Whatever is held goes out by the end of the loop's turn, and before
    any later write or a close, so nothing waits and nothing changes order (a `100
    Continue` too goes out as soon as the request's task waits for its body)."""

    __slots__ = ("_transport", "_loop", "_held")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: bytes | None = None

    def write(self, data: bytes) -> None:
        if self._held is not None:
            data, self._held = self._held + data, None
            self._transport.write(data)
        elif data.startswith(b"HTTP/"):  # the status line and headers
            self._held = data
            self._loop.call_soon(self.flush)
        else:
            self._transport.write(data)

    def flush(self) -> None:
        if self._held is not None:
            data, self._held = self._held, None
            if not self._transport.is_closing():
                self._transport.write(data)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def __getattr__(self, name: str) -> object:  # is_closing, get_extra_info, …
        return getattr(self._transport, name)


def configure(max_header_bytes: int, header_timeout_s: float, max_connections: int) -> None:
    """Set the limits for this process (each worker calls it while building its app)."""
    GuardedHttpProtocol.max_header_bytes = max_header_bytes
    GuardedHttpProtocol.header_timeout_s = header_timeout_s
    GuardedHttpProtocol.max_connections = max_connections
