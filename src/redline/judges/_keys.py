"""What both model judges read from a policy: the model, the server, limits, and the key,
which comes from the environment, never from the policy file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from redline.errors import PolicyError

# sent to a local OpenAI-compatible server (vLLM, Ollama…), which ignores it; the SDK needs one
LOCAL_PLACEHOLDER = "not-needed"


def api_key(settings: Mapping[str, Any], default_env: str) -> str:
    """The key from the variable `api_key_env` names (default `default_env`)."""
    env = settings.get("api_key_env") or default_env
    key = os.environ.get(env)
    if key:
        return key
    if settings.get("base_url"):
        return LOCAL_PLACEHOLDER
    raise PolicyError(
        f"the {settings.get('kind')} judge needs an API key and ${env} is not set. Fix: export {env}=..., "
        "or set judge.base_url to a local server",
        key="judge.api_key_env",
    )


def client_settings(settings: Mapping[str, Any], default_env: str) -> dict[str, Any]:
    """The constructor arguments of a model judge from the policy's `judge:` settings."""
    return {
        "model": str(settings["model"]),
        "api_key": api_key(settings, default_env),
        "base_url": settings.get("base_url"),
        "timeout_s": float(settings.get("timeout_s") or 10.0),
        "max_output_tokens": int(settings.get("max_output_tokens") or 1024),
    }
