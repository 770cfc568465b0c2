"""`GET|POST /workspace/login`, `POST /workspace/logout`, and the workspace's static files."""

from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter, Depends, Form, Path, Request
from starlette.responses import RedirectResponse, Response

from redline.service.settings import Role
from redline.service.state import service
from redline.service.workspace import sessions
from redline.service.workspace.render import SECURITY_HEADERS, page
from redline.service.workspace.sessions import Refused, User, current_user

router = APIRouter(include_in_schema=False)
_STATIC = {
    "workspace.css": "text/css; charset=utf-8",
    "workspace.js": "text/javascript; charset=utf-8",
}


def _signed_in(request: Request) -> User | None:
    try:
        return current_user(request)
    except sessions.SignInRequired:
        return None


def _form(request: Request, *, status: int = 200, error: str | None = None, signed_out: bool = False) -> Response:
    value = sessions.new_signin_token()
    response = page("login.html", status, user=None, csrf=value, error=error, signed_out=signed_out)
    sessions.set_cookie(request, response, sessions.SIGNIN_COOKIE, value, sessions.SIGNIN_S)
    return response


@router.get("/workspace/login")
def login_form(request: Request, signed_out: bool = False) -> Response:
    if _signed_in(request) is not None:
        return RedirectResponse("/workspace/", status_code=303)
    return _form(request, signed_out=signed_out)


@router.post("/workspace/login")
def login(request: Request, token: str = Form(""), csrf_token: str = Form("")) -> Response:
    expected = request.cookies.get(sessions.SIGNIN_COOKIE, "")
    try:
        sessions.check_csrf(request, expected, csrf_token)
    except Refused as exc:
        return _form(request, status=exc.status, error=exc.title + ". " + exc.detail)
    svc = service(request)
    principal = svc.tokens.identify(token.strip()) if token.strip() else None
    if principal is None:
        return _form(request, status=401, error="That is not a valid token. Paste an expert or operator token.")
    if principal.role is Role.CLIENT:
        return _form(
            request,
            status=403,
            error="A client token cannot sign in to the workspace: it may only check texts. "
            "Sign in with an expert token (to review) or an operator token (to read).",
        )
    ws = sessions.workspace_store(request)
    old = request.cookies.get(sessions.COOKIE)
    if old:  # a new session on every sign-in: no fixation of an old cookie
        ws.close_session(old)
    cookie = ws.open_session(principal.label, principal.role.value, lifetime_s=svc.settings.session_s)
    response = RedirectResponse("/workspace/", status_code=303, headers=SECURITY_HEADERS)
    sessions.set_cookie(request, response, sessions.COOKIE, cookie, svc.settings.session_s)
    sessions.clear_cookie(request, response, sessions.SIGNIN_COOKIE)
    return response


@router.post("/workspace/logout")
def logout(request: Request, csrf_token: str = Form(""), user: User = Depends(current_user)) -> Response:
    sessions.check_csrf(request, user.csrf, csrf_token)
    cookie = request.cookies.get(sessions.COOKIE, "")
    sessions.workspace_store(request).close_session(cookie)
    response = RedirectResponse("/workspace/login?signed_out=true", status_code=303, headers=SECURITY_HEADERS)
    sessions.clear_cookie(request, response, sessions.COOKIE)
    return response


@router.get("/workspace/static/{name}")
def static(name: str = Path(max_length=40)) -> Response:
    kind = _STATIC.get(name)
    if kind is None:
        return Response("not found", status_code=404, media_type="text/plain")
    body = (files("redline.service.workspace") / "static" / name).read_bytes()
    headers = {**SECURITY_HEADERS, "Cache-Control": "public, max-age=300"}
    return Response(body, media_type=kind, headers=headers)
