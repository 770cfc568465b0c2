"""What each rule of a policy guards, and the rules that guard nothing.

A red line or boundary with no `terms`, no `patterns`, no delegated detector and no
topic derivable from its text would load, run and protect nothing, silently: such a
policy is refused, naming the rule and the fix.
"""

from __future__ import annotations

from redline.policy.schema import Policy
from redline.policy.topics import derive_topics

__all__ = ["Unguarded", "unguarded_rules"]

Loc = tuple[str | int, ...]


class Unguarded(tuple[Loc, str, str]):
    """(where the rule is in the policy, the rule id as findings name it, the message)."""

    @property
    def loc(self) -> Loc:
        return self[0]

    @property
    def rule_id(self) -> str:
        return self[1]

    @property
    def message(self) -> str:
        return self[2]

    @property
    def key(self) -> str:
        """The dotted key of the rule: ``skills[0].red_lines[1].rule``."""
        return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.loc).lstrip(".")


def _message(rule_id: str, text: str, has_terms_key: bool) -> str:
    shown = text if len(text) <= 80 else text[:77] + "..."
    why = ("its `terms` list is empty and it has no `patterns`" if has_terms_key else
           "it has no `terms` or `patterns`, and its text names no topic the screen can match")
    return (
        f"rule {rule_id} guards nothing: {why} ({shown!r}). Fix: add `terms: [...]` with the "
        "words a draft would use (e.g. `terms: [refund, money back]`), or reword the rule to "
        "name what it guards"
    )


def unguarded_rules(policy: Policy) -> list[Unguarded]:
    """Every rule of `policy` that would match nothing."""
    found: list[Unguarded] = []
    for s, skill in enumerate(policy.skills):
        for r, line in enumerate(skill.red_lines):
            rule_id = f"{skill.slug}:{line.id}"
            if line.patterns:
                continue
            if line.terms is not None:
                if not line.terms:
                    found.append(Unguarded((("skills", s, "red_lines", r, "terms"), rule_id, _message(rule_id, line.rule, True))))
                continue
            derived = derive_topics(line.rule)
            if not derived.topics and not derived.detectors:
                found.append(Unguarded((("skills", s, "red_lines", r, "rule"), rule_id, _message(rule_id, line.rule, False))))
    for kind in ("never", "escalate"):
        for index, text in enumerate(getattr(policy.soul.boundaries, kind)):
            derived = derive_topics(text)
            if not derived.topics and not derived.detectors:
                rule_id = f"soul:{kind}:{index}"
                message = _message(rule_id, text, False).replace(
                    "add `terms: [...]` with the words a draft would use (e.g. `terms: [refund, money back]`), or reword",
                    "reword the boundary to name what it guards (boundaries take no `terms`), or move it to a red line with `terms`, or reword",
                )
                found.append(Unguarded((("soul", "boundaries", kind, index), rule_id, message)))
    return found
