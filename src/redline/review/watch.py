"""Watch mode and the counterfactual pair (docs/review-pipeline.md).

A check that carries a conversation the flags let the gate read is decided WITH it. In
`enforce` mode that decision is the answer. In `watch` mode it is recorded in full (with
`would_block` and the outcome enforcement would have returned), the same text is decided
again WITHOUT the conversation, and that second decision is the answer: the caller acts
on what the gate did before context could relax anything. The two are a counterfactual
pair with one `pair_id`. The license is one-way, so the decision with context can never
be the more restrictive of the two; a pair where it is records a *context-minted block*.

Every decision leaves here with a `review` block: the flags in force, whether the
conversation was read, whether the caller acts on this decision, and the pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

from redline.decide.ids import new_decision_id
from redline.review.flags import PolicyFlags
from redline.screen.analysis import TextAnalysis
from redline.types import Decision, Outcome, with_review

BLOCKS = frozenset({Outcome.ESCALATE, Outcome.REFUSE})  # a rule fired: held for a reason, not for confidence
Answer = Literal["single", "with_context", "without_context"]


class Checker(Protocol):
    """What a check needs of the gate (`redline.Gate` is one)."""

    def check(self, text: str | TextAnalysis, context: Any = None, confidence: float | None = None) -> Decision: ...


@dataclass(frozen=True, slots=True)
class Reviewed:
    """The decision the caller acts on and, in watch mode, the one made with context."""

    answer: Decision
    shadow: Decision | None = None  # recorded, never acted on

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """What to record, in order: the shadow first, so its pair is complete when the answer is."""
        return (self.shadow, self.answer) if self.shadow is not None else (self.answer,)

    @property
    def context_minted(self) -> bool:
        return bool(self.answer.review and self.answer.review.get("context_minted"))


def is_block(outcome: Outcome) -> bool:
    return outcome in BLOCKS


def review_block(
    flags: PolicyFlags,
    *,
    kind: str = "check",
    supplied: bool,
    used: bool,
    mode: str,
    acted_on: bool,
    answer: Answer,
    enforced: Outcome,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "kind": kind,
        "context": flags.context,
        "mode": mode,
        "source": flags.source,
        "context_supplied": supplied,
        "context_used": used,
        "acted_on": acted_on,
        "answer": answer,
        "would_block": is_block(enforced),
        "enforced_outcome": enforced.value,
        **extra,
    }


def stamp(decision: Decision, review: dict[str, Any]) -> Decision:
    return with_review(decision, review)


def stamp_plain(decision: Decision, flags: PolicyFlags, *, kind: str = "check", supplied: bool = False) -> Decision:
    """`decision` as made without a conversation, with the flags that were in force."""
    review = review_block(
        flags, kind=kind, supplied=supplied, used=False, mode=flags.mode, acted_on=True, answer="single",
        enforced=decision.outcome,
    )  # fmt: skip
    if supplied and not flags.uses_context:
        review["ignored_because"] = f"review.context is {flags.context}"
    return stamp(decision, review)


def review_check(
    gate: Checker, text: str | TextAnalysis, context: Any, confidence: float | None, flags: PolicyFlags
) -> Reviewed:
    """Decide `text` (or its `TextAnalysis`) as the flags say; never raises (the gate never does)."""
    supplied = context is not None
    if not supplied or not flags.uses_context:
        return Reviewed(stamp_plain(gate.check(text, None, confidence), flags, supplied=supplied))
    with_context = gate.check(text, context, confidence)
    mode = flags.mode_for(with_context.rules_fired)
    if mode == "enforce":
        review = review_block(
            flags, supplied=True, used=True, mode=mode, acted_on=True, answer="with_context",
            enforced=with_context.outcome,
        )  # fmt: skip
        return Reviewed(stamp(with_context, review))
    without = gate.check(text, None, confidence)
    pair_id = "pair-" + new_decision_id()
    minted = with_context.outcome.rank > without.outcome.rank
    pair: dict[str, Any] = {
        "pair_id": pair_id,
        "with_context_id": with_context.id,
        "without_context_id": without.id,
        "with_context_outcome": with_context.outcome.value,
        "without_context_outcome": without.outcome.value,
        "context_minted": minted,
        "context_relaxed": with_context.outcome.rank < without.outcome.rank,
    }
    def side(used: bool, answer: Answer) -> dict[str, Any]:
        return review_block(
            flags, supplied=True, used=used, mode=mode, acted_on=not used, answer=answer,
            enforced=with_context.outcome, **pair,
        )  # fmt: skip

    return Reviewed(stamp(without, side(False, "without_context")), stamp(with_context, side(True, "with_context")))
