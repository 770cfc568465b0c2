"""Who the conversation is with, computed by the gate, never taken from the text.

As docs/policy.md (the conversation) says: a user message is `verified_operator` when its
`sender_uid` equals the topic's `operator_uid`; the ask-license mode of the window is
`verified-operator` (a bound topic and the ask came from its operator), `single-sender`
(an unbound topic whose user rows all carry one uid) or `weak`; a uid-less user row in an unbound topic makes the
whole window `weak` (fail closed). Only `recipient: primary` may be licensed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from redline.review.ask import Ask, find_ask

MAX_MESSAGES = 50
MAX_MESSAGE_CHARS = 20_000
Mode = Literal["verified-operator", "single-sender", "weak"]


class MessageIn(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    role: Literal["user", "assistant", "system", "tool"]
    sender_uid: str | None = None
    text: str = ""


class ConversationIn(BaseModel):
    """The `context` argument of a check, validated; unknown keys are ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    operator_uid: str | None = None
    recipient: str = Field(
        "primary",
        pattern=r"^[A-Za-z0-9_.:-]{1,64}$",
        description="`primary` (the only licensable recipient), `third_party`, or a short id of another recipient",
    )
    messages: tuple[MessageIn, ...] = ()


Recipient = Literal["primary", "third_party"]


@dataclass(frozen=True, slots=True)
class PrincipalFacts:
    mode: Mode
    bound: bool
    recipient: Recipient  # any recipient id but `primary` is recorded as a third party
    messages: int
    user_messages: int
    verified_operator_messages: int
    uidless_user_messages: int
    truncated: bool
    ask: Ask | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "bound": self.bound,
            "recipient": self.recipient,
            "messages": self.messages,
            "user_messages": self.user_messages,
            "verified_operator_messages": self.verified_operator_messages,
            "uidless_user_messages": self.uidless_user_messages,
            "truncated": self.truncated,
            "ask": self.ask.to_dict() if self.ask else None,
        }


def principal_facts(raw: Any) -> PrincipalFacts:
    """The facts of a conversation; raises pydantic.ValidationError on a malformed one."""
    conversation = raw if isinstance(raw, ConversationIn) else ConversationIn.model_validate(raw)
    messages = conversation.messages
    truncated = len(messages) > MAX_MESSAGES
    window = messages[-MAX_MESSAGES:]
    operator = conversation.operator_uid
    bound = operator is not None
    users = [(i, m) for i, m in enumerate(window) if m.role == "user"]
    uids = {m.sender_uid for _, m in users}
    uidless = sum(m.sender_uid is None for _, m in users)
    verified = sum(bound and m.sender_uid == operator for _, m in users)

    if bound:
        qualified = {operator}
    elif users and uidless == 0 and len(uids) == 1:
        qualified = uids
    else:
        qualified = set()
    ask: Ask | None = None
    for index, message in reversed(users):  # the latest ask from a qualified sender counts
        text = message.text[:MAX_MESSAGE_CHARS]
        truncated = truncated or len(message.text) > MAX_MESSAGE_CHARS
        if message.sender_uid in qualified:
            ask = find_ask(text, index)
            if ask is not None:
                break
    if bound:
        mode: Mode = "verified-operator" if ask is not None else "weak"
    else:
        mode = "single-sender" if qualified else "weak"
    return PrincipalFacts(
        mode=mode,
        bound=bound,
        recipient="primary" if conversation.recipient == "primary" else "third_party",
        messages=len(window),
        user_messages=len(users),
        verified_operator_messages=verified,
        uidless_user_messages=uidless,
        truncated=truncated,
        ask=ask,
    )
