"""The service's configuration: one validated value, built by `redline serve` or by tests.

Tokens arrive here already hashed (`auth.parse_tokens`): the settings, the environment of
worker processes and anything else that might be printed or dumped hold only sha256 digests.
"""

from __future__ import annotations

import enum
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from redline.errors import RedlineError

MIB = 1024 * 1024
SETTINGS_ENV = "REDLINE_SERVICE_SETTINGS"  # JSON settings handed to `--workers N` processes


class Role(str, enum.Enum):
    CLIENT = "client"
    EXPERT = "expert"
    OPERATOR = "operator"


class TokenHash(BaseModel):
    """One accepted bearer token: its role and the sha256 (hex) of the token."""

    model_config = ConfigDict(frozen=True)

    role: Role
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    db_url: str = "sqlite:///redline.db"
    policies_dir: Path = Path("policies")
    log_path: Path = Path("redline.decisions.jsonl")
    tokens: tuple[TokenHash, ...] = ()
    max_body_bytes: int = Field(default=MIB, ge=1024)
    log_max_bytes: int = Field(default=10 * MIB, ge=1024)
    log_backups: int = Field(default=5, ge=0)
    open_metrics: bool = Field(default=False, description="serve /metrics without a token")
    demo: bool = False
    reload_interval_s: float = Field(
        default=1.0, ge=0, description="how often policy files are polled; 0: only on SIGHUP"
    )
    strict_start: bool = Field(
        default=True, description="refuse to start on an invalid policy file (else: record it and go on)"
    )
    workers: int = Field(default=1, ge=1)
    max_header_bytes: int = Field(default=32 * 1024, ge=1024, description="request line and headers; past it: 431")
    header_timeout_s: float = Field(default=10.0, gt=0, description="time a connection has to send its headers")
    max_connections: int = Field(default=1000, ge=1, description="open connections per worker process")
    review_settings: Path | None = Field(
        default=None, description="the settings file with the review flags (None: $REDLINE_SETTINGS or ./redline.yaml)"
    )
    canary_every_s: float | None = Field(
        default=None, gt=0, description="run the canary battery this often (None: never; a manual action)"
    )
    session_s: int = Field(default=8 * 3600, ge=60, description="how long a workspace sign-in lasts")
    lease_s: int = Field(default=600, ge=10, description="how long an opened queue item stays leased to its Expert")


class ServiceConfigError(RedlineError):
    """The service cannot start as configured: no tokens, a bad tokens file, clashing policies."""
