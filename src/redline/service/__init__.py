"""The HTTP service (FastAPI): `create_app(settings)`, and `serve` for the command line.

FastAPI is imported only inside this package, and only when an app is built: importing
`redline.service.serve_cli` (as `redline --help` does) does not load the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from redline.service.settings import Role, ServiceConfigError, Settings

if TYPE_CHECKING:
    from redline.service.app import create_app

__all__ = ["Role", "ServiceConfigError", "Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from redline.service.app import create_app

        return create_app
    raise AttributeError(f"module 'redline.service' has no attribute {name!r}")
