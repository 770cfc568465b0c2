"""Text for human eyes: every character a reader cannot see is shown as a visible token.

A draft can try to hide itself from its reviewer: `ESC[8m` (concealed), U+202E
(right-to-left override) reordering what follows, zero-width characters splitting a
word, a line separator the page does not break on. Which characters count, and the
token each is shown as (`\\x1b`, `⟨U+202E⟩`), is the terminal's rule
(`redline.terminal`); this module cuts a text into plain runs and revealed characters,
so that a page can escape the one and mark up the other. Line feeds and tabs are kept.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from redline.terminal import safe

__all__ = ["Piece", "hidden_token", "reveal", "reveal_pieces"]

_KEPT = frozenset("\n\t")  # line breaks and tabs lay text out; they hide nothing


def hidden_token(char: str) -> str | None:
    """The visible token for `char` when a reader could not see it as written, else None.
    One rule for every human output: the terminal's (`redline.terminal.safe`)."""
    shown = safe(char, newlines=True)
    return None if shown == char else shown


# Unicode gives controls no names; these are the ones a hostile draft uses most.
_CONTROL_NAMES = {0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x0B: "LINE TABULATION", 0x0C: "FORM FEED",
                  0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE", 0x7F: "DELETE", 0x85: "NEXT LINE",
                  0x9B: "CONTROL SEQUENCE INTRODUCER"}  # fmt: skip


def char_name(char: str) -> str:
    """`U+202E RIGHT-TO-LEFT OVERRIDE`: the code point and its name, for a tooltip."""
    code = ord(char)
    name = unicodedata.name(char, "") or _CONTROL_NAMES.get(code) or (
        "CONTROL CHARACTER" if unicodedata.category(char) == "Cc" else "UNNAMED"
    )
    return f"U+{code:04X} {name}"


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of `text`: plain (`hidden` False) or one hidden character (`shown` its token)."""

    text: str
    hidden: bool = False
    shown: str = ""

    @property
    def title(self) -> str:
        return char_name(self.text) if self.hidden else ""


def reveal_pieces(text: str) -> Iterator[Piece]:
    """`text` cut into plain runs and hidden characters, in order; joined, they are `text`."""
    start = 0
    for index, char in enumerate(text):
        if char.isascii() and (char.isprintable() or char in _KEPT):
            continue  # the common case, without a table lookup
        token = hidden_token(char)
        if token is None:
            continue
        if index > start:
            yield Piece(text[start:index])
        yield Piece(char, hidden=True, shown=token)
        start = index + 1
    if start < len(text):
        yield Piece(text[start:])


def reveal(text: str) -> str:
    """`text` with each hidden character replaced by its token (for a terminal or a log)."""
    return "".join(p.shown if p.hidden else p.text for p in reveal_pieces(text))
