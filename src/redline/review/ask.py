"""The explicit-ask detector: a request to SEE content of a licensable class.

"Can you paste me the full traceback?" asks for technical content; "Why did my invoice
sync fail?" asks about a failure and licenses nothing. An ask is a request verb followed
in the same sentence by an object of a content class, with no negation governing the
verb ("don't paste the logs" is no ask). The word lists live in data/asks.txt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from redline.screen.context import assess
from redline.screen.normalize import normalize
from redline.types import Status

_MAX_GAP_WORDS = 8  # "paste me the full raw output of the nightly sync job's traceback"


def _load() -> tuple[re.Pattern[str], dict[str, str], re.Pattern[str]]:
    verbs: list[str] = []
    objects: dict[str, str] = {}
    text = resources.files("redline.review").joinpath("data/asks.txt").read_text("utf-8")
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        kind, phrase, *rest = line.split("\t")
        if kind == "verb":
            verbs.append(phrase)
        elif kind == "object":
            objects[phrase] = rest[0]

    def alternation(phrases: list[str]) -> str:
        return "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))

    verb_re = re.compile(rf"\b(?:{alternation(verbs)})\b")
    object_re = re.compile(rf"\b(?:{alternation(list(objects))})\b")
    return verb_re, objects, object_re


_VERB, _OBJECT_CLASS, _OBJECT = _load()
_SENTENCE_END = re.compile(r"[.!?;\n]")


@dataclass(frozen=True, slots=True)
class Ask:
    message: int  # index of the message in the conversation window
    classes: frozenset[str]
    verb: str
    object: str

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "classes": sorted(self.classes), "verb": self.verb, "object": self.object}


def find_ask(text: str, message_index: int) -> Ask | None:
    """The first explicit ask in `text`, or None."""
    shadow = normalize(text).text
    for verb in _VERB.finditer(shadow):
        end_of_sentence = _SENTENCE_END.search(shadow, verb.end())
        limit = end_of_sentence.start() if end_of_sentence else len(shadow)
        found = _OBJECT.search(shadow, verb.end(), limit)
        if found is None:
            continue
        if len(shadow[verb.end() : found.start()].split()) > _MAX_GAP_WORDS:
            continue
        if assess(shadow, verb.start(), verb.end()).has(Status.NEGATED):
            continue
        return Ask(message_index, frozenset({_OBJECT_CLASS[found.group()]}), verb.group(), found.group())
    return None
