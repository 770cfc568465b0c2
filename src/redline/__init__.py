"""redline: a policy gate for AI agents.

    from redline import Gate, load_policy
    gate = Gate(load_policy("policy.yaml"))
    decision = gate.check("Your refund is approved.")
"""

from redline.decide.gate import Gate
from redline.errors import PolicyError, RedlineError, SuiteError
from redline.policy import Policy, json_schema, load_policy, parse_policy
from redline.types import (
    Cue,
    Decision,
    Finding,
    Outcome,
    RiskLevel,
    Severity,
    Status,
)

__version__ = "0.1.0"

__all__ = [
    "Cue",
    "Decision",
    "Finding",
    "Gate",
    "Outcome",
    "Policy",
    "PolicyError",
    "RedlineError",
    "RiskLevel",
    "Severity",
    "Status",
    "SuiteError",
    "__version__",
    "json_schema",
    "load_policy",
    "parse_policy",
]
