"""An Expert's edit goes through the gate before it may be sent.

The edited text is checked against the item's policy (its current version) and that
decision is recorded like any other (a log line and an audit row, never a new queue
item). Then, by outcome:

- `refuse` (a key, a password): the edit is refused and not kept; the item stays pending
  and records the refused check;
- `escalate` (a red line, PII): the edit is held for a second look; the item stays
  pending with the edit and the new findings (`approve` then accepts that edit);
- anything else: the item is `edited` and its `final_text` is the edit. The auto-send
  bar does not apply: the Expert is the human review it waits for.

The item records both decisions: `decision_id` (the draft's) and `edit_decision_id`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from redline.service.state import Service
from redline.store.records import QueueItem
from redline.types import Decision, Outcome


class EditVerdict(str, enum.Enum):
    EDITED = "edited"
    HELD = "held"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class EditResult:
    verdict: EditVerdict
    item: QueueItem
    check: Decision  # the gate's decision on the edited text


class PolicyGone(Exception):
    """The item's policy is no longer served, so the edit cannot be checked (nor sent)."""


def edit_item(svc: Service, item_id: int, expert: str, text: str, note: str | None = None) -> EditResult:
    """Check `text` against the policy of queue item `item_id`, record the check, and apply
    the edit as its outcome allows. Raises the store's NotFoundError / ConflictError, and
    PolicyGone; a check that cannot be recorded raises the service's 503."""
    item = svc.store.get_item(item_id)
    row = svc.store.get(item.decision_id)
    gate = svc.policies.get(row.policy_name) if row is not None else None
    if gate is None:
        raise PolicyGone(
            f"queue item {item_id}'s policy {row.policy_name if row else '?'!r} is not loaded, so the "
            "edit cannot be checked; load the policy again, or reject the item"
        )
    check = gate.check(text)
    check = svc.record(check, text, queue=False)
    stamp = (check.id, check.outcome)
    if check.outcome is Outcome.REFUSE:
        return EditResult(EditVerdict.REFUSED, svc.store.hold_edit(item_id, None, check=stamp), check)
    if check.outcome is Outcome.ESCALATE:
        return EditResult(EditVerdict.HELD, svc.store.hold_edit(item_id, text, check=stamp), check)
    return EditResult(EditVerdict.EDITED, svc.store.edit(item_id, expert, text, check=stamp, note=note), check)
