"""From a rule's words to the keys the screen matches.

`derive_terms` finds the guarded TOPIC of a rule that gives no `terms` ("Never promise,
approve or confirm a refund; refunds are decided by the billing team." guards "refund",
not "promise", "billing" or "team"). `term_variants` expands one term into the word
sequences that count as it in a text: inflections of its first and last word, the form
without apostrophes, and the few gaps that cannot change its meaning (a copula before a
participle, a determiner after a particle). No library does this for rule text: a
tagger would need a model download and still not know which nouns are generic here.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from importlib import resources

_WORD_LISTS: dict[str, set[str]] = defaultdict(set)
_DETECTOR_TOPICS: dict[str, str] = {}
for _line in (
    resources.files("redline.policy").joinpath("data/rule_words.txt").read_text("utf-8").splitlines()
):
    if _line and not _line.startswith("#"):
        _kind, _phrase = _line.split("\t", 1)
        if _kind == "detector_topic":
            _topic, _detector = _phrase.split("\t")
            _DETECTOR_TOPICS[_topic.strip()] = _detector.strip()
        else:
            _WORD_LISTS[_kind].add(_phrase.strip())

DIRECTIVES = _WORD_LISTS["directive"]
VERBS = _WORD_LISTS["verb"]
DETS = _WORD_LISTS["det"]
GENERIC = _WORD_LISTS["generic"]
FRAMES = _WORD_LISTS["frame"]
CUTS = _WORD_LISTS["cut"]
SPLITS = _WORD_LISTS["split"]
COPULAS = sorted(_WORD_LISTS["copula"])
PARTICLES = _WORD_LISTS["particle"]
FILLER_DETS = sorted(_WORD_LISTS["filler_det"])

_TOKEN = re.compile(r"[a-z0-9]+(?:['’-][a-z0-9]+)*|[,;:.!?()/]")
_VOWELS = set("aeiou")
_MAX_TOPIC_WORDS = 4


def _phrase_at(tokens: list[str], i: int, phrases: set[str]) -> int:
    """Length in tokens of the longest phrase of `phrases` starting at tokens[i], or 0."""
    for n in (3, 2, 1):
        if i + n <= len(tokens) and " ".join(tokens[i : i + n]) in phrases:
            return n
    return 0


def singular(word: str) -> str:
    if len(word) <= 3 or word.endswith(("ss", "us", "is", "ics")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses", "zes")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def _clean_chunk(words: list[str]) -> str | None:
    """A topic phrase from one list item, or None when only act and generic words remain."""
    # "any mention of self-harm" guards "self-harm": drop everything up to a frame's "of"
    for i in range(len(words) - 2, -1, -1):
        if words[i] in FRAMES and i + 1 < len(words) and words[i + 1] == "of":
            words = words[i + 2 :]
            break
    kept: list[str] = []
    i = 0
    while i < len(words):
        n = _phrase_at(words, i, VERBS) or _phrase_at(words, i, DIRECTIVES)
        if n and not kept:
            i += n
            continue
        kept.append(words[i])
        i += 1
    while kept and (kept[0] in DETS or kept[0].endswith(("'s", "’s")) and kept[0][:-2] in GENERIC):
        kept.pop(0)
    while kept and kept[-1] in DETS:
        kept.pop()
    if not kept or all(w in GENERIC or w in DETS or w in VERBS for w in kept):
        return None
    if len(kept) > _MAX_TOPIC_WORDS:  # a whole clause, not a topic: it would never match
        return None
    kept[-1] = singular(kept[-1])
    return " ".join(kept)


def derive_terms(rule: str) -> tuple[str, ...]:
    """The guarded topics of a rule's text, most specific first, without duplicates."""
    tokens = _TOKEN.findall(rule.lower())
    # the first clause states the rule; what follows a ';' or '.' is its rationale
    for stop, token in enumerate(tokens):
        if token in (";", ".", "!", "?", ":"):
            tokens = tokens[:stop]
            break
    terms: list[str] = []
    chunk: list[str] = []

    def flush() -> None:
        if chunk:
            term = _clean_chunk(chunk)
            if term and term not in terms:
                terms.append(term)
            chunk.clear()

    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in CUTS and chunk:
            break
        n = _phrase_at(tokens, i, SPLITS)
        if n or token in (",", "(", ")", "/"):
            flush()
            i += n or 1
            continue
        chunk.append(token)
        i += 1
    flush()
    return tuple(terms)


def split_detector_topics(terms: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Derived topics split into (terms to match, detectors to delegate to): "api key"
    goes to the credentials detector, which knows a key when it sees one."""
    kept: list[str] = []
    detectors: list[str] = []
    for term in terms:
        key = " ".join(singular(word) for word in term.replace("-", " ").split())
        detector = _DETECTOR_TOPICS.get(key)
        if detector is None:
            kept.append(term)
        elif detector not in detectors:
            detectors.append(detector)
    return tuple(kept), tuple(detectors)


def inflections(word: str) -> set[str]:
    """Regular English forms of `word` and of the stems it may come from.

    Over-generation is cheap (a form nobody writes never matches); a missed form is a miss.
    """
    forms = {word}
    if len(word) < 3 or not word.isalpha():
        return forms
    stems: set[str] = set()
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)]
            stems.update({stem, stem + "e"})
            if len(stem) > 2 and stem[-1] == stem[-2]:
                stems.add(stem[:-1])
    if word.endswith("s") and len(word) > 3 and not word.endswith("ss"):
        stems.add(singular(word))
    if not stems:  # a base form: inflect the word itself
        stems.add(word)
    for stem in stems:
        forms.add(stem)
        if stem.endswith("y") and stem[-2:-1] not in _VOWELS:
            forms.update({stem[:-1] + "ies", stem[:-1] + "ied", stem + "ing"})
        elif stem.endswith("e"):
            forms.update({stem + "s", stem + "d", stem[:-1] + "ing"})
        elif stem.endswith(("s", "x", "z", "ch", "sh")):
            forms.update({stem + "es", stem + "ed", stem + "ing"})
        else:
            forms.update({stem + "s", stem + "ed", stem + "ing"})
            if len(stem) >= 3 and stem[-1] not in _VOWELS | {"w", "x", "y"} and stem[-2] in _VOWELS and stem[-3] not in _VOWELS:
                forms.update({stem + stem[-1] + "ed", stem + stem[-1] + "ing"})
    return forms


def _is_participle(word: str) -> bool:
    return word.endswith(("ing", "ed", "en")) and len(word) > 4


@lru_cache(maxsize=65536)
def term_variants(words: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """Every word sequence that counts as the term `words` (already normalized words)."""
    if not words:
        return frozenset()
    variants: set[tuple[str, ...]] = {words}
    for form in inflections(words[-1]):
        variants.add(words[:-1] + (form,))
    if len(words) > 1:
        for form in inflections(words[0]):
            variants.add((form,) + words[1:])
    for gap in range(1, len(words)):
        before, after = words[:gap], words[gap:]
        if _is_participle(after[0]) and before[-1] not in DETS:
            fillers = COPULAS
        elif before[-1] in PARTICLES and after[0] not in DETS:
            fillers = FILLER_DETS
        else:
            continue
        for filler in fillers:
            variants.add(before + tuple(filler.split()) + after)
    return frozenset(variants)
