"""`POST /v1/check/stream`: a text sent in chunks, answered with server-sent events as its
sentences are released or held (`Gate.stream`, decide/stream.py).

The body is read as it arrives (chunked transfer encoding, or any body):
- `Content-Type: text/plain`: the text itself; `policy` and `confidence` in the query;
- `Content-Type: application/x-ndjson`: a first line `{"policy", "confidence"?, "context"?}`,
  then one line `{"text": "…"}` per chunk (a line that is not one holds the stream and
  the text is decided as an error, like a check of something that is not text).

Events: `release` `{"start", "end", "text"}` for each piece that may be shown; at most one
`hold` `{"start", "outcome"}` (nothing from `start` on comes before the decision); last,
`decision` `{"decision": <the /v1/check view for the token's role>, "released", "held"}`
(the decision `POST /v1/check` would give the whole text, review flags included),
sent only once the decision is recorded (log line, audit row, queue item when held),
or `error` `{"error", "detail", "id"?}` when it could not be. A client that goes away, a
body over the size limit (`error` `too_large` after the decision) or a pause of more
than `STREAM_IDLE_S` between chunks ends the text there: what arrived is decided and
recorded, so everything released has its audit row.

A NUL or a lone surrogate in the text is read as U+FFFD (no database can store them),
as is a byte that is not UTF-8.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from redline.decide.gate import Gate
from redline.decide.stream import StreamEvent, TextStream
from redline.types import Decision
from redline.service.auth import require
from redline.service.errors import ApiError, responses
from redline.service.models import POLICY_NAME, ContextIn
from redline.service.routes import INLINE_CHARS, decision_json
from redline.service.settings import Role
from redline.service.state import Service, service
from redline.service.tokens import Principal

router = APIRouter()
STREAM_PATH = "/v1/check/stream"
STREAM_IDLE_S = 30.0  # longest pause between two chunks before the text is taken as ended
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
_NDJSON = ("application/x-ndjson", "application/jsonl", "application/json-seq")


class StreamHeader(BaseModel):
    """The first line of an NDJSON stream."""

    model_config = ConfigDict(extra="forbid")
    policy: str = Field(pattern=POLICY_NAME, description="The name of a loaded policy.")
    confidence: float | None = Field(default=None, ge=0, le=100, allow_inf_nan=False)
    context: ContextIn | None = None


def _invalid(loc: list[str], msg: str) -> JSONResponse:
    return JSONResponse({"detail": [{"loc": loc, "msg": msg, "type": "value_error"}]}, status_code=422)


@router.post(
    STREAM_PATH,
    summary="Check a text as it is streamed: server-sent events per sentence",
    description=__doc__,
    response_class=Response,
    responses={
        200: {"content": {"text/event-stream": {"schema": {"type": "string"}}}, "description": "The events."},
        **responses(401, 403, 404, 413),
    },
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "text/plain": {"schema": {"type": "string"}},
                "application/x-ndjson": {"schema": {"type": "string"}},
            },
        }
    },
    tags=["check"],
)
async def check_stream(
    request: Request,
    policy: str | None = Query(None, pattern=POLICY_NAME, description="The policy (text/plain bodies)."),
    confidence: float | None = Query(None, ge=0, le=100, allow_inf_nan=False),
    principal: Principal = Depends(require(Role.CLIENT, Role.EXPERT, Role.OPERATOR)),
) -> Response:
    svc = service(request)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    body = request.stream()
    context: dict[str, Any] | None = None
    first: list[bytes] = []
    if kind in _NDJSON:
        try:
            head, rest = await _first_line(body, svc.settings.max_body_bytes)
        except ClientDisconnect:
            return Response(status_code=204)
        try:
            header = StreamHeader.model_validate_json(head)
        except ValidationError as exc:
            errors = [{"loc": ["body", 0, *e["loc"]], "msg": e["msg"], "type": e["type"]} for e in exc.errors(include_input=False)]
            return JSONResponse({"detail": errors}, status_code=422)
        policy, confidence = header.policy, header.confidence
        context = header.context.model_dump() if header.context is not None else None
        first = [rest] if rest else []
    elif kind != "text/plain":
        return _invalid(["header", "content-type"], "send the text as text/plain, or as application/x-ndjson lines")
    if policy is None:
        return _invalid(["query", "policy"], "name the policy: ?policy=NAME")
    gate = svc.policies.get(policy)
    if gate is None:
        known = svc.policies.names()
        raise ApiError(
            404, "unknown_policy",
            f"no policy named {policy!r}; the loaded policies are: {', '.join(known) or 'none'}",
            known_policies=known,
        )  # fmt: skip
    # Sentences are released on checks without the conversation (it could only relax them,
    # and a sentence with any finding is not released early anyway); the decision on the
    # whole text goes through the review flags, exactly as POST /v1/check would decide it.
    svc_flags = svc.flags

    def decide(text: str) -> Decision:
        return svc_flags.check(gate, text, context, confidence).answer

    stream = gate.stream(confidence=confidence, decide=decide)
    return _EventStream(svc, gate, stream, principal.role, body, first, ndjson=kind in _NDJSON)


async def _first_line(body: AsyncIterator[bytes], limit: int) -> tuple[bytes, bytes]:
    seen = b""
    async for chunk in body:
        seen += chunk
        if b"\n" in seen:
            head, rest = seen.split(b"\n", 1)
            return head, rest
        if len(seen) > limit:
            break
    return seen, b""


class _EventStream(Response):
    """The answer, written as the body is read: the ASGI call reads and sends itself."""

    media_type = "text/event-stream"

    def __init__(
        self, svc: Service, gate: Gate, stream: TextStream, role: Role, body: AsyncIterator[bytes],
        first: list[bytes], *, ndjson: bool,
    ) -> None:  # fmt: skip
        super().__init__(media_type=self.media_type, headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        # no Content-Length (Response sets one for its empty body): the events are chunked
        self.raw_headers = [(k, v) for k, v in self.raw_headers if k != b"content-length"]
        self.svc, self.gate, self.stream, self.role = svc, gate, stream, role
        self.body_iter, self.first, self.ndjson = body, first, ndjson
        self._pending = b""  # an NDJSON line not yet complete

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        alive, too_large = True, False
        try:
            alive, too_large = await self._read(send)
        finally:  # whatever ended the text, what arrived is decided and recorded
            if self.ndjson and self._pending.strip():
                self._line(self._pending)
            await self._close(send, self.stream.finish(), too_large, alive)

    async def _read(self, send: Send) -> tuple[bool, bool]:
        """Feed the body to the stream, sending its events; (client still there, over the limit)."""
        limit = self.svc.settings.max_body_bytes
        size = 0
        for chunk in self.first:
            size += len(chunk)
            if not await self._events(send, await self._feed(chunk)):
                return False, False
        while True:
            try:
                chunk = await asyncio.wait_for(anext(self.body_iter), STREAM_IDLE_S)
            except (StopAsyncIteration, ClientDisconnect, asyncio.TimeoutError):
                return True, False
            size += len(chunk)
            if size > limit:
                return True, True
            if not await self._events(send, await self._feed(chunk)):
                return False, False

    async def _close(self, send: Send, finals: list[StreamEvent], too_large: bool, alive: bool) -> None:
        decision = self.stream.decision
        if decision is None:
            return
        try:
            decision = await self.svc.arecord(decision, self.stream.text)
        except ApiError as exc:
            alive = alive and await self._send(send, "error", exc.body.model_dump(exclude_none=True))
        else:
            self.svc.metrics.count_check(decision.outcome.value, decision.policy_name)
            for event in finals:
                if event.kind == "release":
                    alive = alive and await self._send(send, "release", event.to_dict())
                else:
                    view = json.loads(decision_json(decision, self.role))
                    data = {"decision": view, "released": self.stream.released, "held": event.held}
                    alive = alive and await self._send(send, "decision", data)
        if too_large and alive:
            detail = f"the streamed text is over the limit of {self.svc.settings.max_body_bytes} bytes; it was decided up to there"
            alive = await self._send(send, "error", {"error": "too_large", "detail": detail})
        if alive:
            try:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            except OSError:
                pass

    async def _feed(self, chunk: bytes) -> list[StreamEvent]:
        if not self.ndjson:
            return await self._run(chunk)
        self._pending += chunk
        *lines, self._pending = self._pending.split(b"\n")
        events: list[StreamEvent] = []
        for line in lines:
            if line.strip():
                events += self._line(line)
        return events

    def _line(self, line: bytes) -> list[StreamEvent]:
        try:
            item = json.loads(line)
            text = item["text"] if isinstance(item, dict) and set(item) == {"text"} else None
        except ValueError:
            text = None
        if not isinstance(text, str):  # held, and decided as a check of something not text
            return self.stream.feed(None)  # type: ignore[arg-type]
        return self.stream.feed(_UNSTORABLE.sub("\ufffd", text))

    async def _run(self, chunk: bytes) -> list[StreamEvent]:
        if b"\x00" in chunk:
            chunk = chunk.replace(b"\x00", "\ufffd".encode())
        if len(self.stream.text) > INLINE_CHARS:  # checks of a long text: off the event loop
            return await run_in_threadpool(self.stream.feed, chunk)
        return self.stream.feed(chunk)

    async def _events(self, send: Send, events: list[StreamEvent]) -> bool:
        for event in events:
            if not await self._send(send, event.kind, event.to_dict()):
                return False
        return True

    @staticmethod
    async def _send(send: Send, kind: str, data: dict[str, Any]) -> bool:
        payload = f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
        try:
            await send({"type": "http.response.body", "body": payload, "more_body": True})
        except OSError:  # the client went away: stop sending, still decide and record
            return False
        return True
