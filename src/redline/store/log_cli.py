"""`redline log tail | stats | grep`: read the decision log (rich for people, --json for machines)."""

from __future__ import annotations

import fnmatch
import json
import math
import os
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Optional

import typer
from rich.table import Table
from rich.text import Text

from redline.store.decision_log import DEFAULT_PATH, ReadResult, log_files, parse_lines, read_events
from redline.terminal import command_group, console, safe
from redline.types import Outcome

log_app = command_group("Read the decision log (redline.decisions.jsonl and its rotated files).")
out = console()
err = console(stderr=True)

OUTCOME_STYLE = {  # the colours of outcomes in every human output
    "execute": "bold green",
    "ask": "bold cyan",
    "defer": "bold blue",
    "escalate": "bold yellow",
    "refuse": "bold red",
}
_PATH_HELP = f"The decision log (default ./{DEFAULT_PATH}); its rotated .1, .2 … files are read too."
_FOLLOW_POLL_S = 0.25


def _fail(message: str) -> typer.Exit:
    err.print(Text.assemble(("error: ", "bold red"), safe(message)))
    return typer.Exit(code=2)


def _read(path: Path) -> ReadResult:
    if not log_files(path):
        raise _fail(f"no decision log at {path} (nor rotated {path}.1 …); pass the log's path")
    try:
        return read_events(path)
    except OSError as exc:
        raise _fail(f"cannot read the decision log {path}: {exc.strerror or exc}") from exc


def _rules(event: dict[str, Any]) -> list[str]:
    return [str(r) for r in event.get("rules_fired") or []]


def _suppressed_rules(event: dict[str, Any]) -> list[str]:
    return [str(s.get("rule")) for s in event.get("suppressed") or [] if isinstance(s, dict)]


def _latency(event: dict[str, Any]) -> float | None:
    timings = event.get("timings_ms")
    total = timings.get("total") if isinstance(timings, dict) else None
    return float(total) if isinstance(total, (int, float)) else None


def _line(event: dict[str, Any]) -> Text:
    """One event as one line. Every value comes from a file anyone with write access to the
    log could have crafted, so each is shown through `safe`: plain text (the excerpt holds
    `[EMAIL_ADDRESS]`, not markup) with control and invisible characters made visible."""
    outcome = str(event.get("outcome", "?"))
    raw_policy = event.get("policy")
    policy: dict[str, Any] = raw_policy if isinstance(raw_policy, dict) else {}
    rules = ", ".join(_rules(event)) or "-"
    excerpt = safe(event.get("text_excerpt", ""))
    line = Text.assemble(
        (safe(event.get("time", "?")), "dim"),
        "  ",
        (safe(outcome.upper()).ljust(8), OUTCOME_STYLE.get(outcome, "bold")),
        "  ",
        safe(event.get("reason", "?")),
        "  ",
        (safe(policy.get("name", "?")), "cyan"),
        "  ",
        (safe(rules), "magenta"),
        "  ",
        (f"'{excerpt}'", "italic"),
    )
    if event.get("error"):
        line.append(f"  error: {safe(event['error'])}", "red")
    review = event.get("review")
    if isinstance(review, dict) and review.get("pair_id"):  # a watch-mode pair: say which side this is
        side = "with context, not acted on" if review.get("acted_on") is False else "acted on, without context"
        line.append(f"  [watch {safe(review['pair_id'])}: {side}]", "cyan")
        if review.get("context_minted"):
            line.append("  CONTEXT-MINTED BLOCK", "bold red")
    return line


def _emit(events: list[dict[str, Any]], as_json: bool) -> None:
    for event in events:
        if as_json:
            typer.echo(json.dumps(event, ensure_ascii=False))
        else:
            out.print(_line(event))


def _report_unreadable(result: ReadResult) -> None:
    if result.torn or result.bad:
        err.print(f"{result.torn} torn line(s), {len(result.bad)} malformed line(s) skipped", style="yellow")
        for bad in result.bad[:10]:
            err.print(Text(safe(bad)))


@log_app.command()
def tail(
    path: Path = typer.Argument(Path(DEFAULT_PATH), help=_PATH_HELP),
    lines: int = typer.Option(20, "-n", "--lines", min=0, help="How many of the newest events to print."),
    follow: bool = typer.Option(
        False, "--follow", "-f", help="Keep printing events as they are appended (Ctrl-C stops)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print each event as its JSON line."),
    follow_for: Optional[float] = typer.Option(
        None, "--follow-for", hidden=True, help="Stop following after N seconds (for tests)."
    ),
) -> None:
    """Print the newest events, oldest of them first."""
    result = _read(path)
    _emit(result.events[-lines:] if lines else [], as_json)
    if not as_json:
        _report_unreadable(result)
    if follow:
        seen = {e.get("id") for e in result.events}
        try:
            for event in _follow(path, follow_for):
                if event.get("id") in seen:
                    continue  # printed above: following starts from the live file's first line
                _emit([event], as_json)
        except KeyboardInterrupt:
            pass


def _follow(path: Path, seconds: float | None) -> Iterator[dict[str, Any]]:
    """Every event of the live file, then those appended, across rotations, until `seconds` pass."""
    deadline = None if seconds is None else time.monotonic() + seconds
    handle = None
    inode = None
    pending = b""
    try:
        while deadline is None or time.monotonic() < deadline:
            if handle is not None:
                pending += handle.read()
                complete, newline, pending = pending.rpartition(b"\n")
                if newline:
                    yield from parse_lines(complete + newline, str(path))[0]
            try:
                current = os.stat(path).st_ino
            except FileNotFoundError:
                current = None
            if current is not None and current != inode:
                # a new live file (first pass, or rotated): the old one was read to its end above
                if handle is not None:
                    handle.close()
                    handle = None
                try:
                    handle, inode, pending = open(path, "rb"), current, b""  # noqa: SIM115 - closed in finally
                    continue
                except FileNotFoundError:  # rotated again between stat and open
                    inode = None
            time.sleep(_FOLLOW_POLL_S)
    finally:
        if handle is not None:
            handle.close()


