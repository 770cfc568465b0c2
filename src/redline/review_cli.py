"""`redline canary run` and `redline soak-report`: the review pipeline from the command line.

    redline canary run policy.yaml [--fixtures DIR] [--log FILE] [--json]
    redline soak-report --day 2025-01-31 [--min-volume N] [--policy NAME] [--log FILE] [--json]

`canary run` exits 0 when the battery was conclusive and laundered nothing, 1 otherwise,
2 when the policy cannot be used. `soak-report` exits 0 only for a clean day, 1 for a day
that is not clean, 2 for a usage error (a bad date, no decision log).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Optional

import typer
from rich.table import Table
from rich.text import Text

from redline.decide.gate import Gate
from redline.errors import RedlineError
from redline.policy import load_policy
from redline.review.canary import LAUNDERED, BatteryRun, run_battery
from redline.review.fixtures import load_fixtures
from redline.review.flags import ENV_CONTEXT, ENV_MODE, PolicyFlags, load_flags, settings_path
from redline.review.soak import DEFAULT_MIN_VOLUME, SoakReport, soak_report, valid_day
from redline.review.watch import review_check
from redline.store.decision_event import DEFAULT_PATH
from redline.store.decision_log import DecisionLog, log_files, read_events
from redline.store.review_log import LogSummarySink
from redline.terminal import command_group, console, safe
from redline.types import Decision

canary_app = command_group("The canary battery: traps that must stay held when a covering ask comes with them.")
out = console()
err = console(stderr=True)
_STYLE = {"clean": "green", "laundered": "bold red", "broken": "yellow"}
_LOG_HELP = f"The decision log (default ./{DEFAULT_PATH})."
_SETTINGS_HELP = "The settings file (default $REDLINE_SETTINGS, else ./redline.yaml when it exists)."


CLI_DEFAULT_SOURCE = "redline check: no review settings, so the conversation given is read and enforced"


def cli_flags(gate: Gate) -> PolicyFlags:
    """The flags `redline check` obeys: those of the settings file or the environment when
    either sets any (as the service would); with neither, a conversation passed with
    `--context` is what the user asked to test, so it is read and enforced."""
    path = settings_path()
    if path is None and ENV_CONTEXT not in os.environ and ENV_MODE not in os.environ:
        return PolicyFlags("live", True, "enforce", {}, CLI_DEFAULT_SOURCE)
    return load_flags(path).for_policy(gate.policy.name, development=gate.policy.development)


def reviewed_check(gate: Gate, text: str, context: Any, confidence: float | None) -> Decision:
    """The decision `redline check` shows: the answer the flags give (see `cli_flags`)."""
    return review_check(gate, text, context, confidence, cli_flags(gate)).answer


def _fail(message: str) -> typer.Exit:
    err.print(Text.assemble(("error: ", "bold red"), safe(message)), soft_wrap=True)
    return typer.Exit(code=2)


def print_run(run: BatteryRun) -> None:
    table = Table("fixture", "kind", "without", "with ask", "outcome", "why", show_edge=False)
    for result in sorted(run.results, key=lambda r: (r.outcome == "clean", r.fixture.id)):
        table.add_row(
            safe(result.fixture.id), result.fixture.kind, result.without.value, result.with_context.value,
            Text(result.outcome, style=_STYLE[result.outcome]), safe(result.why),
        )  # fmt: skip
    out.print(table)
    for problem in run.errors:
        out.print(Text(f"error: {safe(problem)}", style="red"), soft_wrap=True)
    style = "bold green" if run.passed else "bold red" if run.counts[LAUNDERED] else "bold yellow"
    out.print(Text(run.headline(), style=style))
    out.print(Text(f"policy {run.policy_name} {run.policy_hash[:19]}  run {run.run_id}", style="dim"))


@canary_app.command("run")
def canary_run(
    policy: Path = typer.Argument(..., help="The policy YAML file."),
    fixtures: Optional[Path] = typer.Option(
        None, "--fixtures", help="A folder of more fixture files (default: review.canary.fixtures of the settings)."
    ),
    log: Path = typer.Option(Path(DEFAULT_PATH), "--log", help=_LOG_HELP + " The battery_summary line goes there."),
    settings: Optional[Path] = typer.Option(None, "--settings", help=_SETTINGS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as one JSON object."),
) -> None:
    """Run the canary battery against POLICY: each trap without and with its covering ask.

    Exit status: 0 conclusive and nothing laundered; 1 laundered or inconclusive (a broken
    fixture, a fixture file that does not load); 2 when the policy cannot be used.
    """
    try:
        gate = Gate(load_policy(policy))
    except RedlineError as exc:
        raise _fail(str(exc)) from None
    folder = fixtures if fixtures is not None else load_flags(settings_path(settings)).fixtures
    problems: list[str] = []
    try:
        loaded = load_fixtures(folder)
    except RedlineError as exc:  # the run still happens, and says it is inconclusive
        loaded, problems = [], [str(exc)]
    with DecisionLog(log) as decisions:
        run = run_battery(
            gate, loaded, policy_name=gate.policy.name, policy_hash=gate.policy_hash, trigger="cli",
            sink=LogSummarySink(decisions), errors=problems,
        )  # fmt: skip
    if as_json:
        print(json.dumps(run.summary(), ensure_ascii=False))
    else:
        print_run(run)
    raise typer.Exit(code=0 if run.passed else 1)


def _print_report(report: SoakReport) -> None:
    data = report.to_dict()
    style = "bold green" if report.clean else "bold red"
    scope = f" (policy {report.policy})" if report.policy else ""
    out.print(Text.assemble(("soak report ", "bold"), (report.day, "bold"), scope, ": ", (report.verdict, style)))
    battery = data["battery"]
    for label, value in (
        ("volume (checks with context, watch mode)", f"{data['volume']} (min {data['min_volume']})"),
        ("decisions acted on", data["decisions"]),
        ("would-blocks", data["would_blocks"]),
        ("relaxed by context (not acted on)", data["context_relaxed"]),
        ("context-minted blocks", data["context_minted_blocks"]),
        ("battery runs", f"{battery['runs']} ({battery['conclusive']} conclusive)"),
        ("laundered traps", battery["laundered"]),
        ("broken traps", battery["broken"]),
    ):
        out.print(Text(f"  {label:<42} {value}"))
    for reason in report.reasons:
        out.print(Text(f"  not clean: {safe(reason)}", style="red"), soft_wrap=True)
    for warning in report.warnings:
        out.print(Text(f"  warning: {safe(warning)}", style="yellow"), soft_wrap=True)
    out.print(Text(
        "  the evidence supports flipping review.mode to enforce" if report.clean
        else "  the evidence does not support flipping review.mode to enforce",
        style=style,
    ))  # fmt: skip


def soak_report_command(
    day: str = typer.Option(..., "--day", help="The UTC day to report on, YYYY-MM-DD."),
    min_volume: int = typer.Option(
        DEFAULT_MIN_VOLUME, "--min-volume", min=1, help="Checks with context (watch mode) the day needs."
    ),
    policy: Optional[str] = typer.Option(None, "--policy", help="Only this policy's decisions and battery runs."),
    log: Path = typer.Option(Path(DEFAULT_PATH), "--log", help=_LOG_HELP + " Its rotated .1, .2 … files are read too."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON object."),
) -> None:
    """Say whether DAY was clean: enough volume, no context-minted block, a conclusive
    battery and no laundered trap. Exit status: 0 clean, 1 not clean, 2 usage error."""
    if not valid_day(day):
        raise _fail(f"--day {day!r} is not a date; write it YYYY-MM-DD, e.g. 2025-01-31")
    if not log_files(log):
        raise _fail(f"no decision log at {log} (nor rotated {log}.1 …); pass its path with --log")
    try:
        result = read_events(log)
    except OSError as exc:
        raise _fail(f"cannot read the decision log {log}: {exc.strerror or exc}") from exc
    report = soak_report(result.events, day=day, min_volume=min_volume, policy=policy)
    if result.torn or result.bad:
        report.warnings.append(f"{result.torn} torn and {len(result.bad)} malformed line(s) in the log were skipped")
    data: dict[str, Any] = {**report.to_dict(), "log_files": result.files}
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        _print_report(report)
    raise typer.Exit(code=0 if report.clean else 1)
