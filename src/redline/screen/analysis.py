"""What a check works out from the text alone, worked out once for every policy that checks it.

A backtest checks each draft against two policies (the change and the policy in force),
and a service may check one text against several. The shadow (normalisation), the text
the term automaton reads, the reading with symbols joined, each detector's findings and
the context layer's sentence scans depend on the text alone: a `TextAnalysis` computes
each of them on first use and keeps it, so a second compiled policy pays only for its
own matching and decision. What a policy adds stays per policy: which keys match,
which rules a detector fires, the allow list, the statuses that set a hit aside.

The result is byte for byte the result of checking each policy on its own: every value
kept is a pure function of the text (and, for detectors and the context layer, of the
detector object and of the `many` flag the screen chose), so the second policy reads
exactly what it would have computed. Laziness keeps the cost where it was: a text is
normalised inside the check that first needs it, so a failure there is that check's
failure (the gate's `on_error`), and nothing is cached from a failed step.

An analysis belongs to one thread at a time (it caches without a lock); build one per
text and drop it after the last check.
"""

from __future__ import annotations

from array import array

from redline.screen.context import Cues, TextContext, as_assessment
from redline.screen.detectors.base import Detection, Detector
from redline.screen.matcher import separate
from redline.screen.normalize import Shadow, has_symbols_in_words, normalize, strip_invisible
from redline.types import ContextAssessment

__all__ = ["SharedContext", "TextAnalysis"]

_Spans = tuple[tuple[int, int], ...]


class SharedContext:
    """A `TextContext` whose cues are kept by span: the policies that check a text
    mostly hit the same words, and the cues of a hit depend on the text and the span alone."""

    __slots__ = ("_context", "_found")

    def __init__(self, context: TextContext) -> None:
        self._context = context
        self._found: dict[tuple[int, int, _Spans], Cues] = {}

    def cues(self, start: int, end: int, others: _Spans = ()) -> Cues:
        """`TextContext.cues`, once per span."""
        key = (start, end, others)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = self._context.cues(start, end, others)
        return found

    def assess(self, start: int, end: int, others: _Spans = ()) -> ContextAssessment:
        return as_assessment(self._context.text, self.cues(start, end, others))


class TextAnalysis:
    """One text as the screen reads it, shared by every compiled policy that checks it."""

    __slots__ = (
        "text", "_shared", "_base", "_shadow", "_keyed", "_joined", "_symbols", "_visible", "_detected", "_contexts"
    )

    def __init__(self, text: str, shared: bool = True) -> None:
        """`shared=False`: one policy alone reads it (a plain `Gate.check`), so the context
        layer's cues are not kept by span (about 1 µs a hit, paid back only by a second
        policy); everything else is the same."""
        self.text = text
        self._shared = shared
        self._base: TextAnalysis | None = None  # set on `joined`: the analysis it reads with symbols joined
        self._shadow: Shadow | None = None
        self._keyed: str | None = None
        self._joined: TextAnalysis | None = None
        self._symbols: bool | None = None
        self._visible: tuple[str, array[int] | None] | None = None
        # by detector object: a detector configured otherwise is another object
        self._detected: dict[Detector, tuple[Detection, ...]] = {}
        self._contexts: dict[bool, SharedContext | TextContext] = {}

    @property
    def shadow(self) -> Shadow:
        if self._shadow is None:
            self._shadow = normalize(self.text, join_symbols=self._base is not None)
        return self._shadow

    @property
    def keyed(self) -> str:
        """The shadow with every non-word character a space, padded: what the term automaton reads."""
        if self._keyed is None:
            self._keyed = " " + separate(self.shadow.text) + " "
        return self._keyed

    @property
    def has_symbols(self) -> bool:
        """Whether a symbol or emoji stands inside a word (`re🎉fund`): then the screen
        also reads the text with it joined (`joined`)."""
        if self._symbols is None:
            self._symbols = has_symbols_in_words(self.shadow.text)
        return self._symbols

    @property
    def joined(self) -> TextAnalysis:
        """The reading with symbols inside words removed; its detectors read the same
        original text, so it shares this analysis' detector findings."""
        if self._joined is None:
            self._joined = TextAnalysis(self.text, self._shared)
            self._joined._base = self
        return self._joined

    @property
    def visible(self) -> tuple[str, array[int] | None]:
        """The original less invisible characters, and the offsets back (None: unchanged)."""
        if self._base is not None:
            return self._base.visible
        if self._visible is None:
            self._visible = strip_invisible(self.text)
        return self._visible

    def detections(self, detector: Detector) -> tuple[Detection, ...]:
        """What `detector` finds in `visible` (offsets of the visible text)."""
        if self._base is not None:
            return self._base.detections(detector)
        found = self._detected.get(detector)
        if found is None:
            found = self._detected[detector] = tuple(detector.detect(self.visible[0]))
        return found

    def context(self, many: bool) -> SharedContext | TextContext:
        """The context layer over the shadow, built the way the screen asks (`many`: more
        than a few hits, so the whole text is scanned at once) and kept for the next policy."""
        context = self._contexts.get(many)
        if context is None:
            context = TextContext(self.shadow.text, many=many)
            self._contexts[many] = context = SharedContext(context) if self._shared else context
        return context
