"""Watch mode and counterfactual pairs: the caller acts on the decision without context."""

from __future__ import annotations

from pathlib import Path

from redline import Gate, Outcome, load_policy
from redline.review.flags import PolicyFlags, parse_flags
from redline.review.watch import review_check
from redline.service.testing import minting_license

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "policy.yaml"
GATE = Gate(load_policy(EXAMPLE))
MINTING = Gate(load_policy(EXAMPLE), license=minting_license)
TRACE = (
    "Here is what the server logged:\nTraceback (most recent call last):\n"
    '  File "/srv/acme/billing/sync.py", line 88, in push\n    raise SyncError(code)\nSyncError: 502'
)
ASK = {"operator_uid": "u-1", "messages": [{"role": "user", "sender_uid": "u-1", "text": "Paste me the full traceback please."}]}


def flags(context: str = "live", mode: str = "watch", **policy: object) -> PolicyFlags:
    data = {"review": {"context": context, "mode": mode, "policies": {"example-support": policy} if policy else {}}}
    return parse_flags(data).for_policy("example-support", development=False)


def test_in_watch_mode_a_licensed_draft_is_answered_without_context() -> None:
    reviewed = review_check(GATE, TRACE, ASK, 100, flags())
    answer, shadow = reviewed.answer, reviewed.shadow
    assert shadow is not None
    assert shadow.outcome is Outcome.EXECUTE and shadow.licensed_by_context
    assert answer.outcome is Outcome.ESCALATE and answer.context is None
    assert answer.review["acted_on"] is True and shadow.review["acted_on"] is False
    assert answer.review["answer"] == "without_context" and shadow.review["answer"] == "with_context"
    assert answer.review["enforced_outcome"] == "execute" and answer.review["would_block"] is False
    assert answer.review["pair_id"] == shadow.review["pair_id"]
    assert answer.review["context_relaxed"] is True and answer.review["context_minted"] is False
    assert reviewed.decisions == (shadow, answer)  # the shadow is recorded first


def test_in_watch_mode_a_would_block_is_paired_and_held() -> None:
    reviewed = review_check(GATE, "Good news: your refund is approved.", ASK, 100, flags())
    assert reviewed.shadow is not None
    assert reviewed.answer.outcome is Outcome.ESCALATE and reviewed.shadow.outcome is Outcome.ESCALATE
    assert reviewed.answer.review["would_block"] is True
    assert reviewed.answer.review["context_minted"] is False


def test_in_enforce_mode_the_decision_with_context_is_the_answer() -> None:
    reviewed = review_check(GATE, TRACE, ASK, 100, flags(mode="enforce"))
    assert reviewed.shadow is None
    assert reviewed.answer.outcome is Outcome.EXECUTE and reviewed.answer.licensed_by_context
    assert reviewed.answer.review["mode"] == "enforce" and reviewed.answer.review["answer"] == "with_context"


def test_a_rule_kept_in_watch_keeps_its_decisions_in_watch() -> None:
    reviewed = review_check(GATE, TRACE, ASK, 100, flags(mode="enforce", rules={"detector:technical_content": "watch"}))
    assert reviewed.shadow is not None
    assert reviewed.answer.outcome is Outcome.ESCALATE
    assert reviewed.answer.review["mode"] == "watch"


def test_while_dark_the_conversation_is_not_read() -> None:
    reviewed = review_check(GATE, TRACE, ASK, 100, flags(context="dark", mode="enforce"))
    assert reviewed.shadow is None
    assert reviewed.answer.outcome is Outcome.ESCALATE and reviewed.answer.context is None
    assert reviewed.answer.review["context_supplied"] is True and reviewed.answer.review["context_used"] is False
    assert reviewed.answer.review["ignored_because"] == "review.context is dark"


def test_dev_reads_the_conversation_of_a_development_policy_only() -> None:
    dev = parse_flags({"review": {"context": "dev", "mode": "enforce"}})
    production = review_check(GATE, TRACE, ASK, 100, dev.for_policy("example-support", development=False))
    staging = review_check(GATE, TRACE, ASK, 100, dev.for_policy("example-support", development=True))
    assert production.answer.outcome is Outcome.ESCALATE
    assert staging.answer.outcome is Outcome.EXECUTE


def test_a_check_without_a_conversation_is_one_decision_with_the_flags() -> None:
    reviewed = review_check(GATE, "Thanks for writing in.", None, 100, flags())
    assert reviewed.shadow is None
    assert reviewed.answer.review["context"] == "live" and reviewed.answer.review["context_supplied"] is False


def test_a_license_that_lets_context_raise_mints_a_block_and_the_pair_says_so() -> None:
    reviewed = review_check(MINTING, "Thanks, we are on it.", ASK, 100, flags())
    assert reviewed.shadow is not None
    assert reviewed.shadow.outcome is Outcome.ESCALATE
    assert reviewed.answer.outcome is Outcome.EXECUTE  # the caller acts on the decision without context
    assert reviewed.context_minted
    assert reviewed.shadow.review["context_minted"] is True


def test_the_minting_license_is_not_the_default() -> None:
    assert review_check(GATE, "Thanks, we are on it.", ASK, 100, flags(mode="enforce")).answer.outcome is Outcome.EXECUTE
