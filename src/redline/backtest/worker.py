"""The work of a backtest: a chunk of input lines in, a Partial out.

`Checker` is built once per worker process or Ray actor: it compiles the gates of both
policies there (never per chunk) and is then a pure function of the chunk, so every
engine that feeds it the same chunks gets the same partials.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from redline.backtest.inputs import Chunk, Kind
from redline.backtest.partial import BAD_KEPT, EXAMPLES, Example, Partial
from redline.backtest.rows import BadLine, Draft, Skip, corpus_draft, log_draft
from redline.decide.gate import Gate
from redline.decide.resolve import REASON_ERROR
from redline.errors import RedlineError
from redline.policy.schema import Policy
from redline.screen.analysis import TextAnalysis
from redline.types import Decision, Finding, Outcome


@dataclass(frozen=True, slots=True)
class RunSpec:
    """Everything a worker needs, sent to it once (pickled)."""

    kind: Kind
    files: tuple[str, ...]
    policy: Policy
    baseline: Policy | None  # None: the log's recorded decisions, or no baseline (a corpus)
    confidence: float | None  # for rows that carry none
    reviews: Mapping[str, str] | None  # decision id -> approved | edited | rejected (--report)
    diff: bool  # build the lines of --out
    version: str

    @property
    def compares(self) -> bool:
        return self.baseline is not None or self.kind == "log"


@dataclass(frozen=True, slots=True)
class Verdict:
    outcome: Outcome
    rules: tuple[str, ...]  # fired, sorted
    hits: Mapping[str, int]  # findings by rule
    suppressed: Mapping[str, int]
    span: tuple[int, int] | None  # the first finding's
    error: bool


_NONE: Mapping[str, int] = MappingProxyType({})  # shared by every clean verdict


def _by_rule(findings: tuple[Finding, ...]) -> dict[str, int]:
    # a plain dict: a Counter built per draft costs more than the counting
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.rule] = counts.get(finding.rule, 0) + 1
    return counts


def verdict(decision: Decision) -> Verdict:
    if not decision.findings and not decision.suppressed:  # most drafts: skip building counters
        return Verdict(decision.outcome, (), _NONE, _NONE, None, decision.reason == REASON_ERROR)
    hits = _by_rule(decision.findings) if decision.findings else _NONE
    return Verdict(
        decision.outcome,
        tuple(sorted(hits)) if decision.action is None else tuple(decision.rules_fired),
        hits,
        _by_rule(decision.suppressed) if decision.suppressed else _NONE,
        (decision.findings[0].start, decision.findings[0].end) if decision.findings else None,
        decision.reason == REASON_ERROR,
    )


def change_of(base: Verdict, new: Verdict) -> str | None:
    """newly_held, newly_passed, stricter, looser, rules_changed or None (the same)."""
    if base.outcome is new.outcome:
        return "rules_changed" if base.rules != new.rules else None
    if base.outcome is Outcome.EXECUTE:
        return "newly_held"
    if new.outcome is Outcome.EXECUTE:
        return "newly_passed"
    return "stricter" if new.outcome.rank > base.outcome.rank else "looser"


# built once: json.dumps with options builds a new encoder per call
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_ENCODE_ASCII = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def _json_line(row: dict[str, object]) -> str:
    line = _ENCODE(row)
    if not line.isascii():
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate in an id: UTF-8 cannot carry it
            line = _ENCODE_ASCII(row)
    return line + "\n"


class Checker:
    def __init__(self, spec: RunSpec) -> None:
        self.spec = spec
        self.new = Gate(spec.policy)
        self.base = Gate(spec.baseline) if spec.baseline is not None else None
        for gate, policy in ((self.new, spec.policy), (self.base, spec.baseline)):
            if gate is not None and policy is not None and gate.policy_hash != policy.hash:
                raise RedlineError(f"policy {policy.name!r} compiled to another hash in a worker: mixed redline versions?")
        self._read = log_draft if spec.kind == "log" else corpus_draft

    def __call__(self, chunk: Chunk) -> Partial:
        part = Partial(seq=chunk.seq, version=self.spec.version)
        lines = chunk.data.split(b"\n")
        torn_at = len(lines) - 1 if chunk.ends_file and lines[-1] else -1  # a last line with no newline
        for offset, raw in enumerate(lines):
            if not raw.strip():
                continue
            number = chunk.first_line + offset
            try:
                draft = self._read(raw, self.spec.confidence)
            except Skip as skip:
                part.skipped[skip.reason] += 1
                continue
            except BadLine as bad:
                if offset == torn_at and self.spec.kind == "log":
                    part.torn += 1  # what a crash or a full disk leaves: counted, not an error
                    continue
                part.bad += 1
                part.bad_lines.append((chunk.file, number, str(bad)))
                continue
            self._one(part, chunk.file, number, draft)
        del part.bad_lines[BAD_KEPT:]
        part.lines = len(lines) - (lines[-1] == b"")
        return part

    def _one(self, part: Partial, file: int, line: int, draft: Draft) -> None:
        part.drafts += 1
        part.partial_texts += draft.partial
        part.context_not_replayed += draft.had_context
        # both policies read one analysis of the text: what depends on the text alone is done once
        text = TextAnalysis(draft.text)
        new = verdict(self.new.check(text, context=draft.context, confidence=draft.confidence))
        self._count(part, "new", new)
        base: Verdict | None = None
        if self.base is not None:
            base = verdict(self.base.check(text, context=draft.context, confidence=draft.confidence))
            self._count(part, "baseline", base)
        elif draft.recorded is not None:
            base = Verdict(draft.recorded.outcome, draft.recorded.rules, _NONE, _NONE, None, False)
            part.outcomes["baseline"][base.outcome.value] += 1
            for rule_id in base.rules:
                part.rule(rule_id)["fired_baseline"] += 1
        review = None
        if self.spec.reviews is not None:
            review = self.spec.reviews.get(str(draft.id), "unreviewed") if draft.id is not None else "unreviewed"
            if new.outcome is not Outcome.EXECUTE:
                part.reviews[f"held:{review}"] += 1
                for rule_id in new.rules:
                    part.rule(rule_id)[f"held:{review}"] += 1
        if base is None:
            return
        change = change_of(base, new)
        if change is None:
            return
        part.changes[change] += 1
        for rule_id in set(new.rules) - set(base.rules):
            part.rule(rule_id)["gained"] += 1
        for rule_id in set(base.rules) - set(new.rules):
            part.rule(rule_id)["lost"] += 1
        if change in ("newly_held", "newly_passed"):
            responsible = new.rules if change == "newly_held" else base.rules
            for rule_id in responsible:
                part.rule(rule_id)[change] += 1
                if review is not None:
                    part.rule(rule_id)[f"{change}:{review}"] += 1
            if review is not None:
                part.reviews[f"{change}:{review}"] += 1
        kept = part.examples.setdefault(change, [])
        if len(kept) < EXAMPLES:
            holder = base if change in ("newly_passed", "looser") else new
            kept.append(
                Example(file, line, draft.id, change, (base.outcome.value, base.rules), (new.outcome.value, new.rules),
                        draft.text, holder.span, review)  # fmt: skip
            )
        if self.spec.diff:
            row: dict[str, object] = {
                "id": draft.id,
                "file": self.spec.files[file],
                "line": line,
                "change": change,
                "baseline": {"outcome": base.outcome.value, "rules": list(base.rules)},
                "new": {"outcome": new.outcome.value, "rules": list(new.rules)},
            }
            if draft.partial:
                row["partial"] = True
            if review is not None:
                row["review"] = review
            part.diff.append(_json_line(row))

    @staticmethod
    def _count(part: Partial, side: str, result: Verdict) -> None:
        part.outcomes[side][result.outcome.value] += 1
        if result.error:
            part.errors[side] += 1
        fired, hits, suppressed = _KEYS[side]
        for rule_id, n in result.hits.items():
            counts = part.rule(rule_id)
            counts[fired] += 1
            counts[hits] += n
        for rule_id, n in result.suppressed.items():
            part.rule(rule_id)[suppressed] += n


_KEYS = {side: (f"fired_{side}", f"hits_{side}", f"suppressed_{side}") for side in ("new", "baseline")}
