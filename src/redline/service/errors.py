"""Every error the HTTP service returns has one JSON shape, `ErrorBody`, except 422.

422 keeps FastAPI's `{"detail": [{"loc", "msg", "type"}]}`, whose `loc` names the field.
An unexpected exception becomes 503 `{"error": "internal", "id"}`, logged under that id:
the gate never raises, so anything else is the service's fault and worth a retry.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("redline.service")


class ErrorBody(BaseModel):
    error: str = Field(description="a stable code: unauthorized, forbidden, not_found, conflict, ...")
    detail: str = Field(description="what went wrong and what to do, in words")
    id: str | None = Field(default=None, description="the decision or incident id, where there is one")
    known_policies: list[str] | None = Field(default=None, description="for an unknown policy: the loaded ones")
    findings: list[dict[str, Any]] | None = Field(
        default=None, description="for a refused edit: what the gate found in it (detector matches by type)"
    )


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        error: str,
        detail: str,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.body = ErrorBody(error=error, detail=detail, **extra)
        self.headers = headers


_DESCRIPTIONS = {
    401: "No bearer token, or not a valid one (see the WWW-Authenticate header).",
    403: "A valid token whose role may not use this route.",
    404: "No such decision, queue item or policy.",
    409: "The queue item was already decided or is leased to another Expert in the workspace, or the edit was refused by the gate (see `findings`).",
    413: "The request body is larger than the service's limit.",
    503: "The audit store is unavailable (retry), or an internal error (see `id` in the log).",
}


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses=` entries for these error codes."""
    return {code: {"model": ErrorBody, "description": _DESCRIPTIONS[code]} for code in codes}


def _json(status: int, body: ErrorBody, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(body.model_dump(exclude_none=True), status_code=status, headers=headers)


def error_response(exc: ApiError) -> JSONResponse:
    return _json(exc.status, exc.body, exc.headers)


async def _api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    # Starlette's own errors (unknown path 404, wrong method 405) in our shape.
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400 and request.method in ("POST", "PUT", "PATCH"):
        # FastAPI answers a body it cannot decode at all (not UTF-8) with a bare 400:
        # malformed input is a 422 naming the body, like any other
        problem = {"loc": ["body"], "msg": "the body is not valid JSON in UTF-8", "type": "json_invalid"}
        return JSONResponse({"detail": [problem]}, status_code=422)
    codes = {404: "not_found", 405: "method_not_allowed", 400: "bad_request", 413: "too_large"}
    error = codes.get(exc.status_code, "http_error")
    headers = dict(exc.headers) if exc.headers else None
    return _json(exc.status_code, ErrorBody(error=error, detail=str(exc.detail)), headers)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = []
    json_sent = "json" in request.headers.get("content-type", "json")
    for e in exc.errors():
        # drop `input` (it may be the whole body) and `ctx` (may hold an exception object)
        loc, msg = list(e.get("loc", ())), str(e.get("msg", ""))
        if loc == ["body"] and not json_sent:
            msg += "; send the body as JSON with Content-Type: application/json"
        errors.append({"loc": loc, "msg": msg, "type": str(e.get("type", ""))})
    return JSONResponse({"detail": errors}, status_code=422)


class Guard:
    """Outermost middleware: an unexpected exception becomes 503 `{"error": "internal", "id"}`.

    Done here rather than with an `Exception` handler, whose Starlette middleware answers
    500-class and then re-raises, so every incident would be logged twice.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            incident = uuid.uuid4().hex
            log.error("internal error %s on %s %s", incident, scope.get("method"), scope.get("path"), exc_info=exc)
            if started:  # too late for a status; the server closes the connection
                return
            body = ErrorBody(error="internal", detail="an internal error; it is logged under this id", id=incident)
            await _json(503, body, {"Retry-After": "1"})(scope, receive, send)


def install(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
