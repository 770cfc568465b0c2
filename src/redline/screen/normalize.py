"""The shadow text the screen matches on, with a map back to the original offsets.

Pipeline (the first step of a check): per character NFKC with combining marks dropped,
case-folded, confusable letters folded to their Latin look-alike, format characters
(zero-width, soft hyphen, bidi controls) removed; then whitespace runs folded to one
space (a newline where the run holds a line break, so sentences stay apart); then
letter-spaced words ("r e f u n d") joined. Every step only deletes or replaces
characters, so a span of the shadow maps back to exactly one span of the original.

Two more views of the same text, both with offsets mapped back:
- `strip_invisible`, what detectors read: the original (case and format kept, since keys
  are case-sensitive) less every character the shadow drops outright (default-ignorable
  code points, format characters, combining marks, variation selectors, tag characters),
  with fullwidth ASCII read as ASCII, so `AKIA\u034fIOSF…`, `ＡＫＩＡIOSF…` and
  `bob\U000e0041@example.com` read as the key and the address.
- `normalize(text, join_symbols=True)`, a second reading for texts where a symbol or an
  emoji stands between two letters (`re🎉fund`): such a run is removed there. It is a
  SECOND reading, not the shadow itself, because the same run may instead separate two
  words (`refund🎉thanks`); the gate matches both readings.

Pure ASCII text, the common case, skips the per-character work: `str.lower()` keeps its
length, so the first map is the identity and only the regex steps can move offsets.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import re2

from redline.types import frozen_shell

_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
# Whitespace runs to fold: two or more whitespace characters, or one that is neither a
# space nor a newline. A run of newlines alone is left as it is: it cannot join two
# words into a phrase, and the context layer ends a sentence at a newline anyway.
_WS_EDIT = re.compile(r"\s{2,}|[^\S \n]")
_ASCII_WS = rb"\t\n\x0b\x0c\r\x1c-\x1f "
_WS_EDIT_ASCII = re2.compile(rb"[" + _ASCII_WS + rb"]{2,}|[\t\x0b\x0c\r\x1c-\x1f]")
# Four or more single letters separated by single spaces: "r e f u n d".
_SPACED = re.compile(r"(?<!\w)(?:[^\W\d_] ){3,}[^\W\d_](?!\w)")
_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")

# One linear-time RE2 pass says which of the two steps a text may need (a superset:
# it ignores word boundaries); most drafts need neither, and `re` scanning 1 KB for
# either pattern costs several times the RE2 pass.
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False
_ODD_WS = r"\t\x0b\x0c\r\x1c-\x1f\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}"
# a single letter or digit standing alone, four times in a row ("had a b c" does not
# count: its "d" belongs to a word); every match of _SPACED also matches this
_LETTER_SPACED_GATE = r"(?:^|[^\pL\pN])[\pL\pN] [\pL\pN] [\pL\pN] [\pL\pN](?:$|[^\pL\pN])"
_STEPS = re2.Set.SearchSet(_RE2_OPTIONS)
_STEPS.Add(rf"[{_ODD_WS}]| [ \n{_ODD_WS}]|\n[ {_ODD_WS}]")  # 0: fold whitespace
_STEPS.Add(_LETTER_SPACED_GATE)  # 1: join letter-spaced words
_STEPS.Compile()
_SPACED_GATE = re2.compile(_LETTER_SPACED_GATE, _RE2_OPTIONS)


def _load_confusables() -> dict[str, str]:
    table: dict[str, str] = {}
    text = resources.files("redline.screen").joinpath("data/confusables.txt").read_text("utf-8")
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        char, latin = line.split("\t")[:2]
        table[char] = latin
    return table


_CONFUSABLES = _load_confusables()
# Default-ignorable code points (Unicode DerivedCoreProperties) that are not format
# characters or marks, which `fold_char` drops by category: the Hangul fillers, and the
# unassigned default-ignorables a renderer must not show (U+FFF0-FFF8, U+E0000-E0FFF).
_IGNORABLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def _ignorable(code: int) -> bool:
    return 0xFFF0 <= code <= 0xFFF8 or 0xE0000 <= code <= 0xE0FFF


@lru_cache(maxsize=65536)
def fold_char(char: str) -> str:
    """One character of the original as it appears in the shadow ("" when removed)."""
    category = unicodedata.category(char)
    if category == "Cs":  # a lone surrogate cannot be encoded for matching
        return "\ufffd"
    if category in ("Cf", "Mn", "Me") or char in _IGNORABLE_LETTERS or _ignorable(ord(char)):
        return ""
    out = char
    for _ in range(4):  # reach a fixed point: casefold can expose new decompositions
        before = out
        pieces = []
        for c in unicodedata.normalize("NFKD", out):
            if unicodedata.combining(c) or unicodedata.category(c) in ("Cf", "Mn", "Me"):
                continue
            pieces.append(c)
        out = unicodedata.normalize("NFKC", "".join(pieces)).casefold()
        out = "".join(_CONFUSABLES.get(c, c) for c in out)
        if out == before:
            break
    return out


class _EditMap:
    """Offsets through one regex step that replaced some runs by shorter text.

    Segment k starts at `new[k]` in the output and at `old[k]` in the input; inside a
    segment offsets move one for one. A replaced run becomes segments of length one.
    """

    __slots__ = ("new", "old")

    def __init__(self, new: list[int], old: list[int]) -> None:
        self.new = new
        self.old = old

    def __call__(self, index: int) -> int:
        k = bisect_right(self.new, index) - 1
        return self.old[k] + (index - self.new[k])


Spans = Iterable[tuple[int, int]]
Replacer = Callable[[str, int, int], tuple[str, list[int]]]


def _apply(text: str, spans: Spans, replace: Replacer) -> tuple[str, _EditMap | None]:
    """Replace each (start, end) span; `replace(text, start, end)` returns the new text
    and, for each of its characters, the input offset it comes from."""
    pieces: list[str] = []
    new: list[int] = [0]
    old: list[int] = [0]
    cursor = 0
    out_len = 0
    for start, end in spans:
        replacement, sources = replace(text, start, end)
        if replacement == text[start:end]:
            continue
        pieces.append(text[cursor:start])
        out_len += start - cursor
        pieces.append(replacement)
        for source in sources:
            new.append(out_len)
            old.append(source)
            out_len += 1
        new.append(out_len)
        old.append(end)
        cursor = end
    if cursor == 0:
        return text, None
    pieces.append(text[cursor:])
    return "".join(pieces), _EditMap(new, old)


def _ws_spans(text: str) -> Spans:
    if text.isascii():  # RE2 on bytes: offsets are character offsets, and no re scan
        return (m.span() for m in _WS_EDIT_ASCII.finditer(text.encode("ascii")))
    return (m.span() for m in _WS_EDIT.finditer(text))


def _fold_ws(text: str, start: int, end: int) -> tuple[str, list[int]]:
    run = text[start:end]
    if run.count("\n") == len(run):
        return run, []
    char = "\n" if any(c in _LINE_BREAKS for c in run) else " "
    return char, [start]


def _join_spaced(text: str, start: int, end: int) -> tuple[str, list[int]]:
    return text[start:end:2], list(range(start, end, 2))


@dataclass(frozen=True, slots=True)
class Shadow:
    """A normalized copy of `original` for matching; `span()` maps offsets back."""

    original: str
    text: str
    _starts: array[int] | None = None  # per character of the folded text: its original start
    _ends: array[int] | None = None
    _maps: tuple[_EditMap, ...] = ()

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of shadow span [start, end) (end > start)."""
        first, last = start, end - 1
        for edit in reversed(self._maps):
            first, last = edit(first), edit(last)
        if self._starts is None or self._ends is None:
            return first, last + 1
        return self._starts[first], self._ends[last]

    @property
    def identity(self) -> bool:
        return self._starts is None and not self._maps


