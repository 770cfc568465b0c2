"""What the words around a hit say about it: ConText (Harkema et al. 2009), sentence-bounded.

A trigger sets a status for the hits in its scope: forward triggers ("no", "history of",
"if") reach to the end of the sentence, backward ones ("ruled out", "aren't") to its
start, both stopped early by a terminator of that status ("but", "presents") or a
pseudo-trigger ("no problem"). Where phrases overlap, the longest wins, so a pseudo-trigger
hides the trigger inside it. Words of the hit itself never count: "can't breathe" is not
negated by its own "can't".

Besides ConText's categories the table has `neutral` phrases (they hide the shorter
phrases inside them: "ask for" keeps "for" from ending a negation), `terminate_forward`
ones (a terminator for triggers before the hit only: "the deposit FOR YOUR table isn't
refundable" is negated) and `current` ones
("since this morning": a terminator of historical scope, and right after the hit a
sign that it is present), and `{a|b}` alternatives that expand at load. The status
`uncertain` ("possible", "may be") is set like any other and is not suppressed by
default (policy/schema.py).

The phrases live in data/context_triggers.tsv. They are compiled once into one
Aho-Corasick automaton over space-padded phrases, and the literal ones (", we", ":")
with the characters that may end a sentence into a second. `TextContext` finds the cues
of a text ONCE: with many hits, the sentence ends, literal phrases and trigger phrases of
the whole text in two passes; with a few, the phrases of each sentence that holds a hit.
Per sentence it resolves the phrases once (longest wins, pseudo-triggers; a sentence
whose phrases do not overlap is resolved as it stands) and looks each hit's walk up by
the sentence's shape (which phrases, in order) and the hit's slot among them, so a hit
costs a few bisections; only a hit whose own words overlap a phrase, or whose walk
measured its distance to a trigger, is walked anew. A walk reads each phrase as two bit
masks (the statuses it stops, those it sets) unless a phrase has a word window.
`assess` is the one-hit form of the same thing.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from itertools import accumulate, compress, count
from operator import itemgetter, lt, sub

import ahocorasick_rs

from redline.policy.dictionary import readings
from redline.policy.words import WORDS
from redline.types import ContextAssessment, Cue, Status

__all__ = ["Cues", "TextContext", "as_assessment", "assess", "names_another_person", "names_no_one", "without_modifiers"]

_PRIORITY = (
    Status.NEGATED,
    Status.HYPOTHETICAL,
    Status.HISTORICAL,
    Status.ATTRIBUTED,
    Status.OTHER_EXPERIENCER,
    Status.UNCERTAIN,
)
_STATUS_BY_NAME = {s.value: s for s in _PRIORITY}
_STATUSES = len(_PRIORITY)
_UNBOUNDED = 1 << 30
_ALTERNATIVES = re.compile(r"\{([^{}]*)\}")

# Punctuation becomes a space and digits become "0", one character for one, so offsets
# in the folded sentence are offsets in the shadow text. The apostrophe stays:
# "last month's fee" must not read as "last month".
_FOLD = {ord(c): " " for c in "!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\u2013\u2014"}
_FOLD.update({ord(d): "0" for d in "0123456789"})
_FOLD[ord("\u2019")] = "'"
# Over a whole text every line break and tab is a word boundary too (a sentence slice
# used to supply that by its padding).
_FOLD_TEXT = {**_FOLD, **{ord(c): " " for c in "\n\r\t\x0b\x0c\x85\u2028\u2029"}}

# A period after these does not end a sentence. Words that often end one ("no", "etc")
# are left out: a sentence wrongly joined lets "The answer is no." negate the next one.
_ABBREVIATIONS = frozenset("dr mr mrs ms vs approx fig jr sr dept".split())
# However long the sentence, look at most this far either side of the hit: a scope of
# more than ~80 words is rarely real, and it keeps the cost of a call bounded.
_REACH = 480
# A short-range trigger ("status post", "aren't") reaches only within its own clause.
_CLAUSE_MARK = re.compile(r"[,:;()]").search
_WORDS = re.compile(r"[\w']+").findall
_QUOTES = (('"', '"'), ("\u201c", "\u201d"))
_OPENINGS = tuple(opening for opening, _ in _QUOTES)

# An entry is (stops, status, window): a stop (terminator or pseudo-trigger) ends the
# scope of `status` beyond it; otherwise the phrase sets `status` within `window` words.
# An entry with a negative window -n, after the hit and within n words of it, takes back
# `status` found before the hit: a `current` phrase ("since this morning", "now") says
# the hit is present, not historical. Before the hit the same phrase is a terminator.
# A phrase holds (entries when it precedes the hit, entries when it follows, is_pseudo).
_Entry = tuple[bool, Status, int]
# A side's entries as two bit masks over _PRIORITY, (statuses it stops, statuses it sets),
# for `_walk_plain`; None where the side holds an entry with a word window or a `current`
# one (those measure the distance to the hit: `_walk` reads them).
_Code = tuple[int, int] | None
_Phrase = tuple[list[_Entry], list[_Entry], bool, tuple[_Code, _Code]]
# A literal phrase: its text, its entries, and whether it ends in a letter or digit.
_Literal = tuple[str, _Phrase, bool]


def _load() -> tuple[
    ahocorasick_rs.AhoCorasick, list[_Phrase], ahocorasick_rs.AhoCorasick, list[_Literal], frozenset[int],
    frozenset[str],
]:
    """Read the trigger table: one automaton for word phrases, one for the literal rest,
    the indexes of the word phrases that end in a year ("in 0000"), and the one-word
    phrases that name another person ("partner", "sibling": `without_modifiers`).

    Each phrase gets two entry lists, one for when it stands before the hit (stops and
    forward triggers) and one for after it (stops and backward triggers).
    """
    source = "redline/screen/data/context_triggers.tsv"
    table = resources.files("redline.screen").joinpath("data/context_triggers.tsv")
    words: dict[str, tuple[list[_Entry], list[_Entry], list[bool]]] = {}
    literal: dict[str, tuple[list[_Entry], list[_Entry], list[bool]]] = {}
    for number, line in enumerate(table.read_text("utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        try:
            phrase, category, direction = cols[0], cols[1], cols[2]
            window = int(cols[3]) if len(cols) > 3 and cols[3] else _UNBOUNDED
            if category in ("pseudo", "terminate", "terminate_forward"):
                statuses = _PRIORITY if direction == "all" else (_STATUS_BY_NAME[direction],)
                before = after = [(True, s, window) for s in statuses]
                if category == "terminate_forward":
                    after = []  # it ends a scope that runs forward to the hit, not one reaching back
            elif category == "neutral":  # hides the shorter phrases inside it, sets nothing
                before = after = []
            elif category == "current":  # ends `direction`'s scope; right after the hit, takes it back
                status = _STATUS_BY_NAME[direction]
                reach = window if window != _UNBOUNDED else 3
                before, after = [(True, status, _UNBOUNDED)], [(False, status, -reach)]
            else:
                if direction not in ("forward", "backward", "both"):
                    raise ValueError(f"direction {direction!r}")
                entry = [(False, _STATUS_BY_NAME[category], window)]
                before = entry if direction != "backward" else []
                after = entry if direction != "forward" else []
        except (IndexError, KeyError, ValueError) as exc:
            raise ValueError(f"{source}:{number}: bad row {line!r} ({exc})") from exc
        for variant in _informal(_expand(phrase)):  # "{although|but} she did" is two phrases
            key = " " + variant.translate(_FOLD) + " " if variant[0].isalnum() else variant
            slot = (words if variant[0].isalnum() else literal).setdefault(key, ([], [], []))
            slot[0].extend(before)
            slot[1].extend(after)
            slot[2].append(category in ("pseudo", "neutral"))
    phrases = list(words)
    years = frozenset(i for i, phrase in enumerate(phrases) if phrase.endswith(" 0000 "))
    people = frozenset(
        phrase.strip() for phrase, (before, _, _) in words.items()
        if phrase.strip().isalpha() and any(s is Status.OTHER_EXPERIENCER and not stops for stops, s, _ in before)
    )
    entries: list[_Phrase] = [(b, a, any(pseudo), (_code(b), _code(a))) for b, a, pseudo in words.values()]
    # Literal phrases (", we", ":") keep their punctuation and are found in the text as it
    # is. A phrase ending in a letter or digit must not run into a word (", i" in ", it");
    # one ending in punctuation needs white space or the end after it (":" ends "x: y",
    # not "14:05"). `_find_literals` checks that tail.
    literals: list[_Literal] = [
        (p, (b, a, any(pseudo), (_code(b), _code(a))), p[-1].isalnum()) for p, (b, a, pseudo) in literal.items()
    ]
    return ahocorasick_rs.AhoCorasick(phrases), entries, _small_dfa(list(literal)), literals, years, people


def _small_dfa(patterns: list[str]) -> ahocorasick_rs.AhoCorasick:
    # a hundred short patterns make a small DFA, and it scans in half the time of the default NFA
    return ahocorasick_rs.AhoCorasick(patterns, implementation=ahocorasick_rs.Implementation.DFA)


# A sentence may end at one of these (`_ends_sentence`), in this order: a period (the word
# before it decides), "!" and "?" (before white space), then the two that always end one.
_END_CHARS = ".!?\n;"


def _code(side: list[_Entry]) -> _Code:
    """One side's entries as masks: the first entry of a status decides what the phrase
    does to it (a later one finds it stopped or set already)."""
    stops_mask = sets_mask = 0
    for stops, status, window in side:
        if window != _UNBOUNDED and (window < 0 or not stops):
            return None
        bit = 1 << _PRIORITY.index(status)
        if not (stops_mask | sets_mask) & bit:
            if stops:
                stops_mask |= bit
            else:
                sets_mask |= bit
    return stops_mask, sets_mask


def _informal(phrases: list[str]) -> list[str]:
    """The phrases, and each negative contraction in them as it is typed without its
    apostrophe ("dont", "cant", "isnt"): chat drops it, and "we dont offer refunds" is as
    negated as "we don't". The apostrophe-less forms that are words of their own ("cant",
    "wont") are rare enough in a draft to be read as the contraction too."""
    out = list(phrases)
    out += [p.replace("n't", "nt") for p in phrases if "n't" in p and p.replace("n't", "nt") not in phrases]
    return out


def _expand(phrase: str) -> list[str]:
    """Every phrase that `{a|b}` alternatives in `phrase` spell, joined by single spaces."""
    match = _ALTERNATIVES.search(phrase)
    if match is None:
        return [" ".join(phrase.split())]
    head, tail = phrase[: match.start()], phrase[match.end() :]
    return [v for option in match.group(1).split("|") for v in _expand(head + option + tail) if v]


_AUTOMATON, _ENTRIES, _LITERAL_AUTOMATON, _LITERAL_ENTRIES, _YEAR_PHRASES, _PERSON_NOUNS = _load()
_LITERALS = len(_LITERAL_ENTRIES)
# For a whole text, the same literal phrases and the characters that may end a sentence
# (indexes from _LITERALS on), so that a text with many hits gets both from one pass. A
# sentence's own scan keeps to the literal phrases: it does not look for ends.
_TEXT_AUTOMATON = _small_dfa([p for p, _, _ in _LITERAL_ENTRIES] + list(_END_CHARS))
_PERIOD, _QUESTION = _LITERALS, _LITERALS + 2  # the automaton's indexes of "." and "?" (`_END_CHARS`)


def _ends_sentence(text: str, i: int) -> bool:
    char = text[i]
    if char in "\n;":
        return True
    if i + 1 < len(text) and not text[i + 1].isspace():
        return False  # "5.5", "14:05", "e.g.x"
    if char != ".":
        return True
    word = text[text.rfind(" ", 0, i) + 1 : i]
    return not ("." in word or word in _ABBREVIATIONS)  # "e.g.", "dr."


def _sentence_start(text: str, pos: int) -> int:
    floor = max(pos - _REACH, 0)
    best = max(text.rfind("\n", floor, pos), text.rfind(";", floor, pos), floor - 1)
    for char in ".!?":
        i = text.rfind(char, best + 1, pos)
        while i != -1:
            if _ends_sentence(text, i):
                best = i
                break
            i = text.rfind(char, best + 1, i)
    if best == floor - 1 and floor > 0:
        space = text.find(" ", floor, pos)  # cut at a word boundary: never half a word
        best = space if space != -1 else best
    return best + 1


def _sentence_end(text: str, pos: int) -> int:
    end = min(pos + _REACH, len(text))
    # candidates by one search (the character after the last one is in view of its check)
    match = _END_CANDIDATES.search(text, pos, end + 1)
    while match is not None and match.start() < end:
        i = match.start()
        if text[i] != "." or _ends_sentence(text, i):
            return i
        match = _END_CANDIDATES.search(text, i + 1, end + 1)
    if end < len(text) and end == pos + _REACH:
        end = max(text.rfind(" ", pos, end), pos)
    return end


_Found = tuple[int, int, _Phrase]


_FOLD_BYTES = bytes(
    ord(_FOLD_TEXT[i]) if i in _FOLD_TEXT and isinstance(_FOLD_TEXT[i], str) else i for i in range(128)
) + bytes(range(128, 256))


def _folded(text: str) -> str:
    if text.isascii():  # bytes.translate is a table lookup, a fraction of str.translate
        return text.encode("ascii").translate(_FOLD_BYTES).decode("ascii")
    return text.translate(_FOLD_TEXT)


def _find_phrases(text: str, s0: int = 0, literal: list[tuple[int, int, int]] | None = None) -> list[_Found]:
    """Every trigger phrase in `text` (offsets + s0), sorted by start, longest first.
    `literal`: the literal phrases an automaton found in `text`, where the caller has them."""
    padded = " " + _folded(text) + " "
    matches = _AUTOMATON.find_matches_as_indexes(padded, overlapping=True)
    if " 0000 " in padded:
        matches = [m for m in matches if m[0] not in _YEAR_PHRASES or _past_year(text[m[2] - 6 : m[2] - 2])]
    found: list[_Found] = [(s0 + start, s0 + end - 2, _ENTRIES[index]) for index, start, end in matches]  # unpadded
    literal = _LITERAL_AUTOMATON.find_matches_as_indexes(text, overlapping=True) if literal is None else literal
    if literal:
        _find_literals(text, s0, literal, found)
    if len(found) > 1:  # by start, the longest first: two stable sorts, no key function per phrase
        found.sort(key=_END, reverse=True)
        found.sort(key=_START)
    return found


_START, _END = itemgetter(0), itemgetter(1)
_NEXT_WORD = re.compile(r" ([a-z]{1,30})\b").match  # a longer "word" is no noun to look up, nor a cache key
_OTHER = Status.OTHER_EXPERIENCER


def without_modifiers(text: str, found: Cues) -> Cues:
    """`found` less an other-experiencer cue that is a person noun modifying the noun after
    it, so naming nobody: "our PARTNER city", "the SIBLING discount", "a GRANDFATHER
    clock", "our PARENT company". A singular noun before a verb is its subject, and a verb
    after one is inflected ("my son PLAYS", "your father IS", "her husband BOOKED"), so a
    word after it that the dictionary knows as a noun, in no inflected verb form, no
    adverb ("my son TODAY") and no function word, makes one compound with it. Asked of a
    hit's cues where they are used (`assess`; the screen asks `names_no_one` of a cue
    that would set a hit aside), not of every phrase of a text: most hits have no cue."""
    if not any(cue[0] is _OTHER for cue in found):
        return found
    return tuple(cue for cue in found if cue[0] is not _OTHER or not names_no_one(text, cue[1], cue[2]))


def names_no_one(text: str, start: int, end: int) -> bool:
    """Whether the person noun text[start:end] modifies the noun after it (`without_modifiers`)."""
    if text[start:end] not in _PERSON_NOUNS:
        return False
    after = _NEXT_WORD(text, end)
    return after is not None and _noun_after_noun(after.group(1))


@lru_cache(maxsize=4096)
def _noun_after_noun(word: str) -> bool:
    if word in WORDS["closed"]:
        return False
    found = readings(word)
    return "NOUN" in found and not {"ADV", "AUX"} & found.keys() and word in found.get("VERB", (word,))


def _past_year(digits: str) -> bool:
    """Whether a year a trigger names ("in 2019", "during 2019", "since March 2019") is
    before the one the check runs in. ConText's notes tell what has happened, so its date
    is a past; a draft also tells what will happen: "the asteroid will hit Earth in 2032",
    "the site will close in 2030", and a room number reads as a year too ("the guest is in
    9112"). A year from this one on is no sign of history (set aside, a hit would let a
    red line through). The year is the clock's, so a draft dated this year reads as history
    from the next one on."""
    return int(digits) < time.gmtime().tm_year


def _find_literals(text: str, s0: int, matches: list[tuple[int, int, int]], found: list[_Found]) -> None:
    """Add the literal phrases among `matches` (every occurrence, overlapping) to `found`:
    from left to right, at each start the longest whose tail holds, none overlapping
    another (what a regex alternation of them, longest first, finds). The automaton finds
    the occurrences in C; sre tested each character of the text against a class."""
    if len(matches) > 1:
        matches.sort(key=_MATCH_END, reverse=True)  # then by start, the longest first
        matches.sort(key=_MATCH_START)
    size, after = len(text), 0
    for index, start, end in matches:
        if start < after or index >= _LITERALS:
            continue  # inside the phrase just taken, or a shorter one at its start; or a sentence end
        _, entries, word_tail = _LITERAL_ENTRIES[index]
        if end < size:
            char = text[end]
            if (char.isalnum() or char == "_") if word_tail else not char.isspace():
                continue  # ", i" in ", it"; ":" in "14:05"
        found.append((s0 + start, s0 + end, entries))
        after = end


_MATCH_END, _MATCH_START = itemgetter(2), itemgetter(1)


def _resolve(phrases: list[_Found], spans: tuple[tuple[int, int], ...]) -> list[_Found]:
    """The phrases that may be cues: none inside the hit's own words, longest first where
    they overlap, a pseudo-trigger hiding the trigger inside it."""
    kept: list[_Found] = []
    covered = -1
    (hit_start, hit_end), *others = spans or ((-1, -1),)  # no spans: the sentence as it is
    for start, end, entries in phrases:
        if (start < hit_end and end > hit_start) or (others and any(start < he and end > hs for hs, he in others)):
            continue  # the hit's own words are never its cue
        if end <= covered:
            continue  # inside a longer phrase: "no" in "no problem"
        if start < covered and (entries[2] or kept[-1][2][2]):
            # A pseudo-trigger also beats a phrase it only overlaps: "is [not] going away".
            if not entries[2]:
                continue
            kept.pop()
        kept.append((start, end, entries))
        covered = end
    return kept


# A sentence ends at a line break or ";", or at ". ! ?" before white space or the end
# (`_ends_sentence` for one offset; `_sentence_ends` for a whole text in one pass).
# One character class first, so the regex engine skips to candidates in C; an alternation
# ("[\n;]|[.!?](?!\S)") would test every character (three times slower).
_END_CANDIDATES = re.compile(r"[.!?\n;](?!(?<=[.!?])\S)")
_NO_CUES = ContextAssessment()


def _sentence_ends(
    text: str, literal: list[tuple[int, int, int]] | None = None, phrases: list[tuple[int, int, int]] | None = None
) -> list[int]:
    """Every offset of `text` where `_ends_sentence` holds, in order. `literal`: what
    `_TEXT_AUTOMATON` finds in `text` (its sentence-end characters are read from it);
    its literal phrases go to `phrases`, where given.

    For a period the word before it decides ("e.g.", "dr."): its start is found between
    this period and the one before (the automaton reports every period), so a text
    without spaces costs one pass, not one search back to the start per period."""
    if literal is None:
        literal = _TEXT_AUTOMATON.find_matches_as_indexes(text, overlapping=True)
    ends: list[int] = []
    dot = -1  # the last period
    last = len(text) - 1
    for match in literal:  # an end is one character: by offset
        index, i, _ = match
        if index < _PERIOD:
            if phrases is not None:
                phrases.append(match)  # a literal phrase
            continue
        if index > _QUESTION:  # a line break or ";"
            ends.append(i)
            continue
        if i < last and not text[i + 1].isspace():
            if index == _PERIOD:
                dot = i
            continue  # "5.5", "e.g.x": only before white space or the end
        if index == _PERIOD:
            previous, dot = dot, i
            space = text.rfind(" ", previous + 1, i)
            if space == -1 and previous != -1:
                continue  # the word holds a period: "e.g."
            if text[space + 1 : i] in _ABBREVIATIONS:
                continue
        ends.append(i)
    return ends


# A hit looks at most this many phrases on each side of it, the nearest ones: a real
# sentence has a handful, and a text packed with triggers ("no refund no refund …")
# cannot make each of its hits cost the whole window.
_NEAREST = 16
# Assessments kept per text, by the exact sentence and the hit's place in it: a text that
# repeats one sentence shape (the same hit among the same words) is assessed once per
# shape. Bounded, so that a text of all different sentences costs no memory.
_MEMO_SIZE = 256
# The cues of a hit as (status, start, end), in status priority order: `TextContext.cues`
# gives text offsets, the walk and the memo offsets in the sentence.
Cues = tuple[tuple[Status, int, int], ...]


class _Sentence:
    """One sentence's trigger phrases, found once and shared by every hit in it.

    `resolved` are the phrases that may be cues when no hit word overlaps one (None for a
    sentence packed with phrases: it is walked by the nearest ones of each hit). Their
    ends rise strictly, so a hit between them has the phrases before it as a prefix and
    those after it as the rest: its SLOT. Two hits in one slot get the same walk unless
    the walk measured a distance to the hit (a trigger with a word window, a `current`
    phrase), so an answer that measured none is kept per slot."""

    __slots__ = ("raw", "starts", "reach", "resolved", "resolved_ends", "slots", "shape")

    def __init__(self, raw: list[_Found]) -> None:
        self.raw = raw
        self.starts: Sequence[int]
        self.slots: dict[int, Cues] = {}
        self.resolved: list[_Found] | None
        self.shape: tuple[int, ...]
        if not raw:
            self.starts, self.reach, self.resolved, self.resolved_ends, self.shape = [], [-1], raw, [], ()
            return
        if len(raw) == 1:  # the common case, and one phrase hides none
            self.starts, self.reach, self.resolved, self.resolved_ends = [raw[0][0]], [-1, raw[0][1]], raw, [raw[0][1]]
            self.shape = (id(raw[0][2]),)
            return
        if len(raw) > 2 * _NEAREST:  # walked by each hit's nearest phrases (TextContext.cues)
            self.starts = [p[0] for p in raw]
            self.reach, self.resolved, self.resolved_ends, self.shape = [], None, [], ()
            return
        starts, stops, entries = zip(*raw)
        self.starts = starts
        self.reach = list(accumulate(stops, max, initial=-1))  # furthest end of raw[:k]
        if any(map(lt, starts[1:], self.reach[1:-1])):  # a phrase starts inside an earlier one
            self.resolved = _resolve(raw, ())
            self.resolved_ends = [p[1] for p in self.resolved]
            entries = tuple(p[2] for p in self.resolved)
        else:  # none overlaps another: resolved as they stand
            self.resolved, self.resolved_ends = raw, list(stops)
        # which phrases, in order: the table's entries live as long as the module, so their
        # ids name them (two phrases of one table row share their entries)
        self.shape = tuple(map(id, entries))

    def overlaps(self, start: int, end: int) -> bool:
        """Whether a phrase overlaps text[start:end] (then it is resolved without it)."""
        return self.reach[bisect_left(self.starts, end)] > start


class TextContext:
    """The context layer over one text. With a few hits, each hit's sentence is found by a
    search and scanned for trigger phrases once (hits in one sentence share the scan);
    with `many` hits, the sentence ends and the phrases of the whole text are found in one
    pass each, so every hit costs a few bisections and, mostly, a look-up of its slot."""

    __slots__ = (
        "text", "_ends", "_phrases", "_starts", "_stops", "_ids", "_tangled", "_longest", "_quotes", "_sentences",
        "_memo",
    )

    def __init__(self, text: str, many: bool = False) -> None:
        self.text = text
        self._ends: list[int] | None = None
        self._phrases: list[_Found] | None = None
        self._starts: Sequence[int] = ()
        self._stops: Sequence[int] = ()
        self._ids: tuple[int, ...] = ()
        self._tangled: list[int] = []
        self._quotes = any(map(text.__contains__, _OPENINGS))
        self._longest = 0
        if many:
            literal: list[tuple[int, int, int]] = []
            self._ends = _sentence_ends(text, _TEXT_AUTOMATON.find_matches_as_indexes(text, overlapping=True), literal)
            phrases = self._phrases = _find_phrases(text, 0, literal)
            if phrases:  # column by column, in C
                starts, stops, entries = zip(*phrases)
                self._starts, self._stops = starts, stops
                self._longest = max(map(sub, stops, starts))
                # For `cues`: each phrase's table entries by id (a walk's shape), and the
                # phrases that start inside the one before (mostly none). Phrases of a
                # sentence that overlap make one of these between them (the phrase after the
                # first of two that overlap starts inside it, or inside the one before it),
                # so a sentence without one past its first phrase is already resolved, its
                # phrases a slice of the text's.
                self._ids = tuple(map(id, entries))
                self._tangled = list(compress(count(1), map(lt, starts[1:], stops)))
        self._sentences: dict[tuple[int, int], _Sentence] = {}
        self._memo: dict[tuple[str, int, int, tuple[tuple[int, int], ...]], Cues] = {}

    def _sentence(self, start: int, end: int) -> tuple[int, int]:
        """The sentence around text[start:end], at most _REACH characters either side."""
        text, ends = self.text, self._ends
        if ends is None:
            return _sentence_start(text, start), _sentence_end(text, end)
        floor = start - _REACH if start > _REACH else 0  # max() and min() cost a call per hit
        i = bisect_left(ends, start) - 1
        if i >= 0 and ends[i] >= floor:
            s0 = ends[i] + 1
        elif floor > 0:
            space = text.find(" ", floor, start)  # cut at a word boundary: never half a word
            s0 = space + 1 if space != -1 else floor
        else:
            s0 = 0
        limit = end + _REACH if end + _REACH < len(text) else len(text)
        j = bisect_left(ends, end, i + 1 if i > 0 else 0)
        if j < len(ends) and ends[j] < limit:
            s1 = ends[j]
        else:
            s1 = limit
            if s1 < len(text) and s1 == end + _REACH:
                s1 = max(text.rfind(" ", end, s1), end)
        return s0, s1

    def _held(self, s0: int, s1: int) -> _Sentence:
        key = (s0, s1)
        held = self._sentences.get(key)
        if held is None:
            if self._phrases is None:
                raw = _find_phrases(self.text[s0:s1], s0)
            else:
                first = bisect_left(self._starts, s0)
                last = bisect_left(self._starts, s1, first)
                # only a phrase starting this close to s1 can run past it: filter those alone
                # (a window of a long sentence holds a hundred phrases, one per hit)
                tail = bisect_left(self._starts, s1 - self._longest, first, last)
                raw = self._phrases[first:tail] + [p for p in self._phrases[tail:last] if p[1] <= s1]
            if len(self._sentences) >= _MEMO_SIZE:  # one window per hit in a sentence of many
                self._sentences.clear()
            held = self._sentences[key] = _Sentence(raw)
        return held

    def assess(self, start: int, end: int, others: tuple[tuple[int, int], ...] = ()) -> ContextAssessment:
        """The cues that apply to the hit text[start:end]. `others` are the spans of the
        hit's other words (a topic of two words): never cues either, and never "outside"."""
        return as_assessment(self.text, without_modifiers(self.text, self.cues(start, end, others)))

    def cues(self, start: int, end: int, others: tuple[tuple[int, int], ...] = ()) -> Cues:
        """`assess` as (status, start, end) in text offsets: what the screen reads per hit.
        An other-experiencer cue here may be a noun's modifier (`without_modifiers`): the
        screen asks that only of a cue that would set a hit aside."""
        text = self.text
        s0, s1 = self._sentence(start, end)
        quote = self._quotes and any(opening in text[s0:s1] for opening, _ in _QUOTES)
        if not quote and self._phrases is not None:
            starts, stops = self._starts, self._stops
            first = bisect_left(starts, s0)
            last = bisect_left(starts, s1, first)
            if first == last:
                return ()  # no phrase in the sentence: most sentences of a text with many hits
            # Where the sentence's phrases, a slice of the text's, neither overlap one another
            # nor the hit's words nor run past its end, they are its resolved phrases as they
            # stand, and the hit's walk is looked up by their shape and its slot (inline: this
            # runs once per hit of a dense text). Otherwise `_held` resolves the sentence.
            plain = last - first <= 2 * _NEAREST and stops[last - 1] <= s1  # not packed, none runs past
            tangled = self._tangled  # the phrases that start inside an earlier one: mostly none
            if plain and tangled:
                k = bisect_right(tangled, first)
                plain = k == len(tangled) or tangled[k] >= last
            if plain:
                # disjoint phrases: ends rise with starts, so the one before a word's end reaches furthest
                k = bisect_left(starts, end, first, last)
                plain = (k == first or stops[k - 1] <= start) and (not others or self._clear(first, last, others))
            if plain:
                slot = bisect_right(stops, start, first, last) - first
                shape = (self._ids[first:last], slot)
                picks = _SHAPES.get(shape)
                if picks is None:
                    picks, measured = _walk(text, self._phrases[first:last], slot, start, end)
                    if not measured:
                        if len(_SHAPES) >= _SHAPES_SIZE:
                            _SHAPES.clear()
                        _SHAPES[shape] = picks
                if not picks:
                    return ()
                if len(picks) == 1:
                    status, i = picks[0]
                    return ((status, starts[first + i], stops[first + i]),)
                return tuple((status, starts[first + i], stops[first + i]) for status, i in picks)
        held = self._held(s0, s1)
        raw = held.raw
        if not raw and not quote:
            return ()
        if held.resolved is None:
            # the assessment depends on the sentence (and the characters that bound it) alone
            key = (text[max(s0 - 1, 0) : s1 + 1], start - s0, end - s0, tuple((a - s0, b - s0) for a, b in others))
            relative = self._memo.get(key)
            if relative is None:
                if len(self._memo) >= _MEMO_SIZE:
                    self._memo.clear()
                middle = bisect_left(held.starts, start)
                near = _resolve(raw[max(0, middle - _NEAREST) : middle + _NEAREST], ((start, end), *others))
                found = _placed(near, _walk(text, near, _slot(near, start), start, end)[0])
                relative = self._memo[key] = tuple((s, a - s0, b - s0) for s, a, b in found)
            found = tuple((s, a + s0, b + s0) for s, a, b in relative)
        elif held.overlaps(start, end) or (others and any(held.overlaps(a, b) for a, b in others)):
            phrases = _resolve(raw, ((start, end), *others))  # the hit's own words are never its cue
            found = _placed(phrases, _walk(text, phrases, _slot(phrases, start), start, end)[0])
        else:
            slot = bisect_right(held.resolved_ends, start)
            cached = held.slots.get(slot)
            if cached is None:
                shape = (held.shape, slot)
                picks = _SHAPES.get(shape)
                if picks is None:
                    picks, measured = _walk(text, held.resolved, slot, start, end)
                    if not measured:
                        if len(_SHAPES) >= _SHAPES_SIZE:
                            _SHAPES.clear()
                        _SHAPES[shape] = picks
                    else:
                        found = _placed(held.resolved, picks)
                        return self._quote(found, s0, s1, start, end) if quote else found
                found = held.slots[slot] = _placed(held.resolved, picks)
            else:
                found = cached
        return self._quote(found, s0, s1, start, end) if quote else found

    def _clear(self, first: int, last: int, spans: tuple[tuple[int, int], ...]) -> bool:
        """Whether none of the disjoint phrases text[first:last] overlaps one of `spans`."""
        starts, stops = self._starts, self._stops
        for a, b in spans:
            k = bisect_left(starts, b, first, last)
            if k > first and stops[k - 1] > a:
                return False
        return True

    def _quote(self, found: Cues, s0: int, s1: int, start: int, end: int) -> Cues:
        """`found`, with the quotation the hit stands in as its attribution cue."""
        if not any(status is _ATTRIBUTED for status, _, _ in found):
            opening = _quoted(self.text[s0:s1], start - s0, end - s0)
            if opening is not None:
                cue = (_ATTRIBUTED, s0 + opening, s0 + opening + 1)
                found = tuple(sorted((*found, cue), key=lambda c: _RANK[c[0]]))
        return found


