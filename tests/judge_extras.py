"""Skip a judge test when its optional extra is absent, except in CI, where it must run."""

from __future__ import annotations

import importlib.util
import os

import pytest


def require(*modules: str, extra: str) -> None:
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if not missing:
        return
    reason = f"needs {', '.join(missing)}: pip install 'redline[{extra}]'"
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI installs the test extra, so these tests never skip there)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)
