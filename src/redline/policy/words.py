"""The word lists of `data/rule_words.txt`, read once (the file's header says what each is for)."""

from __future__ import annotations

from collections import defaultdict
from importlib import resources

__all__ = ["WORDS", "DETECTOR_TOPICS", "may_hold", "phrase_at"]


def _load() -> tuple[dict[str, frozenset[str]], dict[str, str]]:
    lists: dict[str, set[str]] = defaultdict(set)
    detector_topics: dict[str, str] = {}
    table = resources.files("redline.policy").joinpath("data/rule_words.txt").read_text("utf-8")
    for number, line in enumerate(table.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = [c.strip() for c in line.split("\t")]
        if cols[0] == "detector_topic" and len(cols) == 3:
            detector_topics[cols[1]] = cols[2]
        elif len(cols) == 2 and cols[1]:
            lists[cols[0]].add(cols[1])
        else:
            raise ValueError(f"redline/policy/data/rule_words.txt:{number}: bad row {line!r}")
    return {kind: frozenset(words) for kind, words in lists.items()}, detector_topics


WORDS, DETECTOR_TOPICS = _load()
_LONGEST = {kind: max(len(p.split()) for p in words) for kind, words in WORDS.items()}
# the text before the first space of each phrase: a token (which holds no space) that is
# none of them starts no phrase, and most tokens of a rule start none (derivation asks
# some 25 times per rule)
_FIRST = {kind: frozenset(p.split(" ")[0] for p in words) for kind, words in WORDS.items()}


def phrase_at(tokens: list[str], i: int, kind: str) -> int:
    """Length in tokens of the longest phrase of list `kind` starting at tokens[i], or 0."""
    if i < len(tokens) and tokens[i] not in _FIRST.get(kind, ()) and " " not in tokens[i]:
        return 0
    phrases = WORDS.get(kind, frozenset())
    for n in range(min(_LONGEST.get(kind, 0), len(tokens) - i), 0, -1):
        if " ".join(tokens[i : i + n]) in phrases:
            return n
    return 0


def may_hold(tokens: list[str], kind: str) -> bool:
    """Whether some token of `tokens` may start a phrase of list `kind`: the quick test
    before trying `phrase_at` at every token."""
    return not _FIRST.get(kind, frozenset()).isdisjoint(tokens)