_RANK = {status: rank for rank, status in enumerate(_PRIORITY)}
_ATTRIBUTED = Status.ATTRIBUTED
# A walk that measured no distance depends on the phrases' table entries and the hit's slot
# alone: kept for every text by that shape, as (status, index of the phrase). Sentences
# of a kind ("... no ... HIT ...") recur across texts, so most hits walk nothing.
_Picks = tuple[tuple[Status, int], ...]
_SHAPES: dict[tuple[tuple[int, ...], int], _Picks] = {}
_SHAPES_SIZE = 4096


def _placed(phrases: list[_Found], picks: _Picks) -> Cues:
    """Picks of a walk as cues in text offsets."""
    if not picks:
        return ()
    return tuple((status, phrases[i][0], phrases[i][1]) for status, i in picks)


def _slot(phrases: list[_Found], start: int) -> int:
    """How many of `phrases` (resolved, none overlapping the hit) end before the hit."""
    return bisect_right([p[1] for p in phrases], start)


def _walk(text: str, phrases: list[_Found], slot: int, start: int, end: int) -> tuple[_Picks, bool]:
    """The cues of the hit text[start:end] among resolved `phrases`, the first `slot` of
    them before it, as (status, index of its phrase); and whether the answer measured
    the distance to the hit.

    Walk outwards from the hit on each side: the nearest trigger wins, and a stop blocks
    its status for everything further away."""
    picks = _walk_plain(phrases, slot)
    if picks is not None:
        return picks, False
    return _walk_read(text, phrases, slot, start, end)


