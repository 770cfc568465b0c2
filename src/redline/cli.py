"""The `redline` command line (Typer + rich). `--json` prints machine-readable output."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from redline import __version__
from redline.actions_cli import decide, domains, print_header
from redline.backtest.cli import backtest
from redline.decide.gate import Gate
from redline.errors import RedlineError, SuiteError
from redline.policy import json_schema, load_policy
from redline.review_cli import canary_app, reviewed_check, soak_report_command
from redline.service.serve_cli import serve
from redline.store.log_cli import log_app
from redline.terminal import EXIT_HELP, around, command_group, console, exit_code, marked, print_error, safe, usage_error
from redline.types import Decision

app = command_group("redline: a policy gate for AI agents. Checks drafts, messages and actions against a policy.")
out = console()
err = console(stderr=True)

app.add_typer(log_app, name="log")
app.add_typer(canary_app, name="canary")
app.command(name="soak-report")(soak_report_command)
app.command()(serve)
app.command()(decide)
app.command()(domains)
app.command()(backtest)

_PROGRESS_FROM = 200  # suites smaller than this finish before a bar is worth drawing
_WHOLE_TEXT_UP_TO = 2000  # longer drafts are shown around each finding only


def _version(value: bool) -> None:
    if value:
        typer.echo(f"redline {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """redline: a policy gate for AI agents. Checks drafts, messages and actions against a policy."""


def _fail(exc: Exception) -> typer.Exit:
    return usage_error(err, exc)


def _finite(value: Optional[float]) -> Optional[float]:
    if value is not None and value != value:  # NaN passes a range check
        raise typer.BadParameter("must be a number from 0 to 100, not nan")
    return value


def _interactive() -> bool:
    return sys.stdin.isatty()


def _read_text(text: Optional[str]) -> str:
    if text is None or text == "-":
        if _interactive():
            if text is None:  # nothing piped in and nothing given: say so rather than wait
                raise SuiteError("no text to check: pass it as TEXT, or pipe it in (use '-' to type it here)")
            err.print(Text("reading the text from standard input; end it with Ctrl-D", style="dim"))
        data = sys.stdin.buffer.read()
        return data.decode("utf-8", errors="replace")
    return text


def _read_context(path: Path) -> Any:
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SuiteError(f"{path}: cannot read the context file ({exc})") from exc
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise SuiteError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise SuiteError(f"{path}: the context is a JSON object with operator_uid, recipient and messages")
    return data


def _print_decision(decision: Decision, text: str) -> None:
    """Header, then each finding with the words around it, then the text itself when it
    is short: a megabyte draft is not echoed before its findings. Everything from the
    text (and the policy) is shown through `safe`: a draft cannot repaint the terminal."""
    print_header(out, decision, "policy")
    for kind, style, items in (("fired", "bold red", decision.findings), ("suppressed", "yellow", decision.suppressed)):
        for f in items:
            out.print(
                Text.assemble(
                    (f"{kind:<10} ", style.split()[-1]),
                    (safe(f.rule), "bold"),
                    f"  {f.severity.value}  {f.start}-{f.end}  {f.status.value}" + (f" ({f.entity})" if f.entity else ""),
                    (f"  {safe(f.explanation)}", "dim"),
                )
            )
            out.print(Text.assemble("           ", around(text, f.start, f.end, style)))
    for kind, count in decision.omitted.items():
        if count:
            out.print(Text(f"{count} more {kind} not listed (--json has the counts; every hit was screened)", style="dim"))
    if decision.context is not None:
        meta = decision.context
        licensed = "licensed by context" if decision.licensed_by_context else "not licensed"
        out.print(
            Text(
                safe(
                    f"context: {licensed}; mode {meta.get('mode', '?')}, recipient {meta.get('recipient', '?')}, "
                    f"{meta.get('messages', 0)} messages" + (f"; {meta['error']}" if meta.get("error") else "")
                ),
                style="cyan",
            )
        )
    if len(text) <= _WHOLE_TEXT_UP_TO:
        spans = [(f.start, f.end, "yellow strike") for f in decision.suppressed]
        spans += [(f.start, f.end, "bold red underline") for f in decision.findings]
        out.print(Text.assemble(("text: ", "dim"), marked(text, spans)))
    else:
        out.print(Text(f"text: {len(text):,} characters, shown above around each finding", style="dim"))
    review = decision.review or {}
    if review.get("answer") == "without_context":
        out.print(Text(f"watch mode: with the conversation the gate would return {review['enforced_outcome']} "
                       f"(pair {review['pair_id']}); this answer is the one without it", style="cyan"))
    elif review.get("ignored_because"):
        out.print(Text(f"the conversation was not read: {review['ignored_because']}", style="cyan"))
    timing = decision.timings_ms.get("total")
    if timing is not None:
        out.print(Text(f"checked in {timing:.3f} ms", style="dim"))


@app.command()
def check(
    policy: Path = typer.Argument(..., help="The policy YAML file."),
    text: Optional[str] = typer.Argument(None, help="The text to check; '-' or nothing reads stdin."),
    context_file: Optional[Path] = typer.Option(
        None, "--context", help="JSON file with the conversation: {operator_uid, recipient, messages}."
    ),
    confidence: Optional[float] = typer.Option(
        None, "--confidence", min=0, max=100, callback=_finite,
        help="The caller's confidence, 0 to 100: a clean draft executes when it reaches the policy's bar.",
    ),  # fmt: skip
    as_json: bool = typer.Option(False, "--json", help="Print the decision as JSON."),
) -> None:
    """Check one text against a policy and show the decision."""
    try:
        gate = Gate(load_policy(policy))
        conversation = _read_context(context_file) if context_file is not None else None
        body = _read_text(text)
    except RedlineError as exc:
        raise _fail(exc) from None
    decision = reviewed_check(gate, body, conversation, confidence)  # as the review flags say
    if as_json:
        print(json.dumps(decision.to_dict(), ensure_ascii=False))
    else:
        _print_decision(decision, body)
    raise typer.Exit(code=exit_code(decision.outcome))


check.__doc__ = f"{check.__doc__}\n\n{EXIT_HELP}"


def _print_report(report: dict[str, Any]) -> None:
    out.print(
        Text.assemble(
            (safe(report["suite"]), "bold"),
            f": exact {report['exact']}/{report['total']}, "
            f"missed holds {report['misses']} (rate {report['miss_rate']:.3f}), "
            f"over-flagged {report['overflags']} (rate {report['overflag_rate']:.3f})"
            + (f", deferred only for confidence {report['deferred_for_confidence']}" if report["deferred_for_confidence"] else ""),
        )
    )
    table = Table("group", "probes", "exact", "misses", "over-flags", show_edge=False)
    for name, group in report["by_group"].items():
        style = "" if group["exact"] == group["total"] else "yellow"
        table.add_row(Text(safe(name)), str(group["total"]), str(group["exact"]), str(group["misses"]), str(group["overflags"]), style=style)
    out.print(table)
    wrong = [c for c in report["cases"] if not c["ok"] and not c["known_screen_miss"]]
    if wrong:
        out.print("[bold]not as expected[/]")
        for case in wrong:
            out.print(_case_line(case))
    known = [c for c in report["cases"] if c["known_screen_miss"]]
    if known:
        caught = report["known_screen_misses"]["caught"]
        out.print(f"[bold]known screen misses[/] (a judge's work): {caught}/{len(known)} caught")
        for case in known:
            out.print(_case_line(case))
    _print_layers(report.get("layers") or {})


def _print_layers(layers: dict[str, Any]) -> None:
    if not layers.get("judge"):
        return
    rate = layers["agreement_rate"]
    latency = layers["judge_latency_ms"] or {}
    out.print(
        Text.assemble(
            ("layers", "bold"),
            f": judge {safe(str(layers['judge']))} asked on {layers['judged']} probes, "
            f"agreement {'n/a' if rate is None else f'{rate:.3f}'}, decided by {layers['decided_by']}, "
            f"status {layers['judge_status']}, latency p50 {latency.get('p50', 'n/a')} ms p99 {latency.get('p99', 'n/a')} ms",
        )
    )
    caught = [safe(str(c)) for c in layers["known_screen_misses_caught_by_judge"]]
    out.print(Text(f"  known screen misses the judge caught: {', '.join(caught) if caught else 'none'}"))


def _case_line(case: dict[str, Any]) -> Text:
    line = Text("  ")
    line.append(safe(case["id"]), style="bold")
    line.append(f" [{safe(case['group'])}] want {case['expected']}, got ")
    line.append(case["got"], style="green" if case["outcome_ok"] else "red")
    if case["fired"]:
        line.append(f"  fired {', '.join(case['fired'])}")
    if case["expect_rules"] and not case["rules_ok"]:
        line.append(f"  expected rules {', '.join(case['expect_rules'])}", style="red")
    if case["suppressed"]:
        kept = ", ".join(f"{s['rule']} ({s['status']}: {s['cue']})" for s in case["suppressed"])
        line.append(f"  suppressed {safe(kept)}", style="yellow")
    return line


@app.command(name="eval")
def eval_suite(
    suite: Path = typer.Argument(..., help="A folder with policy.yaml and probes.jsonl."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON object."),
    judge: Optional[str] = typer.Option(
        None, "--judge", help="Run with this judge instead of the policy's: heuristic, embedding, openai, anthropic, none."
    ),
    judge_when: Optional[str] = typer.Option(None, "--judge-when", help="With --judge: never, on_hits or always (default always)."),
) -> None:
    """Score a probe suite: exact outcomes, misses and over-flags, by group, and layer agreement."""
    from redline.eval.probes import run_suite

    try:
        with Progress(
            TextColumn("checking probes"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
            console=err, transient=True, disable=not err.is_terminal,
        ) as progress:
            task = progress.add_task("probes", total=None)

            def advance(done: int, total: int) -> None:
                if total >= _PROGRESS_FROM:
                    progress.update(task, completed=done, total=total)

            report = run_suite(suite, on_progress=advance, judge=judge, judge_when=judge_when)
    except RedlineError as exc:
        raise _fail(exc) from None
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print_report(report)


@app.command()
def context(
    input_file: Optional[Path] = typer.Option(None, "--input", help="JSONL of {id, text, term}; '-' or nothing reads stdin."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object a line."),
) -> None:
    """Context statuses (negated, attributed, historical, hypothetical, other_experiencer) of a term."""
    from redline.eval.context_cmd import context_rows, read_jsonl

    try:
        if input_file is None or str(input_file) == "-":
            rows = read_jsonl(sys.stdin, name="<stdin>")
        else:
            rows = read_jsonl(input_file)
        results = context_rows(rows)
        if as_json:
            for row in results:
                print(json.dumps(row, ensure_ascii=False))
            return
        table = Table("id", "found", "negated", "attributed", "historical", "hypothetical", "other_experiencer")
        for row in results:
            table.add_row(*(Text(safe(row[k])) for k in ("id", "found", "negated", "attributed", "historical", "hypothetical", "other_experiencer")))
        out.print(table)
    except RedlineError as exc:
        raise _fail(exc) from None


def _print_explanation(report: dict[str, Any]) -> None:
    def line(*parts: str | tuple[str, str]) -> None:  # rule text and terms come from the file: made safe
        out.print(Text.assemble(*(safe(p) if isinstance(p, str) else (safe(p[0]), p[1]) for p in parts)))

    policy = report["policy"]
    line(("policy ", "bold"), (policy["name"], "bold"), (f"  {policy['hash'][:19]}", "dim"))
    for rule in report["rules"]:
        out.print()
        line((rule["id"], "bold"), f"  {rule['severity']}  ", (rule["rule"], "dim"))
        for term in rule["terms"]:
            line("  term     ", (term["term"], "cyan"), ("  matches " + ", ".join(term["forms"]), "dim"))
        for topic in rule["topics"]:
            forms = " | ".join(", ".join(f) for f in topic["forms"])
            negative = "; stated in the negative: a negation in the draft is no denial" if topic["negative"] else ""
            line("  topic    ", (topic["label"], "cyan"), f"  ({topic['why']}{negative})", ("  " + forms, "dim"))
        for pattern in rule["patterns"]:
            line("  pattern  ", (pattern, "cyan"))
        for detector in rule["detectors"]:
            line("  detector ", (detector, "cyan"), ("  (the rule names what it finds)", "dim"))
        note = f" ({rule['suppress_note']})" if rule["suppress_note"] else ""
        line((f"  sets aside: {', '.join(rule['suppress']) or 'nothing'}{note}", "dim"))
        for warning in rule["warnings"]:
            line((f"  warning: {warning}", "yellow"))
    for detector in report["detectors"]:
        out.print()
        line((detector["id"], "bold"), f"  {detector['severity']}")


@app.command()
def explain(
    policy: Path = typer.Argument(..., help="The policy YAML file."),
    as_json: bool = typer.Option(False, "--json", help="Print the explanation as one JSON object."),
) -> None:
    """Show what every rule matches: terms or derived topics, forms, detectors, suppress set, warnings.

    Exit code 0 when the policy loads, 1 when it would not (the error says where and why).
    """
    from redline.screen.explain import explain as explain_policy

    try:
        report = explain_policy(load_policy(policy))
    except RedlineError as exc:
        print_error(err, exc)
        raise typer.Exit(code=1) from None
    if as_json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        _print_explanation(report)


@app.command()
def schema() -> None:
    """Print the JSON Schema of the policy format (for editors and CI)."""
    print(json.dumps(json_schema(), indent=2))


if __name__ == "__main__":  # pragma: no cover
    app()
