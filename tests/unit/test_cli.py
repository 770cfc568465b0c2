from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from redline import Outcome, __version__
from redline.cli import app
from redline.terminal import EXIT_CODES, safe

runner = CliRunner()
FIXTURES = Path(__file__).parent.parent / "fixtures"
POLICY = str(FIXTURES / "policies" / "triage.yaml")


def test_check_prints_the_outcome_and_the_fired_and_suppressed_rules() -> None:
    result = runner.invoke(app, ["check", POLICY, "No fever, but I have chest pain. No shortness of breath."])
    assert result.exit_code == EXIT_CODES[Outcome.ESCALATE], result.output
    assert "ESCALATE" in result.output
    assert "red-flags:chest-pain" in result.output
    assert "suppressed" in result.output and "negated" in result.output


def test_check_json_is_the_decision_contract() -> None:
    result = runner.invoke(app, ["check", POLICY, "I can't breathe properly", "--json"])
    assert result.exit_code == EXIT_CODES[Outcome.ESCALATE], result.output
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
    assert rows[2] == {"id": "c", "found": False, "negated": False, "attributed": False, "historical": False, "hypothetical": False, "other_experiencer": False, "uncertain": False}


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


def test_eval_lists_every_bad_probe_line_at_once_not_only_the_first(tmp_path: Path) -> None:
    # one run shows every line to fix: bad JSON, a list, an unknown outcome, a text that is
    # no string, a repeated id (a number and its string are one id); good lines between
    (tmp_path / "policy.yaml").write_text((FIXTURES / "policies" / "triage.yaml").read_text())
    (tmp_path / "probes.jsonl").write_text(
        '{"id": 1, "text": "hi", "expect": "execute"}\n'
        '{"id": 2, "text": "hi"\n'
        '[1]\n'
        '{"id": 3, "text": "hi", "expect": "allow"}\n'
        '{"id": 4, "text": 5, "expect": "execute"}\n'
        '{"id": "1", "text": "hi", "expect": "execute"}\n'
    )
    result = runner.invoke(app, ["eval", str(tmp_path)])
    assert result.exit_code == 2
    assert "5 bad lines" in result.output
    said = " ".join(result.output.split()).split("probes.jsonl:")  # the terminal wraps long lines
    for line, named in ((2, "invalid JSON"), (3, "expected a JSON object"), (4, "allow"),
                        (5, "text must be a string"), (6, "duplicate probe id")):
        assert any(part.startswith(f"{line}:") and named in part for part in said), line
    assert "(column 23)" in " ".join(said)  # where on its own line the JSON breaks


def test_eval_lists_the_first_bad_probe_lines_and_counts_the_rest(tmp_path: Path) -> None:
    (tmp_path / "policy.yaml").write_text((FIXTURES / "policies" / "triage.yaml").read_text())
    (tmp_path / "probes.jsonl").write_text("".join(f'{{"id": {i}, "text": "hi"}}\n' for i in range(25)))
    result = runner.invoke(app, ["eval", str(tmp_path)])
    assert result.exit_code == 2
    assert "25 bad lines" in result.output and "and 5 more" in result.output
    assert "probes.jsonl:20:" in result.output and "probes.jsonl:21:" not in result.output


def test_eval_names_an_expected_outcome_that_does_not_exist(tmp_path: Path) -> None:
    (tmp_path / "policy.yaml").write_text((FIXTURES / "policies" / "triage.yaml").read_text())
    (tmp_path / "probes.jsonl").write_text('{"id": "a", "text": "hi", "expect": "allow"}\n')
    result = runner.invoke(app, ["eval", str(tmp_path)])
    assert result.exit_code == 2
    assert "probes.jsonl:1" in result.output and "allow" in result.output



