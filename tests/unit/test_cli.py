from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from redline.cli import app

runner = CliRunner()
FIXTURES = Path(__file__).parent.parent / "fixtures"
POLICY = str(FIXTURES / "policies" / "triage.yaml")


def test_check_prints_the_outcome_and_the_fired_and_suppressed_rules() -> None:
    result = runner.invoke(app, ["check", POLICY, "No fever, but I have chest pain. No shortness of breath."])
    assert result.exit_code == 0, result.output
    assert "ESCALATE" in result.output
    assert "red-flags:chest-pain" in result.output
    assert "suppressed" in result.output and "negated" in result.output


def test_check_json_is_the_decision_contract() -> None:
    result = runner.invoke(app, ["check", POLICY, "I can't breathe properly", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["outcome"] == "escalate"
    assert data["findings"][0]["text"] == "can't breathe"
    assert data["policy"]["name"] == "nurse-line"


def test_check_reads_the_text_from_stdin() -> None:
    result = runner.invoke(app, ["check", POLICY, "-", "--json"], input="Denies chest pain.")
    assert json.loads(result.output)["outcome"] == "execute"


def test_check_with_a_bad_policy_exits_2_naming_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nname: x\nskills:\n  - slug: a\n    red_lines:\n      - id: r\n        rule: Never.\n        severity: blok\n")
    result = runner.invoke(app, ["check", str(bad), "hello"])
    assert result.exit_code == 2
    assert "bad.yaml:8" in result.output and "severity" in result.output


def test_check_with_a_malformed_context_file_exits_2(tmp_path: Path) -> None:
    context = tmp_path / "context.json"
    context.write_text("{not json")
    result = runner.invoke(app, ["check", POLICY, "hello", "--context", str(context)])
    assert result.exit_code == 2
    assert "context.json:1" in result.output


def test_eval_json_reports_cases_groups_and_known_screen_misses() -> None:
    result = runner.invoke(app, ["eval", str(FIXTURES / "suites" / "triage"), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert {"suite", "total", "exact", "miss_rate", "overflag_rate", "by_group", "cases"} <= set(report)
    assert report["total"] == len(report["cases"]) == 20
    assert report["known_screen_misses"]["ids"] == ["tri-005"]
    case = report["cases"][0]
    assert {"id", "expected", "got", "ok", "fired", "suppressed"} <= set(case)


def test_eval_of_a_folder_without_probes_fails_clearly(tmp_path: Path) -> None:
    (tmp_path / "policy.yaml").write_text((FIXTURES / "policies" / "triage.yaml").read_text())
    result = runner.invoke(app, ["eval", str(tmp_path)])
    assert result.exit_code == 2
    assert "probes.jsonl" in result.output


def test_context_reports_statuses_for_each_input_line() -> None:
    lines = "\n".join(
        json.dumps(row)
        for row in [
            {"id": "a", "text": "No chest pain today.", "term": "chest pain"},
            {"id": "b", "text": "History of asthma as a child.", "term": "asthma"},
            {"id": "c", "text": "Nothing here.", "term": "fever"},
        ]
    )
    result = runner.invoke(app, ["context", "--json"], input=lines)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert rows[0]["negated"] and rows[0]["found"]
    assert rows[1]["historical"]
    assert rows[2] == {"id": "c", "found": False, "negated": False, "attributed": False, "historical": False, "hypothetical": False, "other_experiencer": False}


def test_schema_prints_the_json_schema_of_the_policy_format() -> None:
    result = runner.invoke(app, ["schema"])
    schema = json.loads(result.output)
    assert schema["additionalProperties"] is False
    assert {"version", "name"} <= set(schema["required"])


def test_eval_names_the_file_and_line_of_a_malformed_probe(tmp_path: Path) -> None:
    (tmp_path / "policy.yaml").write_text((FIXTURES / "policies" / "triage.yaml").read_text())
    (tmp_path / "probes.jsonl").write_text('{"id": "a", "text": "hi", "expect": "execute"}\n{"id": "b", "text": \n')
    result = runner.invoke(app, ["eval", str(tmp_path)])
    assert result.exit_code == 2
    assert "probes.jsonl:2" in result.output


def test_eval_names_an_expected_outcome_that_does_not_exist(tmp_path: Path) -> None:
    (tmp_path / "policy.yaml").write_text((FIXTURES / "policies" / "triage.yaml").read_text())
    (tmp_path / "probes.jsonl").write_text('{"id": "a", "text": "hi", "expect": "allow"}\n')
    result = runner.invoke(app, ["eval", str(tmp_path)])
    assert result.exit_code == 2
    assert "probes.jsonl:1" in result.output and "allow" in result.output


def test_check_with_a_context_file_licenses_what_the_operator_asked_for(tmp_path: Path) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        "version: 1\nname: ctx\nauto_send: {min_confidence: 0}\n"
        "detectors: {credentials: refuse, pii: escalate, technical_content: escalate}\n"
    )
    context = tmp_path / "context.json"
    context.write_text(json.dumps({
        "operator_uid": "u-42", "recipient": "primary",
        "messages": [{"role": "user", "sender_uid": "u-42", "text": "Can you paste me the full traceback?"}],
    }))  # fmt: skip
    trace = 'Traceback (most recent call last):\n  File "/srv/app/sync.py", line 8, in push\n    raise SyncError(code)\nSyncError: 502'
    without = json.loads(runner.invoke(app, ["check", str(policy), trace, "--json"]).output)
    with_context = json.loads(runner.invoke(app, ["check", str(policy), trace, "--json", "--context", str(context)]).output)
    assert without["outcome"] == "escalate"
    assert with_context["outcome"] == "execute"
    assert with_context["licensed_by_context"] is True
    assert with_context["context"]["mode"] == "verified-operator"
