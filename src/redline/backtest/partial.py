"""What one chunk of a backtest adds up to, and how two such sums merge.

Every field merges by addition, or by keeping the first few items in input order, so the
total is the same whichever worker checked which chunk and in whatever order the chunks
came back: that is what makes the engines' outputs identical byte for byte.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

EXAMPLES = 5  # kept per kind of change
BAD_KEPT = 20  # unreadable lines listed; all are counted
CHANGES = ("newly_held", "newly_passed", "stricter", "looser", "rules_changed")
REVIEWS = ("rejected", "edited", "approved", "unreviewed")


@dataclass(frozen=True, slots=True)
class Example:
    file: int
    line: int
    id: Any
    change: str
    baseline: tuple[str, tuple[str, ...]]  # outcome, rules fired
    new: tuple[str, tuple[str, ...]]
    text: str  # shown scrubbed, around `span`
    span: tuple[int, int] | None  # the first finding of the side that holds it
    review: str | None


@dataclass(slots=True)
class Partial:
    seq: int = -1  # the chunk this came from; -1 for a merged total
    version: str = ""  # redline's version in the worker that made it
    lines: int = 0  # input lines read, blank ones included
    drafts: int = 0
    bad: int = 0
    bad_lines: list[tuple[int, int, str]] = field(default_factory=list)  # (file, line, error)
    skipped: Counter[str] = field(default_factory=Counter)
    torn: int = 0
    partial_texts: int = 0
    context_not_replayed: int = 0
    outcomes: dict[str, Counter[str]] = field(default_factory=lambda: {"baseline": Counter(), "new": Counter()})
    errors: Counter[str] = field(default_factory=Counter)  # check_error decisions, by side
    changes: Counter[str] = field(default_factory=Counter)
    rules: dict[str, Counter[str]] = field(default_factory=dict)
    reviews: Counter[str] = field(default_factory=Counter)  # "KIND:STATUS" -> drafts
    examples: dict[str, list[Example]] = field(default_factory=dict)
    diff: list[str] = field(default_factory=list)  # JSON lines for --out, in input order

    def rule(self, rule_id: str) -> Counter[str]:
        found = self.rules.get(rule_id)
        if found is None:
            found = self.rules[rule_id] = Counter()
        return found

    def merge(self, other: Partial) -> None:
        """Add `other` into this total (its diff lines are the caller's to write)."""
        self.lines += other.lines
        self.drafts += other.drafts
        self.bad += other.bad
        self.bad_lines = sorted(self.bad_lines + other.bad_lines)[:BAD_KEPT]
        self.skipped.update(other.skipped)
        self.torn += other.torn
        self.partial_texts += other.partial_texts
        self.context_not_replayed += other.context_not_replayed
        for side, counts in other.outcomes.items():
            self.outcomes[side].update(counts)
        self.errors.update(other.errors)
        self.changes.update(other.changes)
        for rule_id, counts in other.rules.items():
            self.rule(rule_id).update(counts)
        self.reviews.update(other.reviews)
        for kind, examples in other.examples.items():
            merged = self.examples.get(kind, []) + examples
            merged.sort(key=lambda e: (e.file, e.line))
            self.examples[kind] = merged[:EXAMPLES]