_SHADOW_SHELL = frozen_shell(Shadow)


def _shadow(
    original: str, text: str, starts: array[int] | None, ends: array[int] | None, maps: tuple[_EditMap, ...]
) -> Shadow:
    """`Shadow(...)` at a fraction of a frozen dataclass's cost (types.build_finding)."""
    shell = _SHADOW_SHELL()
    shell.original, shell.text, shell._starts, shell._ends, shell._maps = original, text, starts, ends, maps
    shell.__class__ = Shadow
    shadow: Shadow = shell
    return shadow


def _fold_chars(text: str) -> tuple[str, array[int] | None, array[int] | None]:
    if text.isascii():
        return text.lower(), None, None
    pieces: list[str] = []
    starts = array("l")
    ends = array("l")
    cursor = 0
    for run in _NON_ASCII_RUN.finditer(text):
        run_start, run_end = run.span()
        if run_start > cursor:  # an ASCII stretch folds in bulk, one for one
            pieces.append(text[cursor:run_start].lower())
            starts.extend(range(cursor, run_start))
            ends.extend(range(cursor + 1, run_start + 1))
        for offset in range(run_start, run_end):
            folded = fold_char(text[offset])
            if folded:
                pieces.append(folded)
                starts.extend([offset] * len(folded))
                ends.extend([offset + 1] * len(folded))
        cursor = run_end
    if cursor < len(text):
        pieces.append(text[cursor:].lower())
        starts.extend(range(cursor, len(text)))
        ends.extend(range(cursor + 1, len(text) + 1))
    return "".join(pieces), starts, ends


