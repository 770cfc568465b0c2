"""What the words around a hit say about it: ConText (Harkema et al. 2009), sentence-bounded.

A trigger sets a status for the hits in its scope: forward triggers ("no", "history of",
"if") reach to the end of the sentence, backward ones ("ruled out", "aren't") to its
start, both stopped early by a terminator of that status ("but", "presents") or a
pseudo-trigger ("no problem"). Where phrases overlap, the longest wins, so a pseudo-trigger
hides the trigger inside it. Words of the hit itself never count: "can't breathe" is not
negated by its own "can't".

The phrases live in data/context_triggers.tsv. They are compiled once into one
Aho-Corasick automaton over word-padded phrases, so one pass over the sentence finds
every phrase on word boundaries; `assess` runs on the gate's hot path, once per hit.
"""

from __future__ import annotations

import re
from importlib import resources

import ahocorasick_rs

from redline.types import ContextAssessment, Cue, Status

__all__ = ["assess"]

_PRIORITY = (
    Status.NEGATED,
    Status.HYPOTHETICAL,
    Status.HISTORICAL,
    Status.ATTRIBUTED,
    Status.OTHER_EXPERIENCER,
)
_STATUS_BY_NAME = {s.value: s for s in _PRIORITY}

_TRIGGER, _STOP = 0, 1  # a pseudo-trigger stops its status's scope, like a terminator
_NO_WINDOW = 1 << 30

# Punctuation becomes a space and digits become "0", one character for one, so matches
# in the folded sentence are matches in the shadow text at the same offsets. The
# apostrophe stays: "last month's fee" must not read as "last month".
_FOLD = {ord(c): " " for c in "!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\u2014\u2013"}
_FOLD.update({ord(d): "0" for d in "0123456789"})
_FOLD[ord("\u2019")] = "'"

# A sentence ends at . ! ? before a space (or the end), at a newline, and at ";".
_ABBREVIATIONS = frozenset(
    "dr mr mrs ms st vs etc approx fig inc ltd co jr sr no nos dept e.g i.e p.o".split()
)
_QUOTES = (('"', '"'), ("\u201c", "\u201d"))


