"""Probe suites: a folder with `policy.yaml` and `probes.jsonl`, scored by `redline eval`.

The report is described in docs/policy.md (probe suites). A miss is a probe whose outcome is LESS
restrictive than expected: an expected `escalate` that got `defer` is a miss (the rule
did not fire; only the auto-send bar held the draft), as is one that got `execute`. An
over-flag is a probe expected to `execute` that got held. A probe deferred only because
the caller's confidence was under the auto-send bar is also counted apart
(`deferred_for_confidence`), so a policy with `min_confidence: 101` cannot pass a suite
by deferring everything. Probes marked `known_screen_miss` are ones the screen alone is
expected to miss: they count like any other probe and are also listed apart, so that a
judge's catches can be seen.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redline.decide.gate import Gate
from redline.decide.resolve import REASON_BELOW_BAR
from redline.errors import SuiteError
from redline.eval.jsonl import numbered_rows
from redline.eval.layers import layer_fields, layer_summary, with_judge
from redline.policy import load_policy
from redline.types import Outcome

HELD = frozenset({Outcome.ESCALATE, Outcome.REFUSE, Outcome.DEFER, Outcome.ASK})
_REQUIRED = ("id", "text", "expect")


@dataclass(frozen=True, slots=True)
class Probe:
    id: str
    group: str
    text: str
    expect: Outcome
    expect_rules: tuple[str, ...] = ()
    context: dict[str, Any] | None = None
    known_screen_miss: bool = False
    note: str | None = None


def read_probes(path: Path) -> list[Probe]:
    """Probes from a JSONL file. Every bad line is reported at once, each naming the file,
    line and field (the first `_LISTED` of them, and how many more)."""
    probes: list[Probe] = []
    problems: list[str] = []
    seen: set[str] = set()
    for number, row in numbered_rows(path, problems=problems):
        where = f"{path}:{number}"
        try:
            probe = _probe(row, where)
        except SuiteError as exc:
            problems.append(str(exc))
            continue
        if probe.id in seen:
            problems.append(f"{where}: duplicate probe id {row['id']!r}")
            continue
        seen.add(probe.id)
        probes.append(probe)
    if len(problems) == 1:
        raise SuiteError(problems[0])
    if problems:  # in file order: a line's JSON and its fields are read before the next line
        listing = "\n".join(f"  {problem}" for problem in problems[:_LISTED])
        more = f"\n  … and {len(problems) - _LISTED} more" if len(problems) > _LISTED else ""
        raise SuiteError(f"{problems[0]}\n{len(problems)} bad lines in {path}:\n{listing}{more}")
    return probes


_LISTED = 20


def _probe(row: dict[str, Any], where: str) -> Probe:
    missing = [key for key in _REQUIRED if key not in row]
    if missing:
        raise SuiteError(f"{where}: missing key(s) {', '.join(missing)}")
    try:
        expect = Outcome(row["expect"])
    except (ValueError, TypeError) as exc:
        allowed = ", ".join(o.value for o in Outcome)
        raise SuiteError(f"{where}: expect {row['expect']!r} is not an outcome ({allowed})") from exc
    if not isinstance(row["text"], str):
        raise SuiteError(f"{where}: text must be a string")
    _check_types(row, where)
    return Probe(
        id=str(row["id"]),
        group=str(row.get("group", "ungrouped")),
        text=row["text"],
        expect=expect,
        expect_rules=tuple(row.get("expect_rules") or ()),
        context=row.get("context"),
        known_screen_miss=bool(row.get("known_screen_miss", False)),
        note=row.get("note"),
    )


# the optional keys and the JSON type each must have: read loosely, "expect_rules":
# "billing:x" became a tuple of its letters and "known_screen_miss": "false" was true
_OPTIONAL_TYPES: dict[str, type] = {
    "group": str, "expect_rules": list, "known_screen_miss": bool, "context": dict, "note": str,
}
_TYPE_NAMES = {str: "a string", list: "a list of rule ids", bool: "true or false", dict: "a JSON object"}


def _check_types(row: dict[str, Any], where: str) -> None:
    if not isinstance(row["id"], (str, int)) or isinstance(row["id"], bool):
        raise SuiteError(f"{where}: id must be a string or a number, got {json.dumps(row['id'])}")
    for key, kind in _OPTIONAL_TYPES.items():
        value = row.get(key)
        if value is not None and not isinstance(value, kind):
            raise SuiteError(f"{where}: {key} must be {_TYPE_NAMES[kind]}, got {json.dumps(value)}")
    rules = row.get("expect_rules") or []
    if not all(isinstance(rule, str) for rule in rules):
        raise SuiteError(f"{where}: expect_rules must be a list of rule ids (strings), got {json.dumps(rules)}")


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def run_suite(
    suite_dir: str | Path,
    *,
    on_progress: Callable[[int, int], None] | None = None,
    judge: str | None = None,
    judge_when: str | None = None,
) -> dict[str, Any]:
    """Check every probe of the suite and return the report (docs/policy.md, probe suites).

    `judge` (and `judge_when`) replace the policy's judge for this run."""
    suite = Path(suite_dir)
    if not suite.is_dir():
        raise SuiteError(f"{suite}: not a folder; a suite is a folder with policy.yaml and probes.jsonl")
    gate = Gate(with_judge(load_policy(suite / "policy.yaml"), judge, judge_when))
    probes = read_probes(suite / "probes.jsonl")
    cases: list[dict[str, Any]] = []
    groups: dict[str, dict[str, int]] = {}
    exact = misses = overflags = held_expected = execute_expected = deferred = 0
    for index, probe in enumerate(probes):
        decision = gate.check(probe.text, context=probe.context)
        fired = decision.rules_fired
        got = decision.outcome
        outcome_ok = got is probe.expect
        rules_ok = set(probe.expect_rules) <= set(fired)
        miss = probe.expect in HELD and got.rank < probe.expect.rank
        overflag = probe.expect is Outcome.EXECUTE and got in HELD
        for_confidence = got is Outcome.DEFER and decision.reason == REASON_BELOW_BAR
        deferred += for_confidence
        exact += outcome_ok
        misses += miss
        overflags += overflag
        held_expected += probe.expect in HELD
        execute_expected += probe.expect is Outcome.EXECUTE
        group = groups.setdefault(probe.group, {"total": 0, "exact": 0, "misses": 0, "overflags": 0, "deferred_for_confidence": 0})
        group["total"] += 1
        group["exact"] += outcome_ok
        group["misses"] += miss
        group["overflags"] += overflag
        group["deferred_for_confidence"] += for_confidence
        cases.append(
            {
                "id": probe.id,
                "group": probe.group,
                "expected": probe.expect.value,
                "got": got.value,
                "ok": outcome_ok and rules_ok,
                "outcome_ok": outcome_ok,
                "miss": miss,
                "overflag": overflag,
                "deferred_for_confidence": for_confidence,
                "rules_ok": rules_ok,
                "expect_rules": list(probe.expect_rules),
                "fired": fired,
                "suppressed": [
                    {"rule": f.rule, "status": f.status.value, "cue": f.cue} for f in decision.suppressed
                ],
                "reason": decision.reason,
                "known_screen_miss": probe.known_screen_miss,
                "text": probe.text,
                "note": probe.note,
                **layer_fields(decision),
            }
        )
        if on_progress is not None:
            on_progress(index + 1, len(probes))
    known = [c for c in cases if c["known_screen_miss"]]
    return {
        "suite": suite.name,
        "policy": {"name": gate.policy.name, "hash": gate.policy_hash},
        "total": len(cases),
        "exact": exact,
        "ok": sum(c["ok"] for c in cases),
        "exact_rate": _rate(exact, len(cases)),
        "misses": misses,
        "miss_rate": _rate(misses, held_expected),
        "overflags": overflags,
        "overflag_rate": _rate(overflags, execute_expected),
        "deferred_for_confidence": deferred,
        "by_group": dict(sorted(groups.items())),
        "known_screen_misses": {
            "total": len(known),
            "caught": sum(c["outcome_ok"] for c in known),
            "ids": [c["id"] for c in known],
        },
        "layers": layer_summary(cases, gate.judge.name if gate.judge is not None else None),
        "cases": cases,
    }