# Fullwidth ASCII (U+FF01-FF5E) to ASCII, case kept: the only folding detectors get
_FULLWIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_FULLWIDTH_ANY = re.compile("[\uff01-\uff5e]")


def strip_invisible(text: str) -> tuple[str, array[int] | None]:
    """`text` less every character the shadow drops outright (zero-width, soft hyphen,
    bidi and other format characters, combining marks, variation selectors, tag
    characters), fullwidth letters and digits read as ASCII, case and all else kept,
    with the original offset of each kept character (None when nothing went)."""
    if text.isascii():
        return text, None
    if _FULLWIDTH_ANY.search(text):  # `ＡＫＩＡ…` is a key too: one character for one
        text = text.translate(_FULLWIDTH)
    dropped = [
        offset
        for run in _NON_ASCII_RUN.finditer(text)
        for offset in range(*run.span())
        if not fold_char(text[offset])
    ]
    if not dropped:
        return text, None
    pieces: list[str] = []
    offsets = array("l")
    cursor = 0
    for offset in dropped:
        if offset > cursor:
            pieces.append(text[cursor:offset])
            offsets.extend(range(cursor, offset))
        cursor = offset + 1
    pieces.append(text[cursor:])
    offsets.extend(range(cursor, len(text)))
    return "".join(pieces), offsets


# A run of non-ASCII symbols or punctuation (emoji, dingbats, bullets) between two letters:
# `re🎉fund`. Dashes, brackets and quotes are left alone: they separate words in prose.
_IN_WORD = re.compile(r"(?<=[^\W\d_])[^\x00-\x7f\w\s]+(?=[^\W\d_])")
_IN_WORD_CATEGORIES = frozenset({"So", "Sk", "Sm", "Sc", "Po"})


def _in_word_symbols(folded: str) -> Iterator[tuple[int, int]]:
    if folded.isascii():
        return
    for match in _IN_WORD.finditer(folded):
        if all(unicodedata.category(c) in _IN_WORD_CATEGORIES for c in match.group()):
            yield match.span()


def has_symbols_in_words(shadow_text: str) -> bool:
    """Whether `normalize(text, join_symbols=True)` reads `text` differently."""
    return next(_in_word_symbols(shadow_text), None) is not None


def _remove(text: str, start: int, end: int) -> tuple[str, list[int]]:
    return "", []


def normalize(text: str, *, join_symbols: bool = False) -> Shadow:
    """The shadow of `text`; `normalize(normalize(t).text).text == normalize(t).text`.

    `join_symbols`: also remove symbols and emoji that stand between two letters.
    """
    folded, starts, ends = _fold_chars(text)
    maps: list[_EditMap] = []
    if join_symbols:
        folded, edit = _apply(folded, list(_in_word_symbols(folded)), _remove)
        if edit is not None:
            maps.append(edit)
    steps = _STEPS.Match(folded)
    if not steps:
        return _shadow(text, folded, starts, ends, tuple(maps))
    if 0 in steps:
        folded, edit = _apply(folded, _ws_spans(folded), _fold_ws)
        if edit is not None:
            maps.append(edit)
            # folding can bring single letters together: "r  e f u" reads "r e f u" now
            if 1 not in steps and _SPACED_GATE.search(folded):
                steps.append(1)
    if 1 in steps and _SPACED.search(folded):
        folded, edit = _apply(folded, (m.span() for m in _SPACED.finditer(folded)), _join_spaced)
        if edit is not None:
            maps.append(edit)
    return _shadow(text, folded, starts, ends, tuple(maps))
