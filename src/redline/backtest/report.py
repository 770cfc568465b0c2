"""The backtest report as one JSON-ready object, built from the merged Partial.

Keys are written in a fixed order and every list is sorted, so two engines that merged
the same partials print the same bytes. Only `run` (engine, workers, seconds) differs.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from redline.backtest.inputs import Source
from redline.backtest.partial import CHANGES, REVIEWS, Example, Partial
from redline.policy.schema import Policy
from redline.screen.engine import detector_rules
from redline.store.scrub import scrub
from redline.types import Outcome

_REACH = 80
SIDES = ("baseline", "new")


def policy_rules(policy: Policy) -> dict[str, str]:
    """Rule id -> severity, for every rule the policy runs (as findings name them)."""
    rules = {f"{s.slug}:{line.id}": line.severity.value for s in policy.skills for line in s.red_lines}
    for kind, severity in (("never", "block"), ("escalate", "flag")):
        for index, _ in enumerate(getattr(policy.soul.boundaries, kind)):
            rules[f"soul:{kind}:{index}"] = severity
    for _, rule_id, severity_of in detector_rules(policy):
        rules[rule_id] = severity_of.value
    return rules


def excerpt(text: str, span: tuple[int, int] | None) -> str:
    """The text around `span`, scrubbed of credentials and PII first (then cut, so no
    half of a secret stays), on one line."""
    scrubbed = scrub(text)
    at, length = (0, 0) if span is None else (span[0], span[1] - span[0])
    shift = 0
    for erased in scrubbed.erased:  # where `at` lands once masks have replaced spans
        if erased.start >= at:
            break
        shift += len(erased.type) + 2 - (erased.end - erased.start)
    start = max(0, at + shift - _REACH)
    end = at + shift + length + _REACH if span is not None else 2 * _REACH
    cut = scrubbed.text[start:end]
    return ("\u2026" if start else "") + " ".join(cut.split()) + ("\u2026" if end < len(scrubbed.text) else "")


def _example(example: Example, source: Source) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": example.id,
        "file": source.files[example.file],
        "line": example.line,
        "baseline": {"outcome": example.baseline[0], "rules": list(example.baseline[1])},
        "new": {"outcome": example.new[0], "rules": list(example.new[1])},
        "excerpt": excerpt(example.text, example.span),
    }
    if example.review is not None:
        item["review"] = example.review
    return item


def _split(counts: Counter[str], kind: str) -> dict[str, int]:
    return {status: counts[f"{kind}:{status}"] for status in REVIEWS}


def _rule(rule_id: str, counts: Counter[str], severities: dict[str, dict[str, str]], compared: bool,
          recorded: bool, reviewed: bool) -> dict[str, Any]:  # fmt: skip
    def both(name: str, baseline_known: bool = True) -> dict[str, int | None]:
        return {
            "baseline": counts[f"{name}_baseline"] if compared and baseline_known else None,
            "new": counts[f"{name}_new"],
        }

    item: dict[str, Any] = {
        "rule": rule_id,
        "severity": {side: severities[side].get(rule_id) for side in SIDES},
        "fired": both("fired"),
        "hits": both("hits", not recorded),
        "suppressed": both("suppressed", not recorded),
    }
    if compared:
        item.update({name: counts[name] for name in ("newly_held", "newly_passed", "gained", "lost")})
    if reviewed:
        item["review"] = {"held": _split(counts, "held")}
        if compared:
            item["review"].update({kind: _split(counts, kind) for kind in ("newly_held", "newly_passed")})
    return item


def build_report(
    total: Partial,
    source: Source,
    policy: tuple[str, Policy],
    baseline: tuple[str, Policy] | None,
    review: dict[str, Any] | None,
) -> dict[str, Any]:
    """Everything but `run`: what was read, both sides' outcomes, the diff, rules, examples."""
    recorded = baseline is None and source.kind == "log"
    compared = baseline is not None or recorded
    severities = {"baseline": policy_rules(baseline[1]) if baseline else {}, "new": policy_rules(policy[1])}
    notes = []
    if source.kind == "log":
        notes.append(
            "a decision log keeps only the first 200 characters of each text, scrubbed of credentials and "
            f"PII, and no conversation: {total.partial_texts} of {total.drafts} drafts were re-checked on such "
            f"an excerpt, {total.context_not_replayed} without the conversation they had"
        )
    if recorded:
        notes.append("the baseline is what the log recorded, decided on the whole text when it was checked")
    for side, chosen in (("new policy", policy[1]), ("baseline", baseline[1] if baseline else None)):
        note = _judge_note(side, chosen)
        if note:
            notes.append(note)
    outcomes = {
        side: {o.value: total.outcomes[side][o.value] for o in Outcome} if side == "new" or compared else None
        for side in SIDES
    }
    changes: dict[str, int] | None = None
    if compared:
        changes = {name: total.changes[name] for name in CHANGES}
        changes["changed_outcome"] = changes["stricter"] + changes["looser"]
        changes["unchanged"] = total.drafts - sum(total.changes[name] for name in CHANGES)
    rule_ids = sorted(set(total.rules) | set(severities["baseline"]) | set(severities["new"]))

    def described(name: str, chosen: Policy) -> dict[str, Any]:
        return {"path": name, "name": chosen.name, "hash": chosen.hash, "rules": len(policy_rules(chosen))}

    return {
        "input": {
            "path": source.path,
            "kind": source.kind,
            "files": list(source.files),
            "lines": total.lines,
            "drafts": total.drafts,
            "bad": total.bad,
            "bad_lines": [{"file": source.files[f], "line": n, "error": e} for f, n, e in total.bad_lines],
            "skipped": dict(sorted(total.skipped.items())),
            "torn": total.torn,
            "partial_texts": total.partial_texts,
            "context_not_replayed": total.context_not_replayed,
            "notes": notes,
        },
        "policy": described(*policy),
        "baseline": {"kind": "policy", **described(*baseline)} if baseline else ({"kind": "recorded"} if recorded else None),
        "outcomes": outcomes,
        "check_errors": {side: total.errors[side] if side == "new" or baseline else None for side in SIDES},
        "changes": changes,
        "rules": [
            _rule(r, total.rules.get(r, Counter()), severities, compared, recorded, review is not None) for r in rule_ids
        ],
        "examples": {
            kind: [_example(e, source) for e in total.examples.get(kind, [])] for kind in CHANGES
        } if compared else None,
        "review": None if review is None else {
            **review,
            "held": _split(total.reviews, "held"),
            **({kind: _split(total.reviews, kind) for kind in ("newly_held", "newly_passed")} if compared else {}),
        },
    }  # fmt: skip


# kinds whose every call goes to a hosted or local model server: billed, rate-limited,
# and not bound to answer twice the same way
_MODEL_KINDS = frozenset({"openai", "anthropic"})


def _judge_note(side: str, chosen: Policy | None) -> str | None:
    """What a backtest of a policy with a judge costs: the judge is asked, as in service."""
    judge = chosen.judge if chosen is not None else None
    if judge is None or judge.kind == "none" or judge.when == "never":
        return None
    asked = "every draft" if judge.when == "always" else "every draft the screen saw a hit in"
    article = "an" if judge.kind[0] in "aeiou" else "a"
    note = f"the {side} has {article} {judge.kind} judge (when: {judge.when}): {asked} is judged, as in service"
    if judge.kind in _MODEL_KINDS:
        note += (
            "; each is a call to the model server (billed and rate-limited), and a model that does not "
            "answer the same way twice makes two runs differ"
        )
    return note