def _percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile, or None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(round(q * len(ordered), 9)))  # round: 0.99 * 100 is 99.00000000000001
    return round(ordered[min(rank, len(ordered)) - 1], 4)


def _summary(path: Path, result: ReadResult, top: int) -> dict[str, Any]:
    events = result.events
    latencies = [v for v in (_latency(e) for e in events) if v is not None]
    times = sorted(str(e["time"]) for e in events if e.get("time"))
    policies = Counter(
        str(e["policy"].get("name")) if isinstance(e.get("policy"), dict) else "?" for e in events
    )
    erased = Counter(
        str(x.get("type")) for e in events for x in e.get("erased") or [] if isinstance(x, dict)
    )
    return {
        "path": str(path),
        "files": result.files,
        "events": len(events),
        "by_outcome": dict(Counter(str(e.get("outcome")) for e in events).most_common()),
        "by_reason": dict(Counter(str(e.get("reason")) for e in events).most_common()),
        "by_policy": dict(policies.most_common()),
        "top_rules": dict(Counter(r for e in events for r in _rules(e)).most_common(top)),
        "erased_by_type": dict(erased.most_common()),
        "errors": sum(1 for e in events if e.get("error")),
        "first": times[0] if times else None,
        "last": times[-1] if times else None,
        "latency_ms": {
            "p50": _percentile(latencies, 0.50),
            "p99": _percentile(latencies, 0.99),
            "max": round(max(latencies), 4) if latencies else None,
        },
        "torn": result.torn,
        "bad": [str(b) for b in result.bad],
    }


def _counter_table(title: str, counts: dict[str, int], total: int | None) -> Table:
    """A count per value; `share` of all events unless `total` is None (counts of spans)."""
    table = Table(title=title, title_justify="left", show_edge=False)
    table.add_column("value")
    table.add_column("count", justify="right")
    if total:
        table.add_column("share", justify="right")
    for value, count in counts.items():
        cells: list[Text | str] = [Text(safe(value), style=OUTCOME_STYLE.get(value, "")), str(count)]
        table.add_row(*cells, *([f"{count / total:.1%}"] if total else []))
    return table


@log_app.command()
def stats(
    path: Path = typer.Argument(Path(DEFAULT_PATH), help=_PATH_HELP),
    top: int = typer.Option(10, "--top", min=1, help="How many of the most-fired rules to list."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Counts by outcome, reason, policy and rule; time range, latency, unreadable lines."""
    summary = _summary(path, _read(path), top)
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False))
        return
    total = summary["events"]
    out.print(Text.assemble((f"{total} events", "bold"), f" in {len(summary['files'])} file(s) of {safe(path)}"))
    if total:
        out.print(Text(safe(f"from {summary['first']} to {summary['last']}")))
        latency = summary["latency_ms"]
        out.print(Text(f"latency ms: p50 {latency['p50']}  p99 {latency['p99']}  max {latency['max']}"))
    for title, key, share in (
        ("outcome", "by_outcome", True),
        ("reason", "by_reason", True),
        ("policy", "by_policy", True),
        ("rules fired (top; share of events)", "top_rules", True),
        ("erased spans by type", "erased_by_type", False),
    ):
        if summary[key]:
            out.print(_counter_table(title, summary[key], total if share else None))
    unreadable = Text(f"torn lines: {summary['torn']}  malformed lines: {len(summary['bad'])}")
    out.print(unreadable, style="yellow" if summary["torn"] or summary["bad"] else "")
    for bad in summary["bad"][:10]:
        out.print(Text(safe(bad)))


@log_app.command()
def grep(
    pattern: str = typer.Argument(
        ..., help="A regular expression (case-insensitive), matched against the scrubbed excerpt and the rule ids."
    ),
    path: Path = typer.Argument(Path(DEFAULT_PATH), help=_PATH_HELP),
    outcome: Optional[str] = typer.Option(None, "--outcome", help="Only events with this outcome."),
    rule: Optional[str] = typer.Option(None, "--rule", help="Only events that fired this rule id (glob: 'billing:*')."),
    as_json: bool = typer.Option(False, "--json", help="Print each match as its JSON line."),
) -> None:
    """Events whose excerpt or rule ids match PATTERN. Exit 1 when nothing matches, like grep."""
    try:
        regex = re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise _fail(f"PATTERN {pattern!r} is not a regular expression: {exc}") from exc
    outcomes = [o.value for o in Outcome]
    if outcome is not None and outcome.lower() not in outcomes:
        raise _fail(f"--outcome {outcome!r} is not an outcome; use one of {', '.join(outcomes)}")
    result = _read(path)
    matches = []
    for event in result.events:
        if outcome is not None and str(event.get("outcome")) != outcome.lower():
            continue
        if rule is not None and not any(fnmatch.fnmatchcase(r, rule) for r in _rules(event)):
            continue
        haystacks = [str(event.get("text_excerpt", "")), *_rules(event), *_suppressed_rules(event)]
        if any(regex.search(h) for h in haystacks):
            matches.append(event)
    _emit(matches, as_json)
    if not as_json:
        _report_unreadable(result)
    if not matches:
        raise typer.Exit(code=1)
