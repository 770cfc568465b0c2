"""Signing in to the workspace: a token once, then a session cookie; CSRF on every form.

- `POST /workspace/login` takes an expert or operator token in the form (never the URL),
  and answers with a random session cookie: HttpOnly, SameSite=Strict, Path=/workspace,
  Secure when the request came over TLS, Max-Age the session's lifetime. The database
  keeps only the cookie's sha256 (`store/workspace.py`).
- Every form carries `csrf_token`: an HMAC of the session cookie, so a page of another
  site can neither read nor compute it. The sign-in form, which has no session yet, gets
  a random value that must match a short-lived cookie of its own (double submit). A post
  whose `Origin` is another site is refused as well.
- A session ends at logout, at its expiry, or when its token is no longer configured.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime

from fastapi import Request
from starlette.responses import Response

from redline.service.settings import Role
from redline.service.state import Service, service
from redline.service.tokens import Principal
from redline.store.workspace import WorkspaceStore

COOKIE = "redline_session"
SIGNIN_COOKIE = "redline_signin"
PATH = "/workspace"
SIGNIN_S = 600  # how long a sign-in form stays usable
_CSRF_KEY = b"redline workspace csrf v1"


class SignInRequired(Exception):
    """No live session: a page redirects to the sign-in form, a post gets 401."""


class Refused(Exception):
    """A request the workspace answers with an error page (status and words for a person)."""

    def __init__(self, status: int, title: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.title, self.detail = status, title, detail


@dataclass(frozen=True, slots=True)
class User:
    principal: Principal
    csrf: str
    expires_at: datetime

    @property
    def label(self) -> str:
        return self.principal.label

    @property
    def can_act(self) -> bool:
        """Experts act on the queue; operators read."""
        return self.principal.role is Role.EXPERT


def workspace_store(request: Request) -> WorkspaceStore:
    ws: WorkspaceStore = request.app.state.workspace
    return ws


def csrf_for(cookie: str) -> str:
    return hmac.new(cookie.encode("utf-8", errors="surrogatepass"), _CSRF_KEY, hashlib.sha256).hexdigest()


def current_user(request: Request) -> User:
    """The signed-in user of this request; raises SignInRequired."""
    cookie = request.cookies.get(COOKIE, "")
    svc: Service = service(request)
    row = workspace_store(request).session(cookie) if cookie else None
    if row is None:
        raise SignInRequired()
    if not svc.tokens.knows(row.principal) or row.role not in (Role.EXPERT.value, Role.OPERATOR.value):
        workspace_store(request).close_session(cookie)  # the token was removed from the configuration
        raise SignInRequired()
    return User(Principal(Role(row.role), row.principal), csrf_for(cookie), row.expires_at)


def same_origin(request: Request) -> bool:
    """False when the browser says the form came from another origin, or an opaque one
    (`null`); a request without the header (an older browser, a script) is allowed."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    own = f"{request.url.scheme}://{request.headers.get('host', '')}"
    return hmac.compare_digest(origin.encode("utf-8", errors="replace"), own.encode("utf-8", errors="replace"))


def check_csrf(request: Request, expected: str, given: str) -> None:
    """Refuse (403) a form post without the right `csrf_token`, or from another origin."""
    if not same_origin(request):
        raise Refused(403, "Refused: another site sent this form", "The form was posted from another origin.")
    if not expected or not given or not hmac.compare_digest(expected.encode(), given.encode("utf-8", errors="replace")):
        raise Refused(
            403,
            "Refused: the form's CSRF token is missing or wrong",
            "Every form of the workspace carries a csrf_token; this post had none, or not this session's. "
            "Reload the page and try again.",
        )


def new_signin_token() -> str:
    return secrets.token_urlsafe(24)


def set_cookie(request: Request, response: Response, name: str, value: str, max_age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=PATH,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def clear_cookie(request: Request, response: Response, name: str) -> None:
    response.delete_cookie(name, path=PATH, httponly=True, samesite="strict", secure=request.url.scheme == "https")
