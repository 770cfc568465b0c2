"""`redline backtest`: what a policy change would have done to past traffic.

    redline backtest --policy new.yaml --baseline old.yaml --input drafts.jsonl
    redline backtest --policy new.yaml --input redline.decisions.jsonl --report --db sqlite:///redline.db
    redline backtest ... --engine ray --address ray://head:10001 --json --out diff.jsonl
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from redline.backtest.run import run_backtest
from redline.errors import RedlineError
from redline.store.log_cli import OUTCOME_STYLE
from redline.terminal import console, safe, usage_error
from redline.types import Outcome

out = console()
err = console(stderr=True)
EXIT_BAD_LINES = 1
_TOP_RULES = 25
_HELP = (
    "Exit status: 0 done; 1 done, but some input lines could not be read (the report lists them); "
    "2 for a usage, policy, input or store error."
)


def _n(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def _side(value: dict[str, int | None]) -> str:
    base, new = value["baseline"], value["new"]
    return _n(new) if base is None else f"{_n(base)} → {_n(new)}"


def _print_summary(report: dict[str, Any], run: dict[str, Any]) -> None:
    source, policy, baseline = report["input"], report["policy"], report["baseline"]
    against = (
        f"baseline {safe(baseline['name'])} {baseline['hash'][:19]}" if baseline and baseline["kind"] == "policy"
        else "the recorded decisions" if baseline else "no baseline"
    )  # fmt: skip
    out.print(
        Text.assemble(
            ("backtest ", "bold"), f"{source['drafts']:,} drafts from {safe(source['path'])} ({source['kind']}): ",
            (f"{safe(policy['name'])} {policy['hash'][:19]}", "bold"), f" against {against}",
        )
    )  # fmt: skip
    for note in source["notes"]:
        out.print(Text(f"note: {safe(note)}", style="yellow"))
    if source["bad"]:
        out.print(Text(f"{source['bad']:,} lines could not be read:", style="bold red"))
        for bad in source["bad_lines"]:
            out.print(Text(safe(f"  {bad['file']}:{bad['line']}: {bad['error']}")))
    table = Table("outcome", "baseline", "new", "change", show_edge=False)
    for outcome in Outcome:
        base, new = report["outcomes"]["baseline"], report["outcomes"]["new"]
        before = None if base is None else base[outcome.value]
        delta = "" if before is None else f"{new[outcome.value] - before:+,}"
        table.add_row(Text(outcome.value, style=OUTCOME_STYLE.get(outcome.value, "")), _n(before), _n(new[outcome.value]), delta)
    out.print(table)
    changes = report["changes"]
    if changes is not None:
        out.print(
            f"[bold]changes[/]: {changes['newly_held']:,} newly held, {changes['newly_passed']:,} newly passed, "
            f"{changes['changed_outcome']:,} changed outcome ({changes['stricter']:,} stricter, {changes['looser']:,} looser), "
            f"{changes['rules_changed']:,} same outcome by other rules, {changes['unchanged']:,} unchanged"
        )
    _print_rules(report)
    _print_examples(report)
    review = report["review"]
    if review is not None:
        held = review["held"]
        line = (
            f"[bold]review[/] ({safe(review['store'])}, {review['reviewed']:,} Expert decisions): the new policy holds "
            f"{held['rejected']:,} drafts an Expert rejected, {held['edited']:,} edited, {held['approved']:,} approved, "
            f"{held['unreviewed']:,} unreviewed"
        )
        if "newly_passed" in review:
            line += f"; it would pass {review['newly_passed']['rejected']:,} that an Expert rejected"
        out.print(line)
    per_s = run.get("drafts_per_s")
    out.print(
        Text(
            f"{run['engine']} engine, {run['workers']} workers: {run['seconds']:.1f} s"
            + (f", {per_s:,.0f} drafts/s after a start-up of {run['startup_s']:.1f} s" if per_s else "")
            + (
                f" (the Ray Client server failed to start a server for the first "
                f"{run['connect_attempts'] - 1} connection(s); connected at attempt {run['connect_attempts']})"
                if run.get("connect_attempts", 1) > 1
                else ""
            ),
            style="dim",
        )
    )


def _print_rules(report: dict[str, Any]) -> None:
    rules = report["rules"]
    compared = report["changes"] is not None
    reviewed = report["review"] is not None
    key = (lambda r: (-(r["newly_held"] + r["newly_passed"] + r["gained"] + r["lost"]), -(r["fired"]["new"] or 0), r["rule"])) \
        if compared else (lambda r: (-(r["fired"]["new"] or 0), r["rule"]))  # fmt: skip
    shown = sorted(rules, key=key)[:_TOP_RULES]
    columns = ["rule", "fired", "hits"] + (["newly held", "newly passed"] if compared else [])
    columns += ["held: rejected/edited/approved/unreviewed"] if reviewed else []
    table = Table(*columns, show_edge=False)
    for rule in shown:
        cells: list[Text | str] = [Text(safe(rule["rule"])), _side(rule["fired"]), _side(rule["hits"])]
        if compared:
            cells += [_n(rule["newly_held"]), _n(rule["newly_passed"])]
        if reviewed:
            held = rule["review"]["held"]
            cells.append("/".join(_n(held[s]) for s in ("rejected", "edited", "approved", "unreviewed")))
        table.add_row(*cells)
    out.print(table)
    if len(rules) > len(shown):
        out.print(Text(f"{len(rules) - len(shown):,} more rules (--json has them all)", style="dim"))


def _print_examples(report: dict[str, Any]) -> None:
    for kind, examples in (report["examples"] or {}).items():
        for example in examples:
            base, new = example["baseline"], example["new"]
            out.print(
                Text.assemble(
                    (f"{kind.replace('_', ' '):<14}", "bold"),
                    safe(f"{example['file']}:{example['line']} id {example['id']}  "),
                    f"{base['outcome']} → {new['outcome']}  ",
                    (safe(", ".join(new["rules"] if kind != "newly_passed" else base["rules"])), "cyan"),
                    ("  " + safe(example["excerpt"]), "dim"),
                )
            )


def backtest(
    policy: Path = typer.Option(..., "--policy", help="The new policy YAML file."),
    input_file: Path = typer.Option(
        ..., "--input", help="A JSONL corpus of {id, text, context?, confidence?} or a decision log (rotated files included)."
    ),
    baseline: Optional[Path] = typer.Option(
        None, "--baseline", help="The policy to compare with (default: a log's recorded decisions; none for a corpus)."
    ),
    engine: str = typer.Option("local", "--engine", help="local (processes on this machine) or ray (pip install 'redline[ray]')."),
    address: Optional[str] = typer.Option(
        None, "--address", help="Ray cluster: ray://host:10001, host:6379 or auto; default: start a local one."
    ),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Processes or Ray actors (default: the CPUs there are)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON object."),
    out_file: Optional[Path] = typer.Option(None, "--out", help="Write one JSON line per changed draft here."),
    report: bool = typer.Option(False, "--report", help="Split holds by what Experts decided (reads the audit store, --db)."),
    db: str = typer.Option("sqlite:///redline.db", "--db", help="The audit store for --report."),
    confidence: Optional[float] = typer.Option(
        None, "--confidence", min=0, max=100, help="Confidence for drafts whose row gives none."
    ),
) -> None:
    """Re-check past drafts with a new policy: outcomes on both sides, what changes, by rule."""
    if engine not in ("local", "ray"):
        raise usage_error(err, f"--engine {engine!r}: use local or ray")
    with Progress(
        TextColumn("checking drafts"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[drafts]:,} drafts"),
        TimeRemainingColumn(), console=err, transient=True, disable=not err.is_terminal,
    ) as bar:  # fmt: skip
        task = bar.add_task("lines", total=None, drafts=0)

        def advance(lines: int, total: int, drafts: int) -> None:
            bar.update(task, completed=lines, total=total, drafts=drafts)

        try:
            result = run_backtest(
                policy, input_file, baseline=baseline, engine=engine, workers=workers, address=address,  # type: ignore[arg-type]
                out=out_file, report_db=db if report else None, confidence=confidence, progress=advance,
            )  # fmt: skip
        except RedlineError as exc:
            raise usage_error(err, exc) from None
    if as_json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        _print_summary(result.report, result.run)
    if result.report["input"]["bad"]:
        raise typer.Exit(code=EXIT_BAD_LINES)


backtest.__doc__ = f"{backtest.__doc__}\n\n{_HELP}"
