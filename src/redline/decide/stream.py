"""Streaming checks: text arrives in chunks; each completed sentence is released or held.

    stream = gate.stream(chunks, confidence=90)     # an iterable or an async iterable of str
    for event in stream:                            # `async for` with an async iterable
        if event.kind == "release":
            send_to_user(event.text)
        elif event.kind == "decision":              # always last: `check` on the whole text
            record(event.decision)

What is promised, for any split of a text into chunks:
- the final `decision` event carries `gate.check(whole text)` (same context, confidence);
- no character of a span that decision holds has been released: a sentence is released
  only after `check` of the whole text up to and including it came back `execute` with
  no finding at all (not even one the conversation licensed: a later finding would take
  that license back), and everything after the first sentence that did not is held until
  the decision, which releases the rest when it is `execute`.

Why a check of the text so far is enough for what it covers: the screen's context is
sentence-bounded, terms and topics do not reach past a sentence's end, and a match that
lies wholly in the text so far is found in it. What could reach back across a release
point is a construct whose first part does not fire on its own: a PEM block fires only
with its END line, an SQL statement with its FROM. Those are lines, so a release point is
only where prose ends a sentence: `.`, `!` or `?` followed by white space (not a bare line
break, not `;`), never after an abbreviation or a single letter (the screen may join
"r e f u n d."). And an operator's pattern that can match across such a point (one that
can match both a sentence end and white space, `refund.*approved`) would defeat the
argument: with one in the policy nothing is released before the text is complete
(`TextStream.releasing` says so and `blocked_by` names the pattern). So does a judge that
will be asked: it reads the whole text, and a later sentence may change what it says of an
earlier one.

Cost: one check of the text so far per release point. A check's fixed cost (normalizing,
building the decision) is most of it at these sizes, so a check of half a draft costs
nearly as much as one of all of it: a 1 KB draft of 18 sentences streamed costs about 27
checks of the whole draft (docs/streaming.md, "Cost"), not 18/2. Past 4 KB the points
checked thin out (a check once the text has grown by an eighth), which keeps a long text
streamed within about a dozen times one check of it (14x measured at 236 KB); release
then comes in larger pieces.
"""

from __future__ import annotations

import codecs
import re
import warnings
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from redline.policy.schema import Policy
from redline.types import Decision, Outcome

if TYPE_CHECKING:
    from redline.decide.gate import Gate

__all__ = ["StreamEvent", "TextStream", "crossing_patterns"]

EVERY_POINT_CHARS = 4096  # up to this much text, every release point is checked
GROWTH = 8  # past it, a check once the text has grown by 1/GROWTH
_ENDS = ".!?"
_CANDIDATE = re.compile(r"[.!?](?=[ \t\n\r])")
# a period after these does not end a sentence for the screen (screen/context.py); the
# list is repeated casefolded here, with a test that holds the two equal
ABBREVIATIONS = frozenset("dr mr mrs ms vs approx fig jr sr dept".split())
_PLAIN_WORD = re.compile(r"[A-Za-z0-9'\-]+")

Kind = Literal["release", "hold", "decision"]


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """One step of a stream. `release`: `text` (offsets `start`-`end` of the whole text)
    may be shown. `hold`: nothing from `start` on is released before the decision;
    `outcome` is what the text so far got. `decision`: the last event, `check` on the
    whole text (recorded by whoever records checks); `start` is where the held text
    begins (the end of the text when everything was released)."""

    kind: Kind
    start: int
    end: int
    text: str = ""
    outcome: Outcome | None = None
    decision: Decision | None = None

    @property
    def held(self) -> bool:
        """For a `decision`: whether any of the text was kept back."""
        return self.kind == "decision" and self.start < self.end

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "start": self.start, "end": self.end}
        if self.kind == "release":
            data["text"] = self.text
        if self.outcome is not None:
            data["outcome"] = self.outcome.value
        return data


