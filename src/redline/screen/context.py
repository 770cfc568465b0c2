"""What the words around a hit say about it: ConText (Harkema et al. 2009), sentence-bounded.

A trigger sets a status for the hits in its scope: forward triggers ("no", "history of",
"if") reach to the end of the sentence, backward ones ("ruled out", "aren't") to its
start, both stopped early by a terminator of that status ("but", "presents") or a
pseudo-trigger ("no problem"). Where phrases overlap, the longest wins, so a pseudo-trigger
hides the trigger inside it. Words of the hit itself never count: "can't breathe" is not
negated by its own "can't".

Besides ConText's categories the table has `neutral` phrases (they hide the shorter
phrases inside them: "ask for" keeps "for" from ending a negation) and `current` ones
("since this morning": a terminator of historical scope, and right after the hit a
sign that it is present), and `{a|b}` alternatives that expand at load. The status
`uncertain` ("possible", "may be") is set like any other and is not suppressed by
default (policy/schema.py).

The phrases live in data/context_triggers.tsv. They are compiled once into one
Aho-Corasick automaton over space-padded phrases. `TextContext` scans each sentence that
holds a hit ONCE and keeps what it found, so a draft with many hits costs one scan of
each of their sentences, not one per hit (with many hits, one scan of the whole text).
`assess` is the one-hit form of the same thing.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from importlib import resources

import ahocorasick_rs

from redline.types import ContextAssessment, Cue, Status

__all__ = ["TextContext", "assess", "names_another_person"]

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

# An entry is (stops, status, window): a stop (terminator or pseudo-trigger) ends the
# scope of `status` beyond it; otherwise the phrase sets `status` within `window` words.
# An entry with a negative window -n, after the hit and within n words of it, takes back
# `status` found before the hit: a `current` phrase ("since this morning", "now") says
# the hit is present, not historical. Before the hit the same phrase is a terminator.
# A phrase holds (entries when it precedes the hit, entries when it follows, is_pseudo).
_Entry = tuple[bool, Status, int]
_Phrase = tuple[list[_Entry], list[_Entry], bool]


def _load() -> tuple[
    ahocorasick_rs.AhoCorasick, list[_Phrase], re.Pattern[str], dict[str, _Phrase]
]:
    """Read the trigger table: one automaton for word phrases, one regex for the rest.

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
            if category in ("pseudo", "terminate"):
                statuses = _PRIORITY if direction == "all" else (_STATUS_BY_NAME[direction],)
                before = after = [(True, s, window) for s in statuses]
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
        for variant in _expand(phrase):  # "{although|but} she did" is two phrases
            key = " " + variant.translate(_FOLD) + " " if variant[0].isalnum() else variant
            slot = (words if variant[0].isalnum() else literal).setdefault(key, ([], [], []))
            slot[0].extend(before)
            slot[1].extend(after)
            slot[2].append(category in ("pseudo", "neutral"))
    phrases = list(words)
    # Literal phrases (", we", ":") keep their punctuation. Grouped by first character so
    # the regex engine scans for that character alone; the longest alternative first.
    groups: dict[str, list[str]] = {}
    for p in sorted(literal, key=len, reverse=True):
        tail = r"(?!\w)" if p[-1].isalnum() else r"(?!\S)"  # ":" ends "x: y", not "14:05"
        groups.setdefault(p[0], []).append(re.escape(p[1:]) + tail)
    literal_re = re.compile("|".join(f"{re.escape(k)}(?:{'|'.join(v)})" for k, v in groups.items()))
    entries: list[_Phrase] = [(b, a, any(pseudo)) for b, a, pseudo in words.values()]
    literal_entries: dict[str, _Phrase] = {
        p: (b, a, any(pseudo)) for p, (b, a, pseudo) in literal.items()
    }
    return ahocorasick_rs.AhoCorasick(phrases), entries, literal_re, literal_entries


def _expand(phrase: str) -> list[str]:
    """Every phrase that `{a|b}` alternatives in `phrase` spell, joined by single spaces."""
    match = _ALTERNATIVES.search(phrase)
    if match is None:
        return [" ".join(phrase.split())]
    head, tail = phrase[: match.start()], phrase[match.end() :]
    return [v for option in match.group(1).split("|") for v in _expand(head + option + tail) if v]


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
    for char in ".!?\n;":
        i = text.find(char, pos, end)
        while i != -1:
            if _ends_sentence(text, i):
                end = i
                break
            i = text.find(char, i + 1, end)
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


