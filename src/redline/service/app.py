"""`create_app(settings)`: the FastAPI app, with everything it serves built and checked first.

Validate, then construct: tokens, policies and the database are checked here, so a
misconfigured service fails at start with a message that names the fix, not on its
first request. The policy watcher and the SIGHUP handler live for the app's lifespan.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator

from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

from redline import __version__
from redline.domains.registry import DomainRegistry
from redline.errors import DomainError
from redline.service import (
    errors,
    heap,
    http_protocol,
    routes,
    routes_canary,
    routes_decide,
    routes_review,
    routes_stream,
    workspace,
)
from redline.service.check_shortcut import CheckShortcut
from redline.service.limits import BodyLimit
from redline.review.flags import settings_path
from redline.service.routes_stream import STREAM_PATH
from redline.service.policies import PolicyRegistry
from redline.service.review_state import ReviewState, license_hook_from_env
from redline.service.routes import CHECK_PATH
from redline.service.settings import SETTINGS_ENV, ServiceConfigError, Settings
from redline.service.state import Service
from redline.service.tokens import HOW_TO_SET, TokenRegistry
from redline.store.decision_log import DecisionLog
from redline.store.sql import AuditStore

log = logging.getLogger("redline.service")
DOMAINS_SUBDIR = "domains"

DESCRIPTION = """\
redline checks drafts and messages against a policy, decides proposed actions (refunds,
ticket routes, deploys, moderation calls) against their domains, and records every decision.

Authenticate with `Authorization: Bearer TOKEN`; a token has one role: `client`
(checks; sees outcome and a generic reason), `expert` (everything, acts on the review
queue) or `operator` (checks, policies, audit reading, metrics). Errors have the shape
`{"error", "detail"}`, except 422, which lists the fields at fault under `detail`.
"""


class RedlineApp(FastAPI):
    """The FastAPI app, with a well-formed `POST /v1/check` answered before any of its
    layers by `check_shortcut` (None: every request takes the full path)."""

    check_shortcut: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        shortcut = self.check_shortcut
        if shortcut is not None and scope["type"] == "http" and scope["path"] == CHECK_PATH and scope["method"] == "POST":
            await shortcut(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    async def full(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The request through every layer and the routes: what the shortcut hands on."""
        await super().__call__(scope, receive, send)


def build_service(settings: Settings) -> Service:
    if not settings.tokens:
        raise ServiceConfigError(f"no bearer tokens are configured, so nobody could call the service: {HOW_TO_SET}")
    hook_name, hook = license_hook_from_env()
    policies = PolicyRegistry(settings.policies_dir, license=hook)
    policies.load(strict=settings.strict_start)
    store = AuditStore(settings.db_url)
    try:
        store.migrate()
    except Exception:
        store.close()
        raise
    try:  # threshold-only YAML domains live beside the policies, in domains/
        domains = DomainRegistry.load(yaml_dir=settings.policies_dir / DOMAINS_SUBDIR)
    except DomainError as exc:
        store.close()
        raise ServiceConfigError(str(exc)) from exc
    decisions = DecisionLog(settings.log_path, max_bytes=settings.log_max_bytes, backups=settings.log_backups)
    review = ReviewState(
        settings_path(settings.review_settings), decisions, reload_interval_s=settings.reload_interval_s,
        test_hook=hook_name, canary_every_s=settings.canary_every_s,
    )  # fmt: skip
    return Service(settings, TokenRegistry(settings.tokens), policies, decisions, store, domains=domains, review=review)


def create_app(settings: Settings) -> RedlineApp:
    """The app for `settings`; raises ServiceConfigError, PolicyError or StoreError if it cannot serve."""
    svc = build_service(settings)
    http_protocol.configure(settings.max_header_bytes, settings.header_timeout_s, settings.max_connections)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        svc.policies.start(settings.reload_interval_s)
        svc.flags.start(svc.policies)
        heap.freeze()  # built: out of the collector's way (heap.py)
        svc.policies.on_reload = heap.freeze_new

        def on_hup() -> None:
            svc.policies.request_reload()
            svc.flags.source.reload()

        loop = asyncio.get_running_loop()
        hup = False
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGHUP, on_hup)
            hup = True
        log.info(
            "redline %s serving %d policies from %s (pid %d)",
            __version__,
            len(svc.policies.names()),
            settings.policies_dir,
            os.getpid(),
        )
        try:
            yield
        finally:
            if hup:
                loop.remove_signal_handler(signal.SIGHUP)
            svc.policies.on_reload = None
            svc.close()
            heap.thaw()

    app = RedlineApp(
        title="redline",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url="/docs",
        redoc_url=None,
    )
    app.state.service = svc
    errors.install(app)
    app.include_router(routes.router)
    app.include_router(routes_stream.router)
    app.include_router(routes_review.router)
    app.include_router(routes_decide.router)
    app.include_router(routes_canary.router)
    workspace.install(app, svc)
    app.check_shortcut = errors.Guard(CheckShortcut(app.full, svc=svc, max_body_bytes=settings.max_body_bytes))
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes, streamed=(STREAM_PATH,))
    app.add_middleware(errors.Guard)  # added last: the outermost of ours
    return app


def app_from_env() -> RedlineApp:
    """The factory `uvicorn --workers N` calls in each worker: settings come as JSON in the env."""
    raw = os.environ.get(SETTINGS_ENV)
    if not raw:
        raise ServiceConfigError(f"{SETTINGS_ENV} is not set; start the service with `redline serve`")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s:     %(name)s: %(message)s")
    return create_app(Settings.model_validate_json(raw))