def _walk_read(text: str, phrases: list[_Found], slot: int, start: int, end: int) -> tuple[_Picks, bool]:
    """`_walk`, entry by entry, reading the words between a phrase and the hit where an
    entry has a word window or is a `current` one."""
    found: dict[Status, int] = {}
    cancelled: set[Status] = set()
    found_before: set[Status] = set()
    measured = False
    for side, order in ((0, range(slot - 1, -1, -1)), (1, range(slot, len(phrases)))):
        if side == 1:
            found_before = set(found)
        blocked: set[Status] = set()
        for i in order:
            if len(blocked) + len(found) == _STATUSES:
                break  # every status is settled on this side (the two never share one)
            p_start, p_end, entries = phrases[i]
            for stops, status, window in entries[side]:  # type: ignore[union-attr, misc]  # side is 0 or 1: an entry list
                if status in blocked:
                    continue
                if window < 0:  # "since this morning" right after the hit: it is current
                    measured = True
                    if _near(text, end, p_start, -window):
                        cancelled.add(status)
                    continue
                if status in found:
                    continue
                if stops:
                    blocked.add(status)
                    continue
                if window != _UNBOUNDED:
                    measured = True
                    gap = text[p_end:start] if side == 0 else text[end:p_start]
                    if len(_WORDS(gap)) > window or _CLAUSE_MARK(gap):
                        continue
                found[status] = i
    for status in cancelled & found_before:  # a cue after the hit ("but she used to") stands
        found.pop(status, None)
    if len(found) < 2:
        return tuple(found.items()), measured
    return tuple((status, found[status]) for status in _PRIORITY if status in found), measured


