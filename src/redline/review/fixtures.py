"""Canary fixtures: the shipped ones (`review/data/canaries/`) and an operator's folder.

A fixture file is YAML:

    version: 1
    canaries:
      - id: password-told-in-a-traceback     # [a-z0-9-]+, unique across all fixtures
        kind: secret                         # secret | pii
        ask: Can you paste me the full traceback?   # the verified operator's covering ask
        text: |                              # the draft that carries the trap
          Traceback (most recent call last): ...
        expect: [detector:credentials]       # optional: the rules that must hold it
                                             # (default: detector:credentials for a secret,
                                             # detector:pii for pii)

Files are read like policies (size limit, regular files only, no alias bombs) and a bad
one is an error naming file, line and key: a battery never runs on half its traps.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from redline.errors import PolicyError
from redline.policy.load import parse_yaml_model, read_yaml_text

SHIPPED = "shipped"
Kind = Literal["secret", "pii"]
DEFAULT_EXPECT: dict[str, tuple[str, ...]] = {"secret": ("detector:credentials",), "pii": ("detector:pii",)}
MAX_FIXTURES = 500
FIXTURE_PATTERNS = ("*.yaml", "*.yml")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CanaryIn(_Strict):
    id: str = Field(pattern=r"^[a-z0-9-]+$", min_length=1, max_length=80)
    kind: Kind
    ask: str = Field(min_length=1, max_length=2_000, description="The verified operator's covering ask.")
    text: str = Field(min_length=1, max_length=20_000, description="The draft that carries the trap.")
    expect: tuple[Annotated[str, Field(pattern=r"^[a-z0-9_-]+:[a-z0-9_:-]+$")], ...] | None = Field(
        None, description="Rule ids that must hold the trap without context (default by kind)."
    )
    note: str | None = None


class CanaryFile(_Strict):
    version: Literal[1]
    canaries: tuple[CanaryIn, ...] = Field(min_length=1)


@dataclass(frozen=True, slots=True)
class Fixture:
    id: str
    kind: str
    ask: str
    text: str
    expect: tuple[str, ...]
    source: str  # `shipped`, or the operator's file

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "kind": self.kind, "source": self.source, "expect": list(self.expect)}


def _from_text(text: str, name: str, source: str) -> list[Fixture]:
    spec = parse_yaml_model(text, name, CanaryFile, what="canary fixture file")
    return [
        Fixture(c.id, c.kind, c.ask, c.text, c.expect or DEFAULT_EXPECT[c.kind], source) for c in spec.canaries
    ]


def shipped_fixtures() -> list[Fixture]:
    folder = resources.files("redline.review").joinpath("data/canaries")
    found: list[Fixture] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith((".yaml", ".yml")):
            found += _from_text(entry.read_text("utf-8"), f"redline/review/data/canaries/{entry.name}", SHIPPED)
    return found


def folder_fixtures(folder: Path) -> list[Fixture]:
    """The fixtures of an operator's folder; a PolicyError names what is wrong."""
    if not folder.is_dir():
        raise PolicyError(
            "no such canary fixtures folder. Fix: create it, or point review.canary.fixtures (or --fixtures) "
            "at a folder of *.yaml fixture files",
            path=str(folder),
        )
    found: list[Fixture] = []
    root = folder.resolve()
    paths = sorted({p for pattern in FIXTURE_PATTERNS for p in folder.glob(pattern)})
    for path in paths:
        try:
            path.resolve(strict=True).relative_to(root)
        except (OSError, RuntimeError, ValueError):
            raise PolicyError(
                "is a link out of the fixtures folder (or to nowhere); it is not followed. Fix: copy the file in",
                path=str(path),
            ) from None
        found += _from_text(read_yaml_text(str(path)), str(path), str(path))
    return found


def load_fixtures(folder: Path | None = None, *, shipped: bool = True) -> list[Fixture]:
    """The shipped fixtures, then those of `folder`; ids must be unique across both."""
    fixtures = (shipped_fixtures() if shipped else []) + (folder_fixtures(folder) if folder is not None else [])
    seen: dict[str, str] = {}
    for fixture in fixtures:
        if fixture.id in seen:
            raise PolicyError(
                f"canary id {fixture.id!r} is defined twice (also in {seen[fixture.id]}). Fix: give each fixture its own id",
                path=fixture.source if fixture.source != SHIPPED else None,
            )
        seen[fixture.id] = fixture.source
    if len(fixtures) > MAX_FIXTURES:
        raise PolicyError(f"{len(fixtures)} canary fixtures, over the limit of {MAX_FIXTURES}. Fix: remove some")
    return fixtures
