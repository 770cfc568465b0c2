"""A wheel must carry every data file the package reads at import time."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent.parent


def test_every_data_file_is_declared_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["redline"]
    package = ROOT / "src" / "redline"
    data_files = [
        p.relative_to(package).as_posix()
        for p in package.rglob("*")
        if p.is_file() and p.suffix not in {".py", ".pyc"} and "__pycache__" not in p.parts
    ]
    assert data_files, "the package reads trigger and word lists from data/ folders"
    missing = [f for f in data_files if not any(fnmatch.fnmatch(f, g) for g in globs)]
    assert missing == []


def test_public_api_is_exactly_all() -> None:
    import redline

    assert set(redline.__all__) == {n for n in dir(redline) if not n.startswith("_")} - {
        "actions_cli", "backtest", "cli", "decide", "display", "domains", "errors", "eval", "judges", "policy", "review",
        "review_cli", "screen", "service", "signals", "store", "terminal", "types"
    } | {"__version__"}
