"""Who may call what: FastAPI dependencies over the token registry (`tokens.py`).

Deny by default: every route names the roles it admits (`require`); a request without a
token gets 401 with `WWW-Authenticate: Bearer`, a valid token of another role gets 403.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from redline.service.errors import ApiError
from redline.service.settings import Role
from redline.service.tokens import Principal

bearer = HTTPBearer(
    auto_error=False,
    description="A role token: client, expert or operator (see docs/service.md).",
)


def _unauthorized(detail: str, error: str | None = None) -> ApiError:
    challenge = 'Bearer realm="redline"' + (f', error="{error}"' if error else "")
    return ApiError(401, "unauthorized", detail, headers={"WWW-Authenticate": challenge})


def require(*roles: Role) -> Callable[..., Awaitable[Principal]]:
    """A dependency that admits only `roles` and returns who is calling."""
    allowed = frozenset(roles)
    names = ", ".join(sorted(r.value for r in allowed))

    async def dependency(
        request: Request,
        credentials: HTTPAuthorizationCredentials | None = Security(bearer),
    ) -> Principal:
        if credentials is None:
            raise _unauthorized("a bearer token is required: Authorization: Bearer TOKEN")
        principal: Principal | None = request.app.state.service.tokens.identify(credentials.credentials)
        if principal is None:
            raise _unauthorized("the bearer token is not valid", "invalid_token")
        if principal.role not in allowed:
            raise ApiError(403, "forbidden", f"the {principal.role.value} role may not do this; it needs: {names}")
        return principal

    dependency.__name__ = f"require_{'_'.join(sorted(r.value for r in allowed))}"
    return dependency
