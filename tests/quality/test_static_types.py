"""The package type-checks under `mypy --strict` (configuration in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent.parent


def test_the_package_type_checks_strictly() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "src/redline"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
