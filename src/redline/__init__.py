"""redline: a policy gate for AI agents.

    from redline import Gate, load_policy
    gate = Gate(load_policy("policy.yaml"))
    decision = gate.check("Your refund is approved.")
    for event in gate.stream(chunks):  # release sentence by sentence; last, the decision
        ...
    decision = gate.decide("refund_approval", {"amount": 18, "currency": "USD", ...})
    text = TextAnalysis(draft)  # one text, several policies: the text-only work done once
    current, proposed = gate.check(text), other_gate.check(text)
"""

from redline.decide.gate import Gate
from redline.decide.stream import StreamEvent, TextStream
from redline.errors import (
    ActionInputError,
    DomainError,
    PolicyError,
    RedlineError,
    SuiteError,
    UnknownDomain,
)
from redline.policy import Policy, json_schema, load_policy, parse_policy
from redline.screen.analysis import TextAnalysis
from redline.types import (
    Cue,
    Decision,
    Finding,
    Outcome,
    RiskLevel,
    Severity,
    Status,
    TextSignals,
)

__version__ = "0.1.0"

__all__ = [
    "ActionInputError",
    "Cue",
    "Decision",
    "DomainError",
    "Finding",
    "Gate",
    "Outcome",
    "Policy",
    "PolicyError",
    "RedlineError",
    "RiskLevel",
    "Severity",
    "Status",
    "StreamEvent",
    "SuiteError",
    "TextAnalysis",
    "TextSignals",
    "TextStream",
    "UnknownDomain",
    "__version__",
    "json_schema",
    "load_policy",
    "parse_policy",
]