@pytest.mark.parametrize(
    ("field", "named"),
    [
        ('"expect_rules": "triage:chest-pain"', "expect_rules must be a list of rule ids"),
        ('"expect_rules": [1]', "expect_rules must be a list of rule ids (strings)"),
        ('"known_screen_miss": "false"', "known_screen_miss must be true or false"),
        ('"context": "a chat"', "context must be a JSON object"),
        ('"group": 3', "group must be a string"),
    ],
)
def test_eval_refuses_a_probe_field_of_the_wrong_type_instead_of_reading_it_loosely(
        tmp_path: Path, field: str, named: str) -> None:
    # read loosely, "expect_rules": "a:b" became a tuple of its letters and
    # "known_screen_miss": "false" counted as true
    (tmp_path / "policy.yaml").write_text((FIXTURES / "policies" / "triage.yaml").read_text())
    (tmp_path / "probes.jsonl").write_text(
        '{"id": "a", "text": "hi", "expect": "execute"}\n'
        f'{{"id": "b", "text": "hi", "expect": "execute", {field}}}\n'
    )
    result = runner.invoke(app, ["eval", str(tmp_path)])
    assert result.exit_code == 2
    assert "probes.jsonl:2" in result.output and named in result.output


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


EXAMPLE = str(Path(__file__).parent.parent.parent / "examples" / "policy.yaml")