def _load() -> tuple[ahocorasick_rs.AhoCorasick, list[list[tuple]], re.Pattern[str], dict]:
    """Read the trigger table: one automaton for word phrases, one regex for the rest."""
    table = resources.files("redline.screen").joinpath("data/context_triggers.tsv")
    by_phrase: dict[str, list[tuple]] = {}
    literal: dict[str, list[tuple]] = {}
    for number, line in enumerate(table.read_text("utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        phrase, category, direction = cols[0], cols[1], cols[2]
        window = int(cols[3]) if len(cols) > 3 and cols[3] else _NO_WINDOW
        if category in ("pseudo", "terminate"):
            statuses = _PRIORITY if direction == "all" else (_STATUS_BY_NAME[direction],)
            entries = [(_STOP, s, False, False, window, category == "pseudo") for s in statuses]
        else:
            status = _STATUS_BY_NAME[category]
            if direction not in ("forward", "backward", "both"):
                raise ValueError(f"context_triggers.tsv:{number}: bad direction {direction!r}")
            fwd, bwd = direction != "backward", direction != "forward"
            entries = [(_TRIGGER, status, fwd, bwd, window, False)]
        if phrase[0].isalnum():
            key = " " + phrase.translate(_FOLD) + " "
            by_phrase.setdefault(key, []).extend(entries)
        else:
            literal.setdefault(phrase, []).extend(entries)
    phrases = list(by_phrase)
    automaton = ahocorasick_rs.AhoCorasick(phrases)
    # Literal phrases (", we", ":") end scopes; the longest alternative must win.
    alternatives = (
        re.escape(p) + (r"(?!\w)" if p[-1].isalnum() else "")
        for p in sorted(literal, key=len, reverse=True)
    )
    return automaton, [by_phrase[p] for p in phrases], re.compile("|".join(alternatives)), literal


_AUTOMATON, _ENTRIES, _LITERAL_RE, _LITERAL_ENTRIES = _load()


def _ends_sentence(text: str, i: int) -> bool:
    char = text[i]
    if char in "\n;":
        return True
    if i + 1 < len(text) and not text[i + 1].isspace():
        return False  # "5.5", "14:05", "e.g.x"
    if char != ".":
        return True
    word = text[text.rfind(" ", 0, i) + 1 : i]
    return not ("." in word or word in _ABBREVIATIONS)


def _sentence_start(text: str, pos: int) -> int:
    best = max(text.rfind("\n", 0, pos), text.rfind(";", 0, pos))
    for char in ".!?":
        i = text.rfind(char, best + 1, pos)
        while i > best:
            if _ends_sentence(text, i):
                best = i
                break
            i = text.rfind(char, best + 1, i)
    return best + 1


def _sentence_end(text: str, pos: int) -> int:
    end = len(text)
    for char in ".!?\n;":
        i = text.find(char, pos, end)
        while i != -1:
            if _ends_sentence(text, i):
                end = i
                break
            i = text.find(char, i + 1, end)
    return end


def _phrases(sentence: str, hit_start: int, hit_end: int) -> list[tuple[int, int, list[tuple]]]:
    """Every phrase in the sentence outside the hit, longest-first where they overlap."""
    padded = " " + sentence.translate(_FOLD) + " "
    found = [
        (start, end - 2, _ENTRIES[index])  # drop the padding: offsets in `sentence`
        for index, start, end in _AUTOMATON.find_matches_as_indexes(padded, overlapping=True)
    ]
    for m in _LITERAL_RE.finditer(sentence):
        found.append((m.start(), m.end(), _LITERAL_ENTRIES[m.group()]))
    found.sort(key=lambda f: (f[0], -f[1]))
    kept = []
    covered = -1
    for start, end, entries in found:
        if start < hit_end and end > hit_start:
            continue  # the hit's own words are never its cue
        if end <= covered:
            continue  # inside a longer phrase: "no" in "no problem"
        kept.append((start, end, entries))
        covered = end
    return kept


def assess(text: str, start: int, end: int) -> ContextAssessment:
    """The context cues that apply to the hit text[start:end] of a normalized shadow text."""
    s0 = _sentence_start(text, start)
    sentence = text[s0 : _sentence_end(text, end)]
    hs, he = start - s0, end - s0
    phrases = _phrases(sentence, hs, he)
    found: dict[Status, tuple[int, int]] = {}

    # Walk outwards from the hit on each side; a stop blocks everything further away.
    for side in (0, 1):
        blocked: set[Status] = set()
        ordered = (
            [p for p in reversed(phrases) if p[1] <= hs]
            if side == 0
            else [p for p in phrases if p[0] >= he]
        )
        for p_start, p_end, entries in ordered:
            gap = sentence[p_end:hs] if side == 0 else sentence[he:p_start]
            for kind, status, fwd, bwd, window, _pseudo in entries:
                if status in blocked:
                    continue
                if kind == _STOP:
                    blocked.add(status)
                    continue
                if status in found or not (fwd if side == 0 else bwd):
                    continue
                if window != _NO_WINDOW and (gap.count(" ") - 1 > window or "," in gap):
                    continue
                found[status] = (s0 + p_start, s0 + p_end)

    if Status.ATTRIBUTED not in found:
        quote = _quoted(sentence, hs, he)
        if quote is not None:
            found[Status.ATTRIBUTED] = (s0 + quote, s0 + quote + 1)

    return ContextAssessment(
        cues=tuple(
            Cue(status, text[found[status][0] : found[status][1]], *found[status])
            for status in _PRIORITY
            if status in found
        )
    )


def _quoted(sentence: str, hs: int, he: int) -> int | None:
    """Offset of the opening quote when the hit sits inside a quotation."""
    for opening, closing in _QUOTES:
        before = sentence.rfind(opening, 0, hs)
        if before == -1 or sentence.find(closing, he) == -1:
            continue
        if opening == closing and sentence.count(opening, 0, hs) % 2 == 0:
            continue
        if opening != closing and sentence.rfind(closing, before, hs) != -1:
            continue
        return before
    return None
