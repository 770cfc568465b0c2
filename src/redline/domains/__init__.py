"""Action domains: one module per kind of action, and a registry that loads them by name.

Built in: `refund_approval`, `ticket_triage`, `deploy_gate`, `content_moderation`. Add
your own as a `Domain` subclass published under the entry-point group `redline.domains`,
or, for a threshold-only domain, as a YAML file (`redline.domains.yaml_domain`).
"""

from redline.domains.base import (
    ActionInput,
    Domain,
    RuleSpec,
    Scenario,
    SignalSpec,
    Text,
    TextMix,
    When,
    text_field,
)
from redline.domains.registry import ENTRY_POINT_GROUP, DomainRegistry, check_domain

__all__ = [
    "ENTRY_POINT_GROUP",
    "ActionInput",
    "Domain",
    "DomainRegistry",
    "RuleSpec",
    "Scenario",
    "SignalSpec",
    "Text",
    "TextMix",
    "When",
    "check_domain",
    "text_field",
]
