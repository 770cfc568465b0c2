"""The policy file: its schema, its loader and its hash (docs/policy.md)."""

from redline.policy.load import load_policy, parse_policy
from redline.policy.schema import Policy, json_schema, policy_hash

__all__ = ["Policy", "json_schema", "load_policy", "parse_policy", "policy_hash"]
