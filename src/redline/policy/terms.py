"""An operator's term as the word sequences that count as it, and the derived topics by name.

`term_variants` expands a term the operator wrote ("chest pain", "kill myself") into the
word sequences that count as it in a text: every inflection of its first and last word
(irregular ones included: "killing myself", "coughed up blood"), and the few gaps that
cannot change its meaning (a copula before a participle: "face IS drooping"; a
determiner after a particle: "coughing up SOME blood"). A term stays a phrase: its words
stand together, in order, as the operator wrote them.

`derive_terms` names the topics derived from a rule's text (`policy.topics`) for people
and tools that list them.
"""

from __future__ import annotations

from functools import lru_cache

from redline.policy import dictionary, lexicon
from redline.policy.lexicon import family
from redline.policy.topics import derive_topics
from redline.policy.words import WORDS

__all__ = ["clear_caches", "derive_terms", "inflections", "term_variants"]

COPULAS = sorted(WORDS["copula"])
PARTICLES = WORDS["particle"]
FILLER_DETS = sorted(WORDS["filler_det"])
DETS = WORDS["closed"]


def derive_terms(rule: str) -> tuple[str, ...]:
    """The topics a rule's text guards, by name ("refund", "waive + fee"), and the
    detectors it delegates to ("detector:credentials"); empty when it guards nothing."""
    derived = derive_topics(rule)
    return tuple(t.label for t in derived.topics) + tuple(f"detector:{d}" for d in derived.detectors)


@lru_cache(maxsize=65536)
def inflections(word: str) -> frozenset[str]:
    """Every inflected form of `word` and of the lemmas it may come from.

    Over-generation is cheap (a form nobody writes never matches); a missed form is a miss.
    """
    if word in DETS:
        return frozenset({word})  # "you", "my", "of": function words do not inflect
    return family(word, derive=False)


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


def clear_caches() -> None:
    """Forget every word and rule text read so far (the dictionaries stay loaded), as in
    a process that has loaded no policy yet: what a cold-start measurement needs."""
    for cached in (term_variants, inflections, derive_topics, lexicon.zipf, lexicon.part_of_speech,
                   lexicon.lemmas, lexicon._inflections, lexicon.family, lexicon.compound_parts):
        cached.cache_clear()
    dictionary.clear()
