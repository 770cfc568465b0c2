"""lemminflect's lemma and inflection tables, each word looked up once per process.

`lemminflect.getAllLemmas` and `getAllInflections` deep-copy the table entry and re-apply
the word's capitals on every call (about 10 µs each), and the lexicon asks for the same
word several times (its lemmas, its part of speech, whether it is a word): a
10,000-rule policy makes some 30,000 such calls while it compiles. Here a lower-case word
is read from the same two tables, entry first, then its overrides, as lemminflect merges
them, and the answer is kept. A word with capitals, or a lemminflect that no longer keeps
its tables where this reads them, goes through the public calls instead (the answers
are the same; `tests/unit/test_dictionary.py` compares them word by word).

The answers are shared: callers read them and never change them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

import lemminflect

__all__ = ["clear", "forms", "readings"]

Entry = Mapping[str, tuple[str, ...]]
_EMPTY: dict[str, Any] = {}


def _tables(owner: Any, getter: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(the table, its overrides) of a lemminflect singleton, or None where it has none."""
    try:
        table = getattr(owner, getter)()
        overrides = owner._getOverridesDict()
    except Exception:  # another lemminflect: its public calls still answer
        return None
    return (table, overrides) if isinstance(table, dict) and isinstance(overrides, dict) else None


def _reader(owner: Any, getter: str, public: Callable[[str], Any]) -> Callable[[str], Entry]:
    tables = _tables(owner, getter)

    def read(word: str) -> Entry:
        if tables is None or word.isupper() or word[:1].isupper():
            return dict(public(word))
        table, overrides = tables
        key = word.lower()  # lemminflect looks every word up in lower case
        entry = table.get(key, _EMPTY)
        extra = overrides.get(key)
        if extra:
            entry = {**entry, **extra}
        # what `applyCapsStyleToDict(…, "lower")` does to the copy lemminflect returns
        return {tag: tuple(map(str.lower, group)) for tag, group in entry.items()}

    return read


_read_lemmas: Callable[[str], Entry] | None = None
_read_forms: Callable[[str], Entry] | None = None


@lru_cache(maxsize=1 << 17)
def readings(word: str) -> Entry:
    """`lemminflect.getAllLemmas(word)`: the lemmas of `word` by part of speech."""
    global _read_lemmas
    if _read_lemmas is None:  # the tables load on first use, as lemminflect's own do
        _read_lemmas = _reader(lemminflect.Lemmatizer(), "_getLemmaDict", lemminflect.getAllLemmas)
    return _read_lemmas(word)


@lru_cache(maxsize=1 << 17)
def forms(lemma: str) -> Entry:
    """`lemminflect.getAllInflections(lemma)`: the forms of `lemma` by Penn tag."""
    global _read_forms
    if _read_forms is None:
        _read_forms = _reader(lemminflect.Inflections(), "_getInflDict", lemminflect.getAllInflections)
    return _read_forms(lemma)


def clear() -> None:
    """Forget every word looked up (the tables stay loaded): for cold-start measurements."""
    readings.cache_clear()
    forms.cache_clear()