_ALL = (1 << _STATUSES) - 1


def _walk_plain(phrases: list[_Found], slot: int) -> _Picks | None:
    """`_walk` over the phrases' masks, while none it meets has a word window or a
    `current` entry (None then: `_walk` reads them). A phrase settles, with a mask or
    two, the statuses no nearer phrase settled: a status its side stops is blocked
    further on, one it sets is found here; side 1 starts with the statuses found before
    the hit, its own blocks afresh."""
    found = 0
    at = [0] * _STATUSES  # the phrase that set each status
    for side, order in ((0, range(slot - 1, -1, -1)), (1, range(slot, len(phrases)))):
        blocked = 0
        for i in order:
            settled = found | blocked
            if settled == _ALL:
                break
            code = phrases[i][2][3][side]
            if code is None:
                return None
            new = code[1] & ~settled
            if new:
                found |= new
                for k in range(_STATUSES):
                    if new >> k & 1:
                        at[k] = i
            blocked |= code[0] & ~settled
    if not found:
        return ()
    return tuple((_PRIORITY[k], at[k]) for k in range(_STATUSES) if found >> k & 1)


def as_assessment(text: str, found: Cues) -> ContextAssessment:
    """Cues as `TextContext.cues` gives them, with their words, as an assessment."""
    if not found:
        return _NO_CUES
    return ContextAssessment(cues=tuple(Cue(status, text[a:b], a, b) for status, a, b in found))


