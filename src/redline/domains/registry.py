"""Action domains by name: the four built in, plugins, and threshold-only YAML files.

    registry = DomainRegistry.load(yaml_dir=Path("policies/domains"))
    registry.get("refund_approval")

A plugin is a Python package that declares an entry point in the group
`redline.domains` whose name is the domain's name and whose object is a `Domain`
subclass (or instance):

    [project.entry-points."redline.domains"]
    vendor_payment = "acme_redline.vendor:VendorPayment"

Validate, then construct: every domain is checked when it is added (names, weights,
thresholds, fields, and that each seeded scenario fits the input model), and a bad one
is a DomainError naming where it came from and the fix, never a half-loaded registry.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from pydantic import ValidationError

from redline.domains.base import NAME, Domain
from redline.errors import DomainError, UnknownDomain
from redline.types import Outcome

ENTRY_POINT_GROUP = "redline.domains"
_RESERVED_SIGNALS = frozenset({"evidence", "text"})


def builtin_domains() -> list[Domain]:
    from redline.domains.content_moderation import ContentModeration
    from redline.domains.deploy_gate import DeployGate
    from redline.domains.refund_approval import RefundApproval
    from redline.domains.ticket_triage import TicketTriage

    return [RefundApproval(), TicketTriage(), DeployGate(), ContentModeration()]


class DomainRegistry:
    """Domains by name. Read-only once built, so one registry is shared by threads."""

    def __init__(self, domains: Iterable[Domain] = ()) -> None:
        self._by_name: dict[str, Domain] = {}
        for domain in domains:
            self.add(domain)

    @classmethod
    def load(cls, *, yaml_dir: Path | None = None, plugins: bool = True) -> DomainRegistry:
        """The built-in domains, the installed plugins and the YAML files in `yaml_dir`."""
        registry = cls(builtin_domains())
        if plugins:
            for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
                registry.add(_from_entry_point(point))
        if yaml_dir is not None:
            from redline.domains.yaml_domain import load_yaml_domains

            for domain in load_yaml_domains(yaml_dir):
                registry.add(domain)
        return registry

    @classmethod
    def default(cls) -> DomainRegistry:
        """The built-in and plugin domains, loaded once per process."""
        return _default()

    def add(self, domain: Domain) -> None:
        check_domain(domain)
        if domain.name in self._by_name:
            other = self._by_name[domain.name]
            raise DomainError(
                f"two domains are named {domain.name!r}: {other.source} and {domain.source}. "
                "Fix: rename one of them (built-in names are taken)",
                path=domain.source,
            )
        self._by_name[domain.name] = domain

    def get(self, name: str) -> Domain:
        found = self._by_name.get(name) if isinstance(name, str) else None
        if found is None:
            raise UnknownDomain(str(name), self.names())
        return found

    def names(self) -> list[str]:
        return sorted(self._by_name)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __iter__(self) -> Iterator[Domain]:
        return iter(self._by_name[n] for n in self.names())

    def __len__(self) -> int:
        return len(self._by_name)


@lru_cache(maxsize=1)
def _default() -> DomainRegistry:
    return DomainRegistry.load()


def _from_entry_point(point: EntryPoint) -> Domain:
    where = f"entry point {point.name} = {point.value} (group {ENTRY_POINT_GROUP})"
    try:
        loaded = point.load()
    except Exception as exc:
        raise DomainError(
            f"{where} cannot be imported: {type(exc).__name__}: {exc}. "
            "Fix: install the package that provides it, or uninstall the plugin",
            path=where,
        ) from exc
    try:
        domain = loaded() if isinstance(loaded, type) and issubclass(loaded, Domain) else loaded
    except Exception as exc:
        raise DomainError(f"{where}: the domain class cannot be built: {exc}", path=where) from exc
    if not isinstance(domain, Domain):
        raise DomainError(
            f"{where} is a {type(loaded).__name__}, not a redline Domain. "
            "Fix: point the entry point at a subclass of redline.domains.Domain",
            path=where,
        )
    if domain.name != point.name:
        raise DomainError(
            f"{where} defines the domain {domain.name!r}; the entry point's name must be the "
            f"domain's name. Fix: name the entry point {domain.name}",
            path=where,
        )
    domain.source = where
    return domain


def check_domain(domain: Domain) -> None:
    """A DomainError for the first thing that makes `domain` unusable."""

    def fail(problem: str) -> DomainError:
        label = getattr(domain, "name", type(domain).__name__)
        return DomainError(f"domain {label!r} ({domain.source}): {problem}", path=domain.source)

    name = getattr(domain, "name", None)
    if not isinstance(name, str) or not NAME.match(name):
        raise fail("its name must be lower-case letters, digits and _ , starting with a letter (refund_approval)")
    fields = domain.Input.model_fields
    for label, value in (("base_confidence_min", domain.base_confidence_min), ("base_risk_max", domain.base_risk_max)):
        if not _unit(value):
            raise fail(f"{label} is {value!r}; it must be a number in [0, 1]")
    seen: set[str] = set()
    for spec in domain.signals:
        if spec.name in seen or spec.name in _RESERVED_SIGNALS:
            raise fail(f"signal {spec.name!r} is named twice (evidence and text are the engine's)")
        if spec.kind not in ("confidence", "risk"):
            raise fail(f"signal {spec.name!r} has kind {spec.kind!r}; it is confidence or risk")
        if not _unit(spec.weight) or spec.weight == 0:
            raise fail(f"signal {spec.name!r} has weight {spec.weight!r}; it must be in (0, 1]")
        seen.add(spec.name)
    for label, weight in (("evidence_weight", domain.evidence_weight), ("text_weight", domain.text_weight)):
        if not _unit(weight):
            raise fail(f"{label} is {weight!r}; it must be in [0, 1]")
    rules = [r.id for r in domain.hard_rules]
    if len(set(rules)) != len(rules):
        raise fail("two hard rules have the same id")
    for rule in domain.hard_rules:
        if rule.outcome not in (Outcome.REFUSE, Outcome.ESCALATE):
            raise fail(f"hard rule {rule.id!r} yields {rule.outcome.value}; a hard rule yields refuse or escalate")
    for label, names in (("required", domain.required), ("evidence", list(domain.evidence)), ("text_fields", domain.text_fields)):
        unknown = [n for n in names if n not in fields]
        if unknown:
            raise fail(f"{label} names {unknown}, which the input model does not have")
    overlap = set(domain.text_fields) & (set(domain.required) | set(domain.evidence))
    if overlap:
        raise fail(f"free text {sorted(overlap)} cannot be evidence: text only feeds the text signal")
    if any(not _unit(w) for w in domain.evidence.values()):
        raise fail("every evidence weight must be in [0, 1]")
    for scenario in domain.scenarios:
        try:
            domain.Input.model_validate(dict(scenario.input))
        except ValidationError as exc:
            raise fail(f"scenario {scenario.name!r} does not fit the input model: {exc.errors()[0]['msg']}") from exc


def _unit(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and 0 <= value <= 1