def test_explain_json_shows_what_each_rule_matches() -> None:
    result = runner.invoke(app, ["explain", EXAMPLE, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    rules = {rule["id"]: rule for rule in report["rules"]}
    refund = rules["billing:no-refund-promise"]
    assert refund["guards"] == "derived" and [t["label"] for t in refund["topics"]] == ["refund"]
    assert {"refund", "refunded", "refunds"} <= set(refund["topics"][0]["forms"][0])
    assert rules["legal:no-legal-advice"]["guards"] == "terms"
    assert rules["soul:never:0"]["detectors"] == ["pii"]
    assert "other_experiencer" not in rules["soul:never:0"]["suppress"]  # about another customer
    assert {d["id"] for d in report["detectors"]} == {"detector:credentials", "detector:pii", "detector:technical_content"}


def _explained(tmp_path: Path, r: str, s: str) -> tuple[Path, dict[str, Any]]:
    """A policy of two flag rules `a:r` and `a:s`, and `redline explain --json`'s rules by id."""
    policy = tmp_path / "p.yaml"
    policy.write_text("version: 1\nname: p\nskills:\n  - slug: a\n    red_lines:\n"
                      f"      - id: r\n        rule: {r}\n        severity: flag\n"
                      f"      - id: s\n        rule: {s}\n        severity: flag\n")
    result = runner.invoke(app, ["explain", str(policy), "--json"])
    assert result.exit_code == 0, result.output
    return policy, {rule["id"]: rule for rule in json.loads(result.output)["rules"]}


def test_explain_warns_about_a_topic_that_fires_on_ordinary_text(tmp_path: Path) -> None:
    policy, rules = _explained(tmp_path, "Never promise a refund.", "Always hand off a death to a human.")
    assert any("death" in w for w in rules["a:s"]["warnings"])
    plain = runner.invoke(app, ["explain", str(policy)])
    assert "warning:" in plain.output and "a:s" in plain.output


def test_explain_judges_a_phrase_topic_by_the_phrase_not_its_first_word(tmp_path: Path) -> None:
    # "out of pocket", "under 18s": "out" and "under" alone are in most drafts, the phrases are not
    _, rules = _explained(tmp_path, "Never quote out-of-pocket costs.", "Never book anyone under 18.")
    for rule, label in (("a:r", "out of pocket"), ("a:s", "under 18s")):
        topic = {t["label"]: t for t in rules[rule]["topics"]}[label]
        assert topic["share_of_drafts"] < 0.02 and not rules[rule]["warnings"]


def test_explain_warns_about_a_topic_word_shortened_by_leaving_out_its_vowels(tmp_path: Path) -> None:
    _, rules = _explained(tmp_path, "Never quote repaint pricing for bldgs.", "Never quote DMV fees by phone.")
    assert any("'bldgs'" in w and "terms" in w for w in rules["a:r"]["warnings"])  # "buildings" would not match
    assert "dmv" in {w for t in rules["a:s"]["topics"] for w in t["words"]}
    assert not any("dmv" in w.lower() for w in rules["a:s"]["warnings"])  # an acronym, as drafts write it


def test_explain_lists_a_topics_money_words_and_the_rules_words_of_absence(tmp_path: Path) -> None:
    _, rules = _explained(tmp_path, "Never quote a cancellation fee without a dispatcher.", "Never promise a refund.")
    fee = {t["label"]: t for t in rules["a:r"]["topics"]}["cancellation + fee"]
    assert fee["money"] == ["fee"] and fee["privative"] == ["without"]
    assert rules["a:s"]["topics"][0]["privative"] == []


def test_explain_exits_1_when_the_policy_would_not_load(tmp_path: Path) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("version: 1\nname: p\nskills:\n  - slug: a\n    red_lines:\n"
                      "      - id: r\n        rule: Never promise anything to the customer.\n        severity: block\n")
    result = runner.invoke(app, ["explain", str(policy)])
    assert result.exit_code == 1
    assert "p.yaml:7" in result.output and "a:r guards nothing" in result.output



def test_explain_lists_each_problem_of_a_policy_on_a_line_of_its_own(tmp_path: Path) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("version: 1\nname: p\nskills:\n  - slug: a\n    red_lines:\n"
                      "      - id: r\n        rule: Never promise a refund.\n        severity: blok\n"
                      "      - id: q\n        rule: Never quote a price.\n        severity: blok\n")
    result = runner.invoke(app, ["explain", str(policy)])
    assert result.exit_code == 1
    assert "\\x0a" not in result.output and "\u27e8" not in result.output
    lines = result.output.splitlines()
    assert any(line.startswith("2 problems in this policy:") for line in lines)
    assert any(line.strip().startswith(f"{policy}:8:") for line in lines)
    assert any(line.strip().startswith(f"{policy}:11:") for line in lines)


def _suite(tmp_path: Path, min_confidence: int, probes: list[dict[str, object]]) -> Path:
    (tmp_path / "policy.yaml").write_text(
        f"version: 1\nname: s\nauto_send:\n  min_confidence: {min_confidence}\nskills:\n  - slug: b\n    red_lines:\n"
        "      - id: r\n        rule: Never promise a refund.\n        severity: block\n"
    )
    (tmp_path / "probes.jsonl").write_text("".join(json.dumps(p) + "\n" for p in probes))
    return tmp_path


def test_eval_counts_a_held_probe_that_came_back_deferred_as_a_miss(tmp_path: Path) -> None:
    suite = _suite(tmp_path, 101, [
        {"id": "a", "text": "Your order shipped today.", "expect": "escalate"},  # the rule cannot fire
        {"id": "b", "text": "Your refund is approved.", "expect": "escalate"},
        {"id": "c", "text": "Your order shipped today.", "expect": "defer"},
    ])
    result = runner.invoke(app, ["eval", str(suite), "--json"])
    report = json.loads(result.output)
    cases = {c["id"]: c for c in report["cases"]}
    assert cases["a"]["got"] == "defer" and cases["a"]["miss"] and cases["a"]["deferred_for_confidence"]
    assert not cases["b"]["miss"] and not cases["c"]["miss"]
    assert report["misses"] == 1 and report["miss_rate"] == round(1 / 3, 4)
    assert report["deferred_for_confidence"] == 2
    assert "deferred only for confidence 2" in runner.invoke(app, ["eval", str(suite)]).output


# ---------------------------------------------------------------- exit codes, safe output

SUPPORT = str(Path(__file__).parent.parent.parent / "examples" / "policy.yaml")


def test_check_exits_by_outcome_so_a_script_can_gate_on_it() -> None:
    cases = {
        Outcome.EXECUTE: ["Thanks for your patience.", "--confidence", "90"],
        Outcome.DEFER: ["Thanks for your patience."],
        Outcome.ESCALATE: ["Your refund is approved."],
        Outcome.REFUSE: ["The key is AKIAIOSFODNN7EXAMPLE."],
    }
    for outcome, args in cases.items():
        for extra in ([], ["--json"]):
            result = runner.invoke(app, ["check", SUPPORT, *args, *extra])
            assert result.exit_code == EXIT_CODES[outcome], (outcome, extra, result.output)
    assert sorted(EXIT_CODES.values()) == [0, 3, 4, 5, 6], "distinct, and none is the usage error 2"
    assert "0 execute, 3 ask, 4 defer, 5 escalate, 6 refuse" in runner.invoke(app, ["check", "--help"]).output


def test_version_prints_the_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"redline {__version__}"


@pytest.mark.parametrize("value", ["101", "100.5", "-1", "nan"])
def test_confidence_out_of_0_to_100_is_a_usage_error(value: str) -> None:
    result = runner.invoke(app, ["check", SUPPORT, "hello", "--confidence", value])
    assert result.exit_code == 2, result.output
    assert "[0<=x<=100]" in runner.invoke(app, ["check", "--help"]).output


def test_the_gate_refuses_a_confidence_that_would_clear_a_review_everything_bar() -> None:
    from redline import Gate, load_policy

    gate = Gate(load_policy(FIXTURES / "policies" / "triage.yaml"))
    for bad in (101, 100.5, float("nan"), -1):
        decision = gate.check("Thanks, all is well.", confidence=bad)
        assert decision.reason == "check_error" and decision.outcome is not Outcome.EXECUTE


def test_check_with_no_text_on_a_terminal_says_what_it_expects(monkeypatch: pytest.MonkeyPatch) -> None:
    import redline.cli

    monkeypatch.setattr(redline.cli, "_interactive", lambda: True)  # CliRunner's stdin is never a terminal
    result = runner.invoke(app, ["check", SUPPORT])
    assert result.exit_code == 2
    assert "no text to check" in result.output


HIDDEN_DRAFT = "Your refund is approved.\x1b[8m hidden \x1b[0m\x1b[2K\rAll good here. \u202etxet desrever\u202c \u200b"


def test_terminal_escapes_in_a_draft_are_shown_never_obeyed() -> None:
    result = runner.invoke(app, ["check", SUPPORT, HIDDEN_DRAFT])
    assert "\x1b" not in result.output and "\r" not in result.output and "\u202e" not in result.output
    assert "\\x1b[8m" in result.output and "\\x0d" in result.output
    assert "\u27e8U+202E\u27e9" in result.output and "\u27e8U+200B\u27e9" in result.output
    assert "Your refund is approved." in result.output


def test_json_output_stays_exact() -> None:
    result = runner.invoke(app, ["check", SUPPORT, HIDDEN_DRAFT, "--json"])
    data = json.loads(result.output)
    assert data["findings"][0]["text"] == "refund"
    assert "\x1b" not in result.output  # JSON escapes it, exactly: \u001b
    assert json.loads(result.output)["outcome"] == "escalate"


def test_safe_shows_every_invisible_class_and_keeps_ordinary_text() -> None:
    assert safe("plain text") == "plain text"
    assert safe("caf\u00e9 \u4e2d\u6587 \U0001f389") == "caf\u00e9 \u4e2d\u6587 \U0001f389"
    assert safe("a\x1bb\x9bc\x7f") == "a\\x1bb\\x9bc\\x7f"
    assert safe("x\u2028y\ufeffz\U000e0041\u034f\ufe0f\ud800") == (
        "x\u27e8U+2028\u27e9y\u27e8U+FEFF\u27e9z\u27e8U+E0041\u27e9\u27e8U+034F\u27e9\u27e8U+FE0F\u27e9\u27e8U+D800\u27e9"
    )
    assert safe("line\nnext\ttab") == "line\\x0anext\\x09tab"
    assert safe("line\nnext\ttab", newlines=True) == "line\nnext\ttab"


def test_a_megabyte_draft_shows_its_findings_first_and_not_the_whole_text() -> None:
    text = "Lorem ipsum dolor sit amet. " * 40_000 + "Your refund is approved. " + "Lorem ipsum. " * 1_000
    result = runner.invoke(app, ["check", SUPPORT, text])
    assert result.exit_code == EXIT_CODES[Outcome.ESCALATE]
    assert len(result.output) < 5_000
    assert "refund is approved" in result.output and "shown above around each finding" in result.output


def test_piped_output_is_not_wrapped_at_80_columns() -> None:
    text = "Good news, " + "this is a long and friendly sentence that goes on " * 4 + "and your refund is approved."
    result = runner.invoke(app, ["check", SUPPORT, text])
    assert any(len(line) > 120 for line in result.output.splitlines())
    assert text in result.output.replace("text: ", "")


def test_a_policy_error_with_markup_or_escapes_is_printed_as_text(tmp_path: Path) -> None:
    bad = tmp_path / "bad[bold]\x1b.yaml"
    bad.write_text("version: 1\nname: x\nskills:\n  - slug: a\n    red_lines:\n      - id: r\n        rule: Never.\n        severity: blok\n")
    result = runner.invoke(app, ["check", str(bad), "hello"])
    assert result.exit_code == 2
    assert "bad[bold]\\x1b.yaml" in result.output and "\x1b" not in result.output
