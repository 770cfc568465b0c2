"""`POST /v1/check` without FastAPI's per-request machinery, for the requests that succeed.

FastAPI's route for a check spends more time solving its dependencies and turning the
body into a model (json.loads, then validation) than the gate spends checking the text.
The shortcut answers a check itself when nothing about it can go wrong before the gate:
a JSON content type, a declared length within the body limit, a bearer token of a role
that may check, and a body that `CheckRequest.model_validate_json` accepts (pydantic
parses and validates in one pass). Every other request (no token, a body at fault or too
large or sent in chunks, another content type) is handed, body and all, to `app`: the
whole FastAPI app, whose route gives exactly its own 401, 403, 413 and 422; the route also
keeps the OpenAPI schema. Both answer with `routes.run_check`.

The app (`app.RedlineApp`) calls the shortcut before any of its layers (FastAPI's error,
telemetry and body-limit middlewares, and ours, each a coroutine and a `send` wrapper per
request: about a tenth of a check's time), wrapped in `errors.Guard` alone, so that an
unexpected error still becomes the same 503.
"""

from __future__ import annotations

from fastapi.security.utils import get_authorization_scheme_param
from pydantic import ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send

from redline.service.errors import ApiError, error_response
from redline.service.limits import replay
from redline.service.models import CheckRequest
from redline.service.routes import CHECK_PATH, CHECK_ROLES, run_check
from redline.service.settings import Role
from redline.service.state import Service


class CheckShortcut:
    def __init__(self, app: ASGIApp, svc: Service, max_body_bytes: int) -> None:
        self.app = app
        self.svc = svc
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != CHECK_PATH or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        role = self._role(scope)
        if role is None:
            await self.app(scope, receive, send)
            return
        body, complete = await _read_body(receive)
        request: CheckRequest | None = None
        if complete and len(body) <= self.max_body_bytes:
            try:
                request = CheckRequest.model_validate_json(body)
            except ValidationError:
                request = None  # the route says what is wrong, in its own words
        if request is None:
            await self.app(scope, replay(body, receive), send)
            return
        try:
            answer = await run_check(self.svc, request, role)
        except ApiError as exc:  # an unknown policy, a row not recorded: as the route's handler answers
            await error_response(exc)(scope, receive, send)
            return
        # the head the route's Response(answer, media_type="application/json") sends
        headers = [(b"content-length", str(len(answer)).encode()), (b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": answer})

    def _role(self, scope: Scope) -> Role | None:
        """The role of a request the shortcut may answer, else None."""
        content_type = authorization = length = None
        for name, value in scope["headers"]:  # the first of each, as Starlette's Headers.get
            if name == b"content-type" and content_type is None:
                content_type = value
            elif name == b"authorization" and authorization is None:
                authorization = value
            elif name == b"content-length" and length is None:
                length = value
        if content_type is None or authorization is None or length is None:
            return None
        if not length.isdigit() or int(length) > self.max_body_bytes:  # the body limit's 413
            return None
        if content_type.split(b";", 1)[0].strip().lower() != b"application/json":
            return None
        scheme, token = get_authorization_scheme_param(authorization.decode("latin-1"))
        if scheme.lower() != "bearer" or not token:
            return None
        principal = self.svc.tokens.identify(token)
        if principal is None or principal.role not in CHECK_ROLES:
            return None
        return principal.role


async def _read_body(receive: Receive) -> tuple[bytes, bool]:
    """The whole body, and whether it came whole (False: the client left)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), True
