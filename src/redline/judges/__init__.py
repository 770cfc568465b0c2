"""The judge layer: semantic verdicts behind one protocol (docs/judges.md).

`Judge` is the protocol the gate takes; the built-in kinds (`heuristic`, `embedding`,
`openai`, `anthropic`) live one per module and are imported only when a policy asks for
them, so their SDKs and runtimes stay optional extras.
"""

from redline.judges.base import (
    CallStatus,
    Evidence,
    Judge,
    JudgeContext,
    JudgeRule,
    JudgeVerdict,
    Message,
    RuleVerdict,
    ScreenRuleState,
    Verdict,
)
from redline.judges.guard import GuardedJudge
from redline.judges.registry import build_judge, register

__all__ = [
    "CallStatus",
    "Evidence",
    "GuardedJudge",
    "Judge",
    "JudgeContext",
    "JudgeRule",
    "JudgeVerdict",
    "Message",
    "RuleVerdict",
    "ScreenRuleState",
    "Verdict",
    "build_judge",
    "register",
]