def _find_phrases(text: str, s0: int = 0) -> list[_Found]:
    """Every trigger phrase in `text` (offsets + s0), sorted by start, longest first."""
    padded = " " + _folded(text) + " "
    found: list[_Found] = [
        (s0 + start, s0 + end - 2, _ENTRIES[index])  # without the padding
        for index, start, end in _AUTOMATON.find_matches_as_indexes(padded, overlapping=True)
    ]
    found.extend((s0 + m.start(), s0 + m.end(), _LITERAL_ENTRIES[m.group()]) for m in _LITERAL_RE.finditer(text))
    found.sort(key=lambda f: (f[0], -f[1]))
    return found


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


_TERMINATORS = re.compile(r"[.!?\n;]")
_NO_CUES = ContextAssessment()


# A hit looks at most this many phrases on each side of it, the nearest ones: a real
# sentence has a handful, and a text packed with triggers ("no refund no refund …")
# cannot make each of its hits cost the whole window.
_NEAREST = 16
# Assessments kept per text, by the exact sentence and the hit's place in it: a text that
# repeats one sentence shape (the same hit among the same words) is assessed once per
# shape. Bounded, so that a text of all different sentences costs no memory.
_MEMO_SIZE = 256
_Relative = tuple[tuple[Status, int, int], ...]


