"""What every human output of the command line shares: safe text, consoles, exit codes.

A draft, an excerpt, a rule id or a log line is untrusted text, and a terminal obeys
what it reads: `ESC[8m` hides what follows, `ESC[2K\\r` erases the line, U+202E turns it
around. `safe` shows every such character instead: C0 and C1 controls as `\\x1b`, and
format, bidi, separator, private-use, unassigned and other invisible characters as
`⟨U+202E⟩`. Rich markup is never interpreted in it either: callers build `Text`.
`--json` output does not pass through here: it stays exact.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import typer
from rich.console import Console
from rich.text import Text

from redline.types import Outcome

EXIT_USAGE = 2
EXIT_CODES = {Outcome.EXECUTE: 0, Outcome.ASK: 3, Outcome.DEFER: 4, Outcome.ESCALATE: 5, Outcome.REFUSE: 6}
EXIT_HELP = "Exit status: 0 execute, 3 ask, 4 defer, 5 escalate, 6 refuse; 2 for a usage or input error."

# candidates only (any control, anything not ASCII); `_shown` decides per character
_CANDIDATE = re.compile(r"[\x00-\x1f\x7f-\x9f]|[^\x00-\x7f]")
_HIDDEN_CATEGORIES = frozenset({"Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
# marks and letters that render as nothing (Unicode's default-ignorable code points)
_IGNORABLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0")


def console(*, stderr: bool = False) -> Console:
    """A console that never re-wraps a line (piped output included) or guesses colours
    for numbers and paths in it."""
    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def command_group(help: str) -> typer.Typer:
    """A Typer app or sub-command group as every command of redline is built: help when
    called bare, no shell-completion commands, and plain tracebacks (rich's would print
    local variables, which may hold a draft)."""
    return typer.Typer(help=help, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


@lru_cache(maxsize=4096)
def _shown(char: str, newlines: bool) -> str:
    code = ord(char)
    if newlines and char in "\n\t":
        return char
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return f"\\x{code:02x}"
    if (
        unicodedata.category(char) in _HIDDEN_CATEGORIES
        or char in _IGNORABLE
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0000 <= code <= 0xE0FFF
    ):
        return f"\u27e8U+{code:04X}\u27e9"
    return char


def safe(value: object, *, newlines: bool = False) -> str:
    """`value` as text fit for a terminal; `newlines` keeps line breaks and tabs as they are."""
    text = str(value)
    if text.isascii() and text.isprintable():
        return text
    return _CANDIDATE.sub(lambda m: _shown(m.group(), newlines), text)


def print_error(err: Console, message: object, *, soft_wrap: bool = False) -> None:
    """Print `message`: its first line as the error, the rest under it (a policy's
    problems one per line, each made safe for the terminal on its own)."""
    first, *rest = str(message).split("\n")
    err.print(Text.assemble(("error: ", "bold red"), safe(first)), soft_wrap=soft_wrap)
    for line in rest:
        err.print(Text(safe(line)), soft_wrap=soft_wrap)


def usage_error(err: Console, message: object) -> typer.Exit:
    """Print `message` (`print_error`) and return the exit for a usage, policy or input
    error, for the caller to raise."""
    print_error(err, message)
    return typer.Exit(code=EXIT_USAGE)


def exit_code(outcome: Outcome) -> int:
    return EXIT_CODES[outcome]


def marked(text: str, spans: Iterable[tuple[int, int, str]]) -> Text:
    """`text` made safe, with a rich style over each (start, end, style) span of the
    ORIGINAL text (escaping changes lengths, so it is cut at every span edge first)."""
    spans = [(s, e, style) for s, e, style in spans if 0 <= s < e <= len(text)]
    cuts = sorted({0, len(text), *(s for s, _, _ in spans), *(e for _, e, _ in spans)})
    out = Text()
    for a, b in zip(cuts, cuts[1:]):
        styles = " ".join(style for s, e, style in spans if s <= a and b <= e)
        out.append(safe(text[a:b], newlines=True), style=styles or None)
    return out


def around(text: str, start: int, end: int, style: str, reach: int = 40) -> Text:
    """The span and up to `reach` characters either side, on one line, made safe."""
    before = text[max(0, start - reach) : start]
    after = text[end : end + reach]
    line = Text("\u2026" if start > reach else "")
    line.append(safe(before))
    span = text[start:end] if end - start <= 5 * reach else text[start : start + 5 * reach] + "\u2026"
    line.append(safe(span), style=style)
    line.append(safe(after))
    if end + reach < len(text):
        line.append("\u2026")
    return line
