"""`redline decide` and `redline domains`: actions from the command line.

    redline decide refund_approval refund.json          # or - (stdin), --json
    redline domains                                     # names, required fields, scenarios
    redline domains refund_approval --json              # one domain: schema, signals, rules

`decide` exits by outcome (0 execute, 3 ask, 4 defer, 5 escalate, 6 refuse) and with 2
for a usage error: unreadable or malformed JSON, an unknown domain, or input that does
not fit the domain (the message names each field at fault).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from redline.decide.gate import Gate
from redline.domains.registry import DomainRegistry
from redline.errors import ActionInputError, RedlineError, SuiteError, UnknownDomain
from redline.store.log_cli import OUTCOME_STYLE
from redline.terminal import EXIT_CODES, EXIT_HELP, EXIT_USAGE, console, print_error, safe
from redline.types import ActionAssessment, Decision, Outcome

out = console()
err = console(stderr=True)
_DOMAINS_HELP = "A folder of YAML domain files to load beside the built-in and plugin domains."


def _fail(message: str) -> typer.Exit:
    print_error(err, message, soft_wrap=True)
    return typer.Exit(code=EXIT_USAGE)


def _registry(domains_dir: Optional[Path]) -> DomainRegistry:
    return DomainRegistry.load(yaml_dir=domains_dir) if domains_dir is not None else DomainRegistry.default()


def _read_input(source: Optional[str]) -> Any:
    name = "<stdin>" if source in (None, "-") else str(source)
    try:
        raw = sys.stdin.buffer.read() if name == "<stdin>" else Path(name).read_bytes()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SuiteError(f"{name}: cannot read the action input ({exc})") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SuiteError(f"{name}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})") from exc


def decide(
    domain: str = typer.Argument(..., help="The action domain (see `redline domains`)."),
    source: Optional[str] = typer.Argument(None, metavar="[FILE|-]", help="JSON object of the action's fields; '-' or nothing reads stdin."),
    as_json: bool = typer.Option(False, "--json", help="Print the decision as JSON."),
    domains_dir: Optional[Path] = typer.Option(None, "--domains", help=_DOMAINS_HELP),
) -> None:
    """Decide one proposed action (a refund, a ticket route, a deploy, a moderation call)."""
    try:
        gate = Gate(domains=_registry(domains_dir))
        chosen = gate.domains.get(domain)
        decision = gate.decide(chosen, _read_input(source))
    except ActionInputError as exc:
        lines = [f"invalid {exc.domain} input ({len(exc.errors)} problem{'s' * (len(exc.errors) != 1)}):"]
        lines += [f"  {'.'.join(str(p) for p in e['loc']) or '(the input)'}: {e['msg']}" for e in exc.errors]
        raise _fail("\n".join(lines)) from None
    except (UnknownDomain, RedlineError) as exc:
        raise _fail(str(exc)) from None
    if as_json:
        print(json.dumps(decision.to_dict(), ensure_ascii=False))
    else:
        print_action(decision)
    raise typer.Exit(code=EXIT_CODES[decision.outcome])


decide.__doc__ = f"{decide.__doc__}\n\n{EXIT_HELP}"


def print_header(console: Console, decision: Decision, what: str) -> None:
    """The first lines of a decision for people: outcome, reason, risk, what decided, any error."""
    console.print(
        Text.assemble(
            (decision.outcome.value.upper(), OUTCOME_STYLE[decision.outcome.value]),
            f"  reason: {decision.reason}  risk: {decision.risk_level.value}  ",
            (f"{what} {safe(decision.policy_name)} {decision.policy_hash[:19]}", "dim"),
        )
    )
    if decision.error:
        console.print(Text(f"error inside the gate: {safe(decision.error)}", style="red"))


def print_action(decision: Decision) -> None:
    print_header(out, decision, "domain")
    action = decision.action
    if action is None:
        return
    out.print(Text(f"decided by: {_deciding_test(action)}", style="bold"))
    t = action.thresholds
    out.print(Text(f"reversibility {t.reversibility:.3f} ({safe(action.reversibility_detail)}), penalty {t.penalty:.3f}"))
    out.print(Text(f"confidence bar {t.base_confidence_min:.3f} + 0.25 x {t.penalty:.3f} = {t.confidence_min:.3f}"))
    out.print(Text(f"risk ceiling   {t.base_risk_max:.3f} - 0.20 x {t.penalty:.3f} = {t.risk_max:.3f}"))
    table = Table("signal", "kind", "weight", "value", "detail", show_edge=False, pad_edge=False)
    for s in action.signals:
        table.add_row(s.name, s.kind, f"{s.weight:.2f}", f"{s.value:.3f}", Text(safe(s.detail)))
    out.print(table)
    out.print(
        f"confidence {action.confidence:.3f} (bar {t.confidence_min:.3f})  risk {action.risk:.3f} "
        f"(ceiling {t.risk_max:.3f})  evidence {action.evidence:.3f}"
    )
    fired = [r for r in action.hard_rules if r.fired]
    if fired:
        for rule in fired:
            out.print(Text.assemble(("hard rule ", "red"), (rule.id, "bold"), f" -> {rule.outcome.value}: {safe(rule.detail)}"))
    else:
        out.print(Text(f"hard rules: none of {len(action.hard_rules)} fired", style="dim"))
    if action.missing:
        out.print(Text(f"missing: {', '.join(action.missing)} (send them and ask again)", style="cyan"))
    for name, signals in action.text:
        for cue in signals.cues:
            out.print(
                Text.assemble(
                    (f"text {name}: ", "magenta"), f"{cue.signal} ", (cue.cue, "bold"),
                    f" {cue.start}-{cue.end} ", (repr(safe(cue.match)), "magenta"), f" weight {cue.weight}",
                )
            )


def _deciding_test(action: ActionAssessment) -> str:
    t = action.thresholds
    if action.decided_by.startswith("hard_rule:"):
        return f"hard rule {action.decided_by.split(':', 1)[1]}"
    return {
        "missing_evidence": "required evidence is missing",
        "risk_ceiling": f"risk {action.risk:.3f} > ceiling {t.risk_max:.3f}",
        "confidence_bar": f"confidence {action.confidence:.3f} < bar {t.confidence_min:.3f}",
        "all_tests_passed": "every test passed",
    }.get(action.decided_by, action.decided_by)


def domains(
    name: Optional[str] = typer.Argument(None, help="Show this domain in full."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON: {\"domains\": [...]} or the one domain."),
    domains_dir: Optional[Path] = typer.Option(None, "--domains", help=_DOMAINS_HELP),
) -> None:
    """List the action domains: names, input schema, required evidence, scenarios."""
    try:
        registry = _registry(domains_dir)
        chosen = [registry.get(name)] if name is not None else list(registry)
    except RedlineError as exc:
        raise _fail(str(exc)) from None
    described = [d.describe() for d in chosen]
    if as_json:
        print(json.dumps(described[0] if name is not None else {"domains": described}, ensure_ascii=False))
        return
    if name is None:
        for d in described:
            outcomes = sorted({s["expect"] for s in d["scenarios"]}, key=lambda o: Outcome(o).rank)
            out.print(Text.assemble((safe(d["name"]), "bold"), "  ", safe(d["description"]), (f"  ({safe(d['source'])})", "dim")))
            out.print(Text(f"  required: {', '.join(d['required']) or '-'}; free text: {', '.join(d['text_fields']) or '-'}"))
            out.print(Text(f"  {len(d['scenarios'])} scenarios: {', '.join(outcomes)}", style="dim"))
        out.print(Text("redline domains NAME shows a domain's fields, signals, hard rules and scenarios", style="dim"))
        return
    d = described[0]
    out.print(Text.assemble((safe(d["name"]), "bold"), f"  v{d['version']}  ", (d["hash"][:19], "dim")))
    out.print(Text(safe(d["description"])))
    out.print(f"thresholds: confidence >= {d['thresholds']['confidence_min']}, risk <= {d['thresholds']['risk_max']} (before reversibility)")
    fields = Table("field", "type", "required", "description", show_edge=False, pad_edge=False)
    for field, schema in d["input_schema"].get("properties", {}).items():
        kinds = [a.get("type") or a.get("format") or "enum" for a in schema.get("anyOf", [schema]) if a.get("type") != "null"]
        fields.add_row(field, "/".join(str(k) for k in kinds), "yes" if field in d["required"] else "", Text(safe(schema.get("description", ""))))
    out.print(fields)
    for s in d["signals"]:
        out.print(f"  signal {s['name']} ({s['kind']}, weight {s['weight']}): {safe(s['description'])}")
    for r in d["hard_rules"]:
        out.print(f"  hard rule {r['id']} -> {r['outcome']}: {safe(r['description'])}")
    for s in d["scenarios"]:
        out.print(Text.assemble("  scenario ", (safe(s["name"]), "bold"), " -> ", (s["expect"], OUTCOME_STYLE[s["expect"]]), f": {safe(s['description'])}"))