class TextContext:
    """The context layer over one text. With a few hits, each hit's sentence is found by a
    search and scanned for trigger phrases once (hits in one sentence share the scan);
    with `many` hits, the sentence ends and the phrases of the whole text are found in one
    pass each, so every hit costs a few bisections."""

    __slots__ = ("text", "_ends", "_phrases", "_starts", "_longest", "_quotes", "_sentences", "_memo")

    def __init__(self, text: str, many: bool = False) -> None:
        self.text = text
        self._ends: list[int] | None = None
        self._phrases: list[_Found] | None = None
        self._starts: list[int] = []
        self._quotes = any(opening in text for opening, _ in _QUOTES)
        self._longest = 0
        if many:
            self._ends = [i for i in (m.start() for m in _TERMINATORS.finditer(text)) if _ends_sentence(text, i)]
            self._phrases = _find_phrases(text)
            self._starts = [p[0] for p in self._phrases]
            self._longest = max((p[1] - p[0] for p in self._phrases), default=0)
        # (sentence start, end) -> (its phrases, their starts, resolved with no hit excluded)
        self._sentences: dict[tuple[int, int], tuple[list[_Found], list[int], list[_Found] | None]] = {}
        self._memo: dict[tuple[str, int, int, tuple[tuple[int, int], ...]], _Relative] = {}

    def _sentence(self, start: int, end: int) -> tuple[int, int]:
        """The sentence around text[start:end], at most _REACH characters either side."""
        text, ends = self.text, self._ends
        if ends is None:
            return _sentence_start(text, start), _sentence_end(text, end)
        floor = max(start - _REACH, 0)
        i = bisect_left(ends, start) - 1
        if i >= 0 and ends[i] >= floor:
            s0 = ends[i] + 1
        elif floor > 0:
            space = text.find(" ", floor, start)  # cut at a word boundary: never half a word
            s0 = space + 1 if space != -1 else floor
        else:
            s0 = 0
        limit = min(end + _REACH, len(text))
        j = bisect_left(ends, end)
        if j < len(ends) and ends[j] < limit:
            s1 = ends[j]
        else:
            s1 = limit
            if s1 < len(text) and s1 == end + _REACH:
                s1 = max(text.rfind(" ", end, s1), end)
        return s0, s1

    def _held(self, s0: int, s1: int) -> tuple[list[_Found], list[int], list[_Found] | None]:
        key = (s0, s1)
        held = self._sentences.get(key)
        if held is None:
            if self._phrases is None:
                raw = _find_phrases(self.text[s0:s1], s0)
            else:
                first = bisect_left(self._starts, s0)
                last = bisect_left(self._starts, s1, first)
                # only a phrase starting this close to s1 can run past it: slice the rest
                tail = bisect_left(self._starts, s1 - self._longest, first, last)
                raw = self._phrases[first:tail] + [p for p in self._phrases[tail:last] if p[1] <= s1]
            # a window packed with phrases is walked by its nearest ones only (assess):
            # resolving all of it for every hit would cost the window per hit
            resolved = _resolve(raw, ()) if len(raw) <= 2 * _NEAREST else None
            if len(self._sentences) >= _MEMO_SIZE:  # one window per hit in a sentence of many
                self._sentences.clear()
            held = self._sentences[key] = (raw, [p[0] for p in raw], resolved)
        return held

    def assess(self, start: int, end: int, others: tuple[tuple[int, int], ...] = ()) -> ContextAssessment:
        """The cues that apply to the hit text[start:end]. `others` are the spans of the
        hit's other words (a topic of two words): never cues either, and never "outside"."""
        text = self.text
        s0, s1 = self._sentence(start, end)
        raw, starts, resolved = self._held(s0, s1)
        quote = self._quotes and any(opening in text[s0:s1] for opening, _ in _QUOTES)
        if not raw and not quote:
            return _NO_CUES
        if len(raw) > 2 * _NEAREST:
            # the assessment depends on the sentence (and the characters that bound it) alone
            key = (text[max(s0 - 1, 0) : s1 + 1], start - s0, end - s0, tuple((a - s0, b - s0) for a, b in others))
            relative = self._memo.get(key)
            if relative is None:
                if len(self._memo) >= _MEMO_SIZE:
                    self._memo.clear()
                middle = bisect_left(starts, start)
                near = raw[max(0, middle - _NEAREST) : middle + _NEAREST]
                relative = self._memo[key] = self._walk(near, None, s0, s1, start, end, others, quote)
        else:
            relative = self._walk(raw, resolved, s0, s1, start, end, others, quote)
        if not relative:
            return _NO_CUES
        return ContextAssessment(
            cues=tuple(Cue(status, text[s0 + a : s0 + b], s0 + a, s0 + b) for status, a, b in relative)
        )

    def _walk(self, raw: list[_Found], resolved: list[_Found] | None, s0: int, s1: int, start: int, end: int,
              others: tuple[tuple[int, int], ...], quote: bool) -> _Relative:
        text = self.text
        spans = ((start, end), *others)
        if resolved is None or any(p_start < he and p_end > hs for p_start, p_end, _ in raw for hs, he in spans):
            phrases = _resolve(raw, spans)  # the hit's own words are never its cue
        else:
            phrases = resolved
        found: dict[Status, tuple[int, int]] = {}

        # Walk outwards from the hit on each side: the nearest trigger wins, and a stop
        # blocks its status for everything further away.
        before = [p for p in reversed(phrases) if p[1] <= start]
        after = [p for p in phrases if p[0] >= end]
        cancelled: set[Status] = set()
        found_before: set[Status] = set()
        for side, ordered in ((0, before), (1, after)):
            if side == 1:
                found_before = set(found)
            blocked: set[Status] = set()
            for p_start, p_end, entries in ordered:
                if len(blocked) + len(found) == _STATUSES:
                    break  # every status is settled on this side (the two never share one)
                for stops, status, window in entries[side]:  # type: ignore[union-attr]  # side is 0 or 1, never the flag
                    if status in blocked:
                        continue
                    if window < 0:  # "since this morning" right after the hit: it is current
                        if _near(text, end, p_start, -window):
                            cancelled.add(status)
                        continue
                    if status in found:
                        continue
                    if stops:
                        blocked.add(status)
                        continue
                    if window != _UNBOUNDED:
                        gap = text[p_end:start] if side == 0 else text[end:p_start]
                        if len(_WORDS(gap)) > window or _CLAUSE_MARK(gap):
                            continue
                    found[status] = (p_start, p_end)

        for status in cancelled & found_before:  # a cue after the hit ("but she used to") stands
            found.pop(status, None)
        if Status.ATTRIBUTED not in found and quote:
            opening = _quoted(text[s0:s1], start - s0, end - s0)
            if opening is not None:
                found[Status.ATTRIBUTED] = (s0 + opening, s0 + opening + 1)

        return tuple((status, found[status][0] - s0, found[status][1] - s0) for status in _PRIORITY if status in found)


def _near(text: str, end: int, phrase_start: int, words: int) -> bool:
    """At most `words` words and no clause mark between the hit's end and a phrase."""
    gap = text[end:phrase_start]
    return len(_WORDS(gap)) <= words and not _CLAUSE_MARK(gap)


def names_another_person(text: str) -> bool:
    """Whether `text` (a rule) names a person other than the one served, in the words
    that mark another experiencer in a draft ("charges made by a CHILD", "YOUR HUSBAND's
    prescription"): a draft that names that person again is the rule's case, so such cues
    must not set its hits aside."""
    for _, _, entries in _find_phrases(text.lower()):
        if any(status is Status.OTHER_EXPERIENCER and not stops for side in entries[:2] for stops, status, _ in side):
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
