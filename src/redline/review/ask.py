"""The explicit-ask detector: a request to SEE content of a licensable class, and which
kinds of it.

"Can you paste me the full traceback?" asks for technical content; "Why did my invoice
sync fail?" asks about a failure and licenses nothing. An ask is a request verb followed
in the same sentence by the words that name what is asked for, with no negation
governing the verb ("don't paste the logs" is no ask). What counts as such a word is the
technical detector's own table (`screen/detectors/technical_asks.py`): each kind of
technical content it reports (file path, stack trace, log lines, code, SQL, internal
hostnames) names the words a person uses to ask for it, so "show me the exact file and
line where the worker crashed" asks for `FILE_PATH`. An ask records every kind it names
and every kind those hold (a traceback holds file paths); the license relaxes only
findings of those kinds. The request verbs live in data/asks.txt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from redline.screen.context import TextContext
from redline.screen.detectors.technical_asks import ASKED_FOR_BY, NOT_TECHNICAL, covered
from redline.screen.normalize import normalize
from redline.types import Status

_MAX_GAP_WORDS = 8  # "paste me the full raw output of the nightly sync job's traceback"
TECHNICAL = "technical_content"


def _alternation(phrases: list[str]) -> str:
    return "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))


def _load() -> tuple[re.Pattern[str], dict[str, frozenset[str]], re.Pattern[str]]:
    verbs: list[str] = []
    text = resources.files("redline.review").joinpath("data/asks.txt").read_text("utf-8")
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        kind, phrase, *_ = line.split("\t")
        if kind == "verb":
            verbs.append(phrase)
    entities: dict[str, set[str]] = {}
    for entity, words in ASKED_FOR_BY.items():
        for word in words:
            entities.setdefault(word, set()).add(entity)
    named = {word: frozenset(kinds) for word, kinds in entities.items()}
    # a phrase that asks for something else ("discount code") is matched too, and names nothing
    named.update({phrase: frozenset() for phrase in NOT_TECHNICAL})
    verb_re = re.compile(rf"\b(?:{_alternation(verbs)})\b")
    object_re = re.compile(rf"\b(?:{_alternation(list(named))})\b")
    return verb_re, named, object_re


_VERB, _NAMES, _OBJECT = _load()
_SENTENCE_END = re.compile(r"[.!?;\n]")


@dataclass(frozen=True, slots=True)
class Ask:
    message: int  # index of the message in the conversation window
    classes: frozenset[str]
    verb: str
    object: str  # the first word that named what is asked for
    entities: frozenset[str] = frozenset()  # the kinds named, and the kinds they hold

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "classes": sorted(self.classes), "verb": self.verb, "object": self.object,
                "entities": sorted(self.entities)}


def find_ask(text: str, message_index: int) -> Ask | None:
    """The first explicit ask in `text`, or None."""
    shadow = normalize(text).text
    context: TextContext | None = None
    for verb in _VERB.finditer(shadow):
        end_of_sentence = _SENTENCE_END.search(shadow, verb.end())
        limit = end_of_sentence.start() if end_of_sentence else len(shadow)
        named: set[str] = set()
        first = ""
        previous = verb.end()
        for found in _OBJECT.finditer(shadow, verb.end(), limit):
            if len(shadow[previous : found.start()].split()) > _MAX_GAP_WORDS:
                break  # "the exact file and line": each word near the one before
            previous = found.end()
            kinds = _NAMES[found.group()]
            if kinds:
                named |= kinds
                first = first or found.group()
        if not named:
            continue
        context = context or TextContext(shadow)
        if context.assess(verb.start(), verb.end()).has(Status.NEGATED):
            continue
        return Ask(message_index, frozenset({TECHNICAL}), verb.group(), first, covered(frozenset(named)))
    return None
