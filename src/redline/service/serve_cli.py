"""`redline serve`: check the configuration, then run the service under uvicorn.

Registered in `redline.cli` with `app.command()(serve)`; `python -m redline.service`
runs the same function on its own.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import shlex
from importlib.resources import files
from pathlib import Path
from typing import Optional

import typer

from redline.errors import RedlineError
from redline.service.settings import MIB, SETTINGS_ENV, Role, ServiceConfigError, Settings, TokenHash
from redline.service.tokens import digest, tokens_from

DEMO_DB = "sqlite:///redline-demo.db"
DEMO_LOG = Path("redline.decisions.jsonl")


def demo_policies() -> Path:
    """The bundled example policy's folder (package data, so it works from a wheel)."""
    return Path(str(files("redline.service") / "demo"))


def _demo_tokens() -> dict[Role, str]:
    return {role: secrets.token_urlsafe(32) for role in Role}


def _print_demo(tokens: dict[Role, str], host: str, port: int) -> None:
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}"
    lines = ["", "redline demo: tokens for this run (they change on every start)"]
    lines += [f"  {role.value:<9} {token}" for role, token in tokens.items()]
    body = '{"policy": "example-support", "text": "Good news: I have approved a full refund."}'
    lines += [
        "",
        "try:",
        f"  curl -s {url}/v1/check -H 'Authorization: Bearer {tokens[Role.EXPERT]}' \\",
        f"       -H 'Content-Type: application/json' -d {shlex.quote(body)}",
        f"  curl -s {url}/v1/queue -H 'Authorization: Bearer {tokens[Role.EXPERT]}'",
        f"  (OpenAPI: {url}/docs; database: redline-demo.db; decision log: {DEMO_LOG})",
        "",
        f"Expert workspace: {url}/workspace/ (sign in with the expert token)",
        "",
    ]
    typer.echo("\n".join(lines))


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(value: str, option: str) -> float:
    """`24h`, `30m`, `90s`, `1d` or plain seconds, as seconds; at least one second."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", value.lower())
    if match is None or float(match.group(1)) * _UNITS[match.group(2) or "s"] < 1:
        raise ServiceConfigError(f"{option} {value!r} is not a duration of at least a second; write e.g. 24h, 30m or 90s")
    return float(match.group(1)) * _UNITS[match.group(2) or "s"]


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
    db: Optional[str] = typer.Option(
        None, "--db", help="Database URL: sqlite:///redline.db (default) or postgresql+psycopg://user:pass@host/db."
    ),
    policies: Optional[Path] = typer.Option(
        None,
        "--policies",
        help="Folder of policy *.yaml/*.yml files (default ./policies); reloaded on change and SIGHUP.",
    ),
    log: Optional[Path] = typer.Option(None, "--log", help="Decision log (default ./redline.decisions.jsonl)."),
    tokens: Optional[Path] = typer.Option(
        None, "--tokens", help="File of role:token lines (# comments); also read: REDLINE_TOKENS=role:token,..."
    ),
    demo: bool = typer.Option(
        False, "--demo", help="Serve the bundled example policy with a demo database and fresh printed tokens."
    ),
    workers: int = typer.Option(1, "--workers", min=1, help="Worker processes."),
    max_body_bytes: int = typer.Option(MIB, "--max-body-bytes", min=1024, help="Larger request bodies get 413."),
    log_max_bytes: int = typer.Option(10 * MIB, "--log-max-bytes", min=1024, help="Rotate the decision log past this."),
    log_backups: int = typer.Option(5, "--log-backups", min=0, help="Rotated decision-log files kept."),
    open_metrics: bool = typer.Option(False, "--open-metrics", help="Serve /metrics without a token."),
    access_log: bool = typer.Option(False, "--access-log", help="Log every request (uvicorn's access log)."),
    reload_interval: float = typer.Option(
        1.0, "--reload-interval", min=0, help="Seconds between checks of the policy files; 0: on SIGHUP only."
    ),
    max_header_bytes: int = typer.Option(
        32 * 1024, "--max-header-bytes", min=1024, help="Larger request lines and headers get 431."
    ),
    header_timeout: float = typer.Option(
        10.0, "--header-timeout", min=0.1, help="Seconds a connection has to send its headers, then it is closed."
    ),
    max_connections: int = typer.Option(
        1000, "--max-connections", min=1, help="Open connections per worker; more are closed at once."
    ),
    settings_file: Optional[Path] = typer.Option(
        None, "--settings", help="Settings file with the review flags (default $REDLINE_SETTINGS, else ./redline.yaml)."
    ),
    canary_every: Optional[str] = typer.Option(
        None, "--canary-every", help="Run the canary battery this often (24h, 30m, 90s); off by default."
    ),
    session_timeout: int = typer.Option(
        8 * 3600, "--session-timeout", min=60, help="Seconds a workspace sign-in lasts."
    ),
    lease: int = typer.Option(
        600, "--lease", min=10, help="Seconds an opened queue item stays leased to its Expert in the workspace."
    ),
) -> None:
    """Run the HTTP service (OpenAPI at /docs and /openapi.json)."""
    import uvicorn

    from redline.service.app import create_app
    from redline.service.policies import PolicyRegistry
    from redline.store.sql import AuditStore

    logging.basicConfig(level=logging.INFO, format="%(levelname)s:     %(name)s: %(message)s")
    try:
        every = parse_duration(canary_every, "--canary-every") if canary_every is not None else None
        hashed = list(tokens_from(tokens))
        demo_tokens: dict[Role, str] = {}
        if demo:
            demo_tokens = _demo_tokens()
            hashed += [TokenHash(role=role, sha256=digest(token)) for role, token in demo_tokens.items()]
        settings = Settings(
            host=host,
            port=port,
            db_url=db or (DEMO_DB if demo else "sqlite:///redline.db"),
            policies_dir=policies or (demo_policies() if demo else Path("policies")),
            log_path=log or DEMO_LOG,
            tokens=tuple(hashed),
            max_body_bytes=max_body_bytes,
            log_max_bytes=log_max_bytes,
            log_backups=log_backups,
            open_metrics=open_metrics,
            demo=demo,
            workers=workers,
            reload_interval_s=reload_interval,
            max_header_bytes=max_header_bytes,
            header_timeout_s=header_timeout,
            max_connections=max_connections,
            review_settings=settings_file,
            canary_every_s=every,
            session_s=session_timeout,
            lease_s=lease,
        )
        if workers == 1:
            target = create_app(settings)
        else:  # check once here; each worker builds its own app from the same settings
            PolicyRegistry(settings.policies_dir).load(strict=True)
            with AuditStore(settings.db_url) as store:
                store.migrate()
            os.environ[SETTINGS_ENV] = settings.model_copy(update={"strict_start": False}).model_dump_json()
            target = None
    except RedlineError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from exc
    if demo:
        _print_demo(demo_tokens, host, port)
    from redline.service.http_protocol import GuardedHttpProtocol

    common = dict(
        host=host, port=port, access_log=access_log, server_header=False, log_level="info",
        http=GuardedHttpProtocol, timeout_graceful_shutdown=10,
    )  # fmt: skip
    if target is not None:
        uvicorn.run(target, **common)  # type: ignore[arg-type]
    else:
        uvicorn.run("redline.service.app:app_from_env", factory=True, workers=workers, **common)  # type: ignore[arg-type]
