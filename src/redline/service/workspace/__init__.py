"""The Expert workspace: server-rendered pages under `/workspace/` (see docs/workspace.md).

    install(app)   # in create_app: the routes, the sessions and leases store, error pages

Pages are Jinja2 templates (package data in `templates/`), a stylesheet and one small
script for the keyboard (`static/`); no build step. Every page needs a session
(`sessions.py`); every form post needs its CSRF token.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from starlette.responses import RedirectResponse, Response

from redline.service.state import Service
from redline.service.workspace import routes_audit, routes_queue, routes_signin
from redline.service.workspace.render import SECURITY_HEADERS, page
from redline.service.workspace.sessions import Refused, SignInRequired, User, current_user
from redline.store.workspace import WorkspaceStore

__all__ = ["install"]


async def _sign_in(request: Request, exc: Exception) -> Response:
    if request.method in ("GET", "HEAD"):
        return RedirectResponse("/workspace/login", status_code=303, headers=SECURITY_HEADERS)
    return page("error.html", 401, user=None, title="Signed out", detail="Your session has ended; sign in again.")


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    user: User | None
    try:
        user = current_user(request)
    except SignInRequired:
        user = None
    return page("error.html", exc.status, user=user, title=exc.title, detail=exc.detail)


def install(app: FastAPI, svc: Service) -> None:
    app.state.workspace = WorkspaceStore(svc.store)
    app.add_exception_handler(SignInRequired, _sign_in)
    app.add_exception_handler(Refused, _refused)

    @app.get("/workspace", include_in_schema=False)
    async def workspace_root() -> Response:
        return RedirectResponse("/workspace/", status_code=308)

    app.include_router(routes_signin.router)
    app.include_router(routes_queue.router)
    app.include_router(routes_audit.router)
