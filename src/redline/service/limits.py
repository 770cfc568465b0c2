"""The request-body limit, enforced before any route reads a byte.

Both a declared Content-Length over the limit and a body that streams past it (chunked,
or a Content-Length that lies) get 413. A streamed route (`POST /v1/check/stream`) gets
its body as it arrives, and enforces the same limit on the bytes it reads. The body is read here, counted, and replayed to
the app; once over the limit, the rest is drained (up to `drain`) so the client gets to
read the 413 instead of a reset connection, then the connection is closed.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int, streamed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.streamed = frozenset(streamed)  # routes that read their body as it arrives
        self.drain = max(4 * max_bytes, 4 * 1024 * 1024)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in _BODY_METHODS:
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            if declared <= self.drain:
                await self._discard(receive, 0)
            await self._too_large(send)
            return
        if scope["path"] in self.streamed:  # it counts the bytes itself, as they come
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left; nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            more = message.get("more_body", False)
            if size > self.max_bytes:
                if more:
                    await self._discard(receive, size)
                await self._too_large(send)
                return
            chunks.append(chunk)
        await self.app(scope, replay(b"".join(chunks), receive), send)

    async def _discard(self, receive: Receive, seen: int) -> None:
        while seen <= self.drain:
            message = await receive()
            if message["type"] != "http.request":
                return
            seen += len(message.get("body", b""))
            if not message.get("more_body", False):
                return

    async def _too_large(self, send: Send) -> None:
        body = json.dumps(
            {
                "error": "too_large",
                "detail": f"the request body is over the limit of {self.max_bytes} bytes",
            }
        ).encode()
        headers: list[tuple[bytes, bytes]] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the app `body`, read already, in one message, then whatever
    `receive` says next (a disconnect)."""
    replayed = False

    async def replayed_receive() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed_receive


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


__all__ = ["BodyLimit", "replay"]
