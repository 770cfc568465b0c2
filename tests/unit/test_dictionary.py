"""The lexicon's reads of lemminflect's and wordfreq's tables answer exactly what their calls do."""

from __future__ import annotations

import random

import lemminflect
import pytest
from wordfreq import top_n_list, zipf_frequency

from redline.policy import dictionary, lexicon
from redline.policy.terms import clear_caches

# irregular forms, words lemminflect overrides, words it does not know, capitals, odd strings
EDGE_WORDS = [
    "stolen", "steal", "paid", "sold", "took", "went", "children", "data", "fee", "feed",
    "all", "another", "abdomen", "bankrolled", "aneurysm", "number", "longer", "self",
    "zorbify", "doxxing", "slas", "unfreeze", "cyberattack", "layoff", "x-ray", "3d", "",
    "Steal", "STOLEN", "Paris", "aBc", "iPhone", "naïve", "café", "straße",
]


def _public_pairs(words: list[str]) -> list[tuple[str, object, object]]:
    return [(w, lemminflect.getAllLemmas(w), lemminflect.getAllInflections(w)) for w in words]


@pytest.mark.parametrize("words", [EDGE_WORDS, top_n_list("en", 6000)], ids=["edge", "common-6000"])
def test_readings_and_forms_are_lemminflects_answers(words: list[str]) -> None:
    dictionary.clear()
    for word, lemmas, inflections in _public_pairs(words):
        assert dictionary.readings(word) == lemmas, word
        assert dictionary.forms(word) == inflections, word


def test_without_the_tables_the_public_calls_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another lemminflect that keeps its tables elsewhere still gets the same answers."""
    monkeypatch.setattr(dictionary, "_tables", lambda owner, getter: None)
    monkeypatch.setattr(dictionary, "_read_lemmas", None)
    monkeypatch.setattr(dictionary, "_read_forms", None)
    dictionary.clear()
    try:
        for word, lemmas, inflections in _public_pairs(EDGE_WORDS):
            assert dictionary.readings(word) == lemmas
            assert dictionary.forms(word) == inflections
    finally:
        dictionary.clear()  # nothing read through the patched readers stays cached


def test_answers_are_kept_until_cleared() -> None:
    dictionary.clear()
    first = dictionary.readings("stolen")
    assert dictionary.readings("stolen") is first
    clear_caches()
    assert dictionary.readings.cache_info().currsize == 0
    assert dictionary.readings("stolen") == first and dictionary.readings("stolen") is not first


def test_zipf_is_wordfreqs_answer() -> None:
    """The lexicon's shortcut for plain words gives wordfreq's `zipf_frequency` exactly, for
    listed words, rare ones, strings no list holds, and words it must hand to wordfreq."""
    rng = random.Random(3)
    words = top_n_list("en", 20000)[::4] + top_n_list("en", 300000)[-5000:] + [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 12))) for _ in range(3000)
    ] + ["", "don't", "x-ray", "3d", "covid19", "café", "Paris", "e-mail", "a.m.", "’s"]
    lexicon.zipf.cache_clear()
    for word in words:
        assert lexicon.zipf(word) == zipf_frequency(word, "en"), word


def test_a_pasted_token_longer_than_any_word_is_not_spell_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    # the one-edit set of a token is its length squared times 52 strings of its length:
    # gigabytes for a 10,000-letter hash pasted into a rule, so none is built for it
    lexicon._misspelt.cache_clear()
    looked_up: list[str] = []
    real = lexicon.zipf
    monkeypatch.setattr(lexicon, "zipf", lambda word: looked_up.append(word) or real(word))
    token = "qzvkjx" * 50
    assert lexicon._misspelt(token) == ()
    assert looked_up == []
    assert lexicon._misspelt("gaurantees") == ("guarantees",)  # a word's slip is still read
