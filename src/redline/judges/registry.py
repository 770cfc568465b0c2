"""Judge kinds by name: the one place that turns a policy's `judge:` into a judge.

The concrete modules are imported by name on first use, so a policy without a judge, or
with one kind, never imports the SDKs or the runtime of another; and the gate, which
calls `build_judge`, depends on this table and the `Judge` protocol, never on a concrete
judge. Users register their own kinds the same way.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from redline.errors import PolicyError
from redline.judges.base import Judge

JudgeFactory = Callable[[Mapping[str, Any], "Path | None"], Judge]

_BUILT_IN: dict[str, str] = {
    "heuristic": "redline.judges.heuristic:HeuristicJudge",
    "embedding": "redline.judges.embedding:EmbeddingJudge",
    "openai": "redline.judges.openai:OpenAIJudge",
    "anthropic": "redline.judges.anthropic:AnthropicJudge",
}
_registered: dict[str, JudgeFactory] = {}


def register(kind: str, factory: JudgeFactory) -> None:
    """Make `factory(settings, policy_dir)` the builder of judge kind `kind`."""
    _registered[kind] = factory


def build_judge(settings: Mapping[str, Any], policy_dir: Path | None = None) -> Judge | None:
    """The judge the settings ask for (None for `kind: none`); PolicyError when it cannot run."""
    kind = str(settings.get("kind", "none"))
    if kind == "none":
        return None
    factory = _registered.get(kind)
    if factory is None:
        target = _BUILT_IN.get(kind)
        if target is None:
            raise PolicyError(f"unknown judge kind {kind!r}. Fix: use one of none, {', '.join(_BUILT_IN)}", key="judge.kind")
        module_name, _, attr = target.partition(":")
        factory = getattr(importlib.import_module(module_name), attr).from_settings
    try:
        return factory(settings, policy_dir)
    except PolicyError:
        raise
    except Exception as exc:  # a model that will not load, an SDK that refuses its settings
        raise PolicyError(f"the {kind} judge could not be built: {type(exc).__name__}: {exc}", key="judge") from exc