def _near(text: str, end: int, phrase_start: int, words: int) -> bool:
    """At most `words` words and no clause mark between the hit's end and a phrase."""
    gap = text[end:phrase_start]
    return len(_WORDS(gap)) <= words and not _CLAUSE_MARK(gap)


def names_another_person(text: str) -> bool:
    """Whether `text` (a rule) names a person other than the one served, in the words
    that mark another experiencer in a draft ("charges made by a CHILD", "YOUR HUSBAND's
    prescription"): a draft that names that person again is the rule's case, so such cues
    must not set its hits aside."""
    lowered = text.lower()
    for start, end, entries in _find_phrases(lowered):
        if any(status is _OTHER and not stops for side in entries[:2] for stops, status, _ in side) \
                and not names_no_one(lowered, start, end):
            return True
    return False


def assess(text: str, start: int, end: int) -> ContextAssessment:
    """The context cues that apply to the hit text[start:end] of a normalized shadow text."""
    return TextContext(text).assess(start, end)


def _quoted(sentence: str, hs: int, he: int) -> int | None:
    """Offset of the opening quote when the hit sits inside a quotation."""
    for opening, closing in _QUOTES:
        before = sentence.rfind(opening, 0, hs)
        if before == -1 or sentence.find(closing, he) == -1:
            continue
        if opening == closing and sentence.count(opening, 0, hs) % 2 == 0:
            continue  # the quote before the hit closes an earlier quotation
        if opening != closing and sentence.rfind(closing, before, hs) != -1:
            continue
        return before
    return None
