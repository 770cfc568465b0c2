"""`redline eval --judge`: layer agreement and the known screen misses a judge caught."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from redline.cli import app

SUITE = str(Path(__file__).parent.parent / "fixtures" / "suites" / "support")
runner = CliRunner()


def test_eval_with_a_judge_reports_layers_as_json() -> None:
    result = runner.invoke(app, ["eval", SUITE, "--judge", "heuristic", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    layers = report["layers"]
    assert layers["judge"] == "heuristic" and layers["judged"] == report["total"]
    assert 0 <= layers["agreement_rate"] <= 1
    assert layers["known_screen_misses_caught_by_judge"] == ["sup-014"]
    case = next(c for c in report["cases"] if c["id"] == "sup-014")
    assert case["decided_by"] == "judge" and case["judge_status"] == "ok" and case["ok"]


def test_eval_without_a_judge_says_the_screen_decided() -> None:
    report = json.loads(runner.invoke(app, ["eval", SUITE, "--json"]).output)
    assert report["layers"]["judge"] is None and report["layers"]["judged"] == 0
    assert report["layers"]["known_screen_misses_caught_by_judge"] == []
    assert {c["decided_by"] for c in report["cases"]} == {"screen"}


def test_eval_prints_the_layer_line() -> None:
    result = runner.invoke(app, ["eval", SUITE, "--judge", "heuristic"])
    assert "layers: judge heuristic" in result.output and "known screen misses the judge caught: sup-014" in result.output


def test_an_unusable_judge_flag_is_a_clear_error() -> None:
    result = runner.invoke(app, ["eval", SUITE, "--judge", "openai"])
    assert result.exit_code == 2 and "needs a model" in result.output
    result = runner.invoke(app, ["eval", SUITE, "--judge", "heuristic", "--judge-when", "sometimes"])
    assert result.exit_code == 2