class TextStream:
    """The state of one streamed text. Feed it chunks (`feed`, then `finish`), or iterate
    it over the chunks it was made with. Not thread-safe: one stream, one consumer.

    `decide` makes the final decision from the whole text instead of `gate.check` (the
    service passes its review pipeline, which reads the conversation as its flags say).
    The promise holds for any check of the text through the same gate, with or without
    the conversation: the text released had no finding, and a conversation never adds one."""

    def __init__(
        self,
        gate: Gate,
        chunks: Iterable[str | bytes] | AsyncIterable[str | bytes] | None = None,
        *,
        context: Any = None,
        confidence: float | None = None,
        blocked_by: tuple[str, ...] | None = None,
        decide: Callable[[str], Decision] | None = None,
    ) -> None:
        self._gate = gate
        self._chunks = chunks
        self._context = context
        self._confidence = confidence
        self._decide = decide
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._parts: list[str] = []
        self._length = 0
        self._scanned = 0  # text before this was searched for release points
        self._points: list[int] = []  # release points not yet checked
        self._released = 0
        self._checked = 0  # length of the text at the latest check
        self._held_at: int | None = None
        self._bad_chunk: str | None = None
        self.decision: Decision | None = None
        self.checks = 0
        self.blocked_by = gate.stream_blockers() if blocked_by is None else blocked_by

    @property
    def releasing(self) -> bool:
        """Whether sentences can be released before the text is complete."""
        return not self.blocked_by

    @property
    def held(self) -> bool:
        """Whether the stream stopped releasing (a `hold` was given)."""
        return self._held_at is not None

    @property
    def text(self) -> str:
        """Everything fed so far."""
        if len(self._parts) > 1:
            self._parts = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    @property
    def released(self) -> int:
        """How many characters have been released."""
        return self._released

    # push ------------------------------------------------------------------------------
    def feed(self, chunk: str | bytes) -> list[StreamEvent]:
        """Add a chunk; the events it completes (none, releases, or one hold)."""
        if self.decision is not None:
            raise RuntimeError("this stream is finished; start a new one for another text")
        if isinstance(chunk, (bytes, bytearray)):
            chunk = self._decoder.decode(bytes(chunk))
        elif not isinstance(chunk, str):
            # the gate's rule for a text that is not one: held, and decided as an error
            self._bad_chunk = f"a chunk must be str or bytes, not {type(chunk).__name__}"
            return self._hold(Outcome(self._gate.policy.on_error))
        if not chunk:
            return []
        self._parts.append(chunk)
        self._length += len(chunk)
        if self._held_at is not None or self._bad_chunk is not None or self.blocked_by:
            return []
        self._find_points()
        return self._advance()

    def finish(self) -> list[StreamEvent]:
        """The end of the text: the rest released if the whole is `execute`, then the decision."""
        if self.decision is not None:
            raise RuntimeError("this stream is already finished")
        tail = self._decoder.decode(b"", final=True)
        if tail:
            self._parts.append(tail)
            self._length += len(tail)
        text = self.text
        if self._bad_chunk is not None:
            self.decision = self._gate.check(_BadChunk(self._bad_chunk), self._context, self._confidence)  # type: ignore[arg-type]
        elif self._decide is not None:
            self.decision = self._decide(text)
        else:
            self.decision = self._gate.check(text, context=self._context, confidence=self._confidence)
        self.checks += 1
        events: list[StreamEvent] = []
        if self.decision.outcome is Outcome.EXECUTE and self._released < len(text):
            events.append(StreamEvent("release", self._released, len(text), text[self._released :]))
            self._released = len(text)
        events.append(StreamEvent("decision", self._released, len(text), outcome=self.decision.outcome, decision=self.decision))
        return events

    # pull ------------------------------------------------------------------------------
    def __iter__(self) -> Iterator[StreamEvent]:
        if self._chunks is None or not isinstance(self._chunks, Iterable):
            raise TypeError("iterate a stream made with an iterable of chunks (use `async for` for an async one)")
        for chunk in self._chunks:
            yield from self.feed(chunk)
        yield from self.finish()

    async def __aiter__(self) -> AsyncIterator[StreamEvent]:
        if self._chunks is None:
            raise TypeError("make the stream with the chunks to iterate it, or use feed() and finish()")
        if isinstance(self._chunks, AsyncIterable):
            async for chunk in self._chunks:
                for event in self.feed(chunk):
                    yield event
        else:
            for chunk in self._chunks:
                for event in self.feed(chunk):
                    yield event
        for event in self.finish():
            yield event

    # the work --------------------------------------------------------------------------
    def _find_points(self) -> None:
        text = self.text
        # a sentence end is known once the character after it has arrived
        for found in _CANDIDATE.finditer(text, max(self._scanned - 1, 0)):
            if _ends_prose(text, found.start()):
                self._points.append(found.start() + 1)
        self._scanned = len(text)

    def _advance(self) -> list[StreamEvent]:
        """Check the new release points in order: release up to each that passes, hold at
        the first that does not (past 4 KB, only points where the text grew enough)."""
        events: list[StreamEvent] = []
        text = self.text
        points, self._points = self._points, []
        for point in points:
            due = max(0, (point - EVERY_POINT_CHARS) // GROWTH)
            if point - self._checked < due:
                continue  # a long text: a later point's check covers this one
            decision = self._gate.check(text[:point], context=self._context, confidence=self._confidence)
            self.checks += 1
            self._checked = point
            if decision.outcome is not Outcome.EXECUTE or decision.findings:
                # a finding the conversation licensed is shown only with the whole text:
                # a later finding would take the license back
                return events + self._hold(decision.outcome)
            events.append(StreamEvent("release", self._released, point, text[self._released : point]))
            self._released = point
        return events

    def _hold(self, outcome: Outcome) -> list[StreamEvent]:
        if self._held_at is not None:
            return []
        self._held_at = self._released
        return [StreamEvent("hold", self._released, self._length, outcome=outcome)]


class _BadChunk:
    """What `check` is given when a chunk was not text: it answers with an error decision."""

    def __init__(self, why: str) -> None:
        self.why = why

    def __repr__(self) -> str:
        return f"<not text: {self.why}>"


def _ends_prose(text: str, i: int) -> bool:
    """Whether the `.`, `!` or `?` at `i` (white space after it) surely ends a sentence
    for the screen too: after a plain word of two or more characters that is not an
    abbreviation. Anything the screen might read otherwise is not a release point."""
    start = i
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    word = text[start:i]
    if not _PLAIN_WORD.fullmatch(word) or len(word) < 2:
        return False  # empty, one letter, or characters the screen folds or removes
    return text[i] != "." or word.casefold() not in ABBREVIATIONS


def crossing_patterns(policy: Policy) -> tuple[str, ...]:
    """The policy's patterns that could match across a release point (a sentence end
    followed by white space). A pattern this cannot read is counted among them."""
    found = []
    for skill in policy.skills:
        for line in skill.red_lines:
            for pattern in line.patterns or ():
                if _may_cross(pattern):
                    found.append(f"{skill.slug}:{line.id}: {pattern}")
    return tuple(found)


_PROBES = (".", "!", "?", " ", "\t", "\n")


def _may_cross(pattern: str) -> bool:
    """Whether `pattern` can match a sentence-ending character and a white-space one:
    both must be in a match that spans a release point. Read with Python's regex parser
    (RE2 syntax is nearly a subset); what it cannot parse is taken to cross."""
    import re._parser as sre_parse  # the parser behind `re`: a pattern as a tree

    if "[:" in pattern:  # an RE2 class such as [[:punct:]], which Python reads as letters
        return True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "possible nested set" and the like
            tree = sre_parse.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return True
    matched: set[str] = set()
    _collect(tree, matched)
    return any(c in matched for c in _ENDS) and any(c in matched for c in " \t\n")


def _collect(tree: Any, matched: set[str]) -> None:
    import re._constants as c

    for op, arg in tree:
        if op is c.LITERAL:
            matched.update(p for p in _PROBES if ord(p) == arg)
        elif op in (c.NOT_LITERAL, c.ANY):
            matched.update(p for p in _PROBES if ord(p) != arg)  # ANY's arg is None: all
        elif op is c.IN:
            matched.update(p for p in _PROBES if _in_class(arg, p))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            _collect(arg[2], matched)
        elif op is c.SUBPATTERN:
            _collect(arg[3], matched)
        elif op is c.BRANCH:
            for branch in arg[1]:
                _collect(branch, matched)
        elif op in (c.ASSERT, c.ASSERT_NOT):
            _collect(arg[1], matched)
        elif op is getattr(c, "ATOMIC_GROUP", None):
            _collect(arg, matched)
        elif op is c.GROUPREF_EXISTS:
            _collect(arg[1], matched)
            if arg[2] is not None:
                _collect(arg[2], matched)
        elif op not in (c.AT, c.GROUPREF):
            matched.update(_PROBES)  # an operation not known here: assume the worst


def _in_class(items: Any, probe: str) -> bool:
    import re._constants as c

    code = ord(probe)
    negate = False
    hit = False
    for op, arg in items:
        if op is c.NEGATE:
            negate = True
        elif op is c.LITERAL:
            hit = hit or code == arg
        elif op is c.RANGE:
            hit = hit or arg[0] <= code <= arg[1]
        elif op is c.CATEGORY:
            hit = hit or _in_category(arg, probe)
        else:
            hit = True  # unknown: assume it matches
    return hit != negate


def _in_category(category: Any, probe: str) -> bool:
    import re._constants as c

    space, digit, word = probe.isspace(), probe.isdigit(), probe.isalnum() or probe == "_"
    table = {
        c.CATEGORY_SPACE: space, c.CATEGORY_NOT_SPACE: not space,
        c.CATEGORY_DIGIT: digit, c.CATEGORY_NOT_DIGIT: not digit,
        c.CATEGORY_WORD: word, c.CATEGORY_NOT_WORD: not word,
        c.CATEGORY_LINEBREAK: probe == "\n", c.CATEGORY_NOT_LINEBREAK: probe != "\n",
    }  # fmt: skip
    return table.get(category, True)
