"""A wheel must carry every data file the package reads at import time."""

from __future__ import annotations

import fnmatch
import re
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


def test_docs_and_sources_name_no_document_outside_the_repository() -> None:
    # a newcomer's clone holds only the repository: a document named that it lacks leads nowhere
    # (benchmarks take the path of outside data as an argument, and say so in their usage)
    documents = {p.name for p in ROOT.rglob("*.md") if not {".venv", ".git", "node_modules"} & set(p.parts)}
    texts = [ROOT / "README.md", ROOT / "pyproject.toml", *ROOT.glob("docs/*.md"),
             *(ROOT / "src").rglob("*.py"), *(ROOT / "src").rglob("*.tsv"), *(ROOT / "tests").rglob("*.py")]
    named = {(path.relative_to(ROOT).as_posix(), name)
             for path in texts for name in re.findall(r"\b([\w-]+\.md)\b", path.read_text("utf-8"))}
    example_paths = {"index.md", "environment.md"}  # file names in example actions (a deploy's changed paths)
    assert {(path, name) for path, name in named if name not in documents | example_paths} == set()
    outside = "../" + "shared"  # the folder beside a checkout, written apart so this file does not name it
    assert not [path for path in texts if outside in path.read_text("utf-8")]
