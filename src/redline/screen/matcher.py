"""All terms and topics of all rules in one automaton, patterns in RE2: where each rule matched.

Terms are matched as whole words with "boundary keys" (see PERF-NOTES): the shadow text
has every character that is not a letter or digit mapped to a space and one space added
at each end, and each term variant is stored as " word word ". A key can then only match
from word start to word end, so no hit needs a boundary check in Python, and the
automaton (ahocorasick_rs, a Rust Aho-Corasick) returns character offsets that are
offsets of the shadow text as well, since the mapping keeps every length.

An operator's term is a phrase: its variants are keys. A derived topic is one or two
words, each by its whole family (`policy.lexicon.family`): every form is a one-word key,
and a two-word topic is a hit where forms of both words stand in one sentence, at most
`WINDOW` words apart, in either order ("the early termination FEE on your line has been
WAIVED"). Pairing walks the word hits once in text order, so it stays linear.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple, Sequence

import ahocorasick_rs
import re2

from redline.policy.clauses import OLDEST_UNDER
from redline.policy.lexicon import compound_parts, family, lemmas, zipf
from redline.policy.terms import term_variants
from redline.policy.reading import NOUN_PARTICLES
from redline.policy.topics import Topic
from redline.screen.normalize import normalize
from redline.types import Severity, Status

WINDOW = 10  # the most words between the two words of a topic
# the object pronouns that stand between a phrasal verb and its particle
_OBJECT_PRONOUNS = frozenset("it them him her me us you this that these those yourself himself herself "
                             "themselves myself ourselves things everything something".split())
# What ends the sentence a topic's two words must share. A colon does not: what follows it
# says more of what precedes it ("The fine: I'm reducing it by half"); a semicolon joins
# two statements, and one may deny what the other says.
# (a period after a lone letter is an initial's or an abbreviation's, "E. coli", "9 a.m.
# load", "U.S. citizens": no sentence ends there)
_SENTENCE_BREAK = re.compile(r"(?<![\s.][A-Za-z])(?<!^[A-Za-z])[.!?;](?:\s|$)|\n")

# ASCII: everything but letters and digits becomes a separator (apostrophes too, so
# "customer's" holds the word "customer" and quoted 'refund' still matches).
_SEP_TABLE = {i: " " for i in range(128) if not chr(i).isalnum()}
_SEP_BYTES = bytes(i if chr(i).isalnum() else 32 for i in range(256))
_NON_WORD = re.compile(r"[^\w]|_")
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.case_sensitive = False
_RE2_OPTIONS.log_errors = False
_RE2_OPTIONS.max_mem = 64 << 20


def separate(shadow_text: str) -> str:
    """The shadow text with every non-word character replaced by one space (same length)."""
    if shadow_text.isascii():  # bytes.translate is a table lookup, a third of str.translate
        return shadow_text.encode("ascii").translate(_SEP_BYTES).decode("ascii")
    return _NON_WORD.sub(" ", shadow_text.translate(_SEP_TABLE))


def term_words(term: str) -> tuple[str, ...]:
    """A term as the shadow sees it: normalized, split into words."""
    return tuple(separate(normalize(term).text).split())


# An amount of money as a draft writes it (normalized: lower case, NFKC): a currency sign
# before the number ("$1,200.50", "us$5", "€30", "£40k") or a currency word after it
# ("1,800 dollars", "30k usd"). "Pounds" is left out: it weighs as often as it pays.
_MONEY = re2.compile(
    r"(?:(?:\b(?:us|c|a|nz|hk|s))?[$£€¥₹]\s?\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?(?:k|m|bn|thousand|million|billion)\b)?)"
    r"|(?:\b\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?(?:k|m|thousand|million|billion))?\s?"
    r"(?:dollars?|bucks|euros?|cents?|usd|eur|gbp|cad|aud|rupees?|yen)\b)",
    options=_RE2_OPTIONS)


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """One rule as the screen runs it, whatever the policy section it came from."""

    id: str
    severity: Severity
    suppress: frozenset[Status]
    terms: tuple[str, ...]
    patterns: tuple[str, ...] = ()
    source: str = "red_line"
    detectors: tuple[str, ...] = ()  # built-in detectors whose findings fire this rule
    topics: tuple[Topic, ...] = ()  # derived from the rule's text when it gives no terms


class RawHit(NamedTuple):
    """A match in shadow offsets, before context. A two-word topic's hit spans both words
    and lists the span of each in `parts` (the words between them may hold a cue).

    A named tuple, not a dataclass: one is made per match, and a tuple costs a third."""

    rule: int
    start: int
    end: int
    term: str
    pattern: bool = False
    parts: tuple[tuple[int, int], ...] = ()


# A hit per match of a term: the tuple's own constructor, not the named tuple's Python one
_new_hit = tuple.__new__


def _ages(years: str) -> set[tuple[str, ...]]:
    """The ways a draft gives a person's age in years ("your 14-year-old", "aged 14",
    "14 years old"), as the word sequences of the shadow text."""
    return {(years, "year", "old"), (years, "year", "olds"), (years, "years", "old"), ("aged", years)}


def topic_keys(unit: str) -> set[str]:
    """The word sequences that count as one word of a topic: the family of its first word,
    the rest as written ("trade in" -> "trading in"); a closed compound also as two words."""
    words = term_words(unit)
    if not words:
        return set()
    rest = words[1:]
    first = family(words[0])
    keys = {(form, *rest) for form in first}
    if len(rest) > 1 or rest and len(rest[-1]) > 3:
        # a phrase's last word inflects as its head ("card NUMBERS" is also a "card number",
        # "pick and PACK" "picking and packing"); not a particle ("check IN")
        keys |= {(form, *rest[:-1], last) for form in first for last in family(rest[-1], derive=False)}
    elif rest and rest[-1][:-1].isdigit() and rest[-1].endswith("s"):
        keys |= {(form, *rest[:-1], rest[-1][:-1]) for form in first}  # "under-18s": "an under-18" too
        if len(words) == 2 and words[0] == "under" and int(rest[-1][:-1]) <= OLDEST_UNDER:
            keys |= {age for years in range(1, int(rest[-1][:-1])) for age in _ages(str(years))}
    if not rest:
        parts = compound_parts(words[0])
        if parts is not None:  # "cyber attacks", "taken over"
            keys |= {(a, b) for a in family(parts[0], derive=False) for b in family(parts[1], derive=False)}
    elif len(rest) == 1:  # "laid off" is also a "layoff", "fail over" a "failover"
        for lemma in lemmas(words[0]):
            if zipf(lemma + rest[0]) >= 1.5:
                keys |= {(form,) for form in family(lemma + rest[0], derive=False)}
            if rest[0] in NOUN_PARTICLES:  # the noun "a check-in" has its plural on the particle
                keys.add((lemma, rest[0] + "s"))
        if rest[0] in NOUN_PARTICLES:
            # a pronoun object stands between a phrasal verb and its particle: "pay IT off",
            # "get YOURSELF up", "screen THOSE out"
            keys |= {(form, pronoun, rest[0]) for form in first for pronoun in _OBJECT_PRONOUNS}
    return {" " + " ".join(k) + " " for k in keys if all(k)}


class Matcher:
    """Compiled once per policy; `scan` is the hot path and allocates little."""

    def __init__(self, rules: Sequence[RuleSpec]) -> None:
        # a key's owners: (rule, term) for a phrase; (rule, topic label, slot, slots) for a
        # word of a topic, where `slots` is 1 or 2
        owners: dict[str, dict[tuple[int, str, int, int], None]] = {}
        money: dict[tuple[int, str, int, int], None] = {}  # the words an amount of money stands for
        for index, rule in enumerate(rules):
            for term in rule.terms:
                normal = normalize(term).text
                variants = set(term_variants(tuple(separate(normal).split())))
                unquoted = normal.replace("'", "")
                if unquoted != normal:  # "can't breathe" also as "cant breathe"
                    variants |= term_variants(term_words(unquoted))
                for variant in variants:
                    owners.setdefault(" " + " ".join(variant) + " ", {})[(index, term, 0, 1)] = None
            for topic in rule.topics:
                for slot, unit in enumerate(topic.words):
                    for key in topic_keys(unit):
                        owners.setdefault(key, {})[(index, topic.label, slot, len(topic.words))] = None
                    if unit in topic.money:
                        money[(index, topic.label, slot, len(topic.words))] = None
        self._keys = list(owners)
        self._owners = [tuple(owners[k]) for k in self._keys]
        self._automaton = ahocorasick_rs.AhoCorasick(self._keys) if self._keys else None
        self._money = tuple(money)
        self._patterns: list[tuple[int, re2._Regexp]] = []
        self._pattern_set = None
        for index, rule in enumerate(rules):
            for pattern in rule.patterns:
                self._patterns.append((index, re2.compile(pattern, options=_RE2_OPTIONS)))
        if self._patterns:
            # re2.Set says which patterns match in one pass; only those run for spans
            self._pattern_set = re2.Set.SearchSet(_RE2_OPTIONS)
            for _, regex in self._patterns:
                self._pattern_set.Add(regex.pattern)
            self._pattern_set.Compile()

    @property
    def key_count(self) -> int:
        return len(self._keys)

    def scan(self, shadow_text: str, keyed: str | None = None) -> list[RawHit]:
        """Every hit in `shadow_text`; `keyed` is `" " + separate(shadow_text) + " "`
        where the caller has it already (a text analysis shared by several policies)."""
        hits: list[RawHit] = []
        if self._automaton is not None:
            if keyed is None:
                keyed = " " + separate(shadow_text) + " "
            owners = self._owners
            halves: dict[tuple[int, str], list[tuple[int, int, int]]] = {}
            for key_index, start, end in self._automaton.find_matches_as_indexes(keyed, overlapping=True):
                # the key's leading space sits at keyed[start] = shadow[start - 1]
                for rule, term, slot, slots in owners[key_index]:
                    if slots == 1:
                        hits.append(_new_hit(RawHit, (rule, start, end - 2, term, False, ())))
                    else:
                        halves.setdefault((rule, term), []).append((start, end - 2, slot))
            if self._money:
                for match in _MONEY.finditer(shadow_text):
                    start, end = match.span()
                    for rule, term, slot, slots in self._money:
                        if slots == 1:
                            hits.append(_new_hit(RawHit, (rule, start, end, term, False, ())))
                        else:
                            halves.setdefault((rule, term), []).append((start, end, slot))
            for (rule, term), found in halves.items():
                hits.extend(_pairs(rule, term, found, keyed, shadow_text))
        if self._pattern_set is not None:
            for pattern_index in self._pattern_set.Match(shadow_text) or ():
                rule, regex = self._patterns[pattern_index]
                for match in regex.finditer(shadow_text):
                    start, end = match.span()
                    if end > start:
                        hits.append(RawHit(rule, start, end, regex.pattern, True))
        return hits


def _pairs(rule: int, term: str, found: list[tuple[int, int, int]], keyed: str, text: str) -> list[RawHit]:
    """Two-word topic hits: each word hit paired with the nearest earlier hit of the other
    word in the same sentence, at most WINDOW words before it."""
    hits: list[RawHit] = []
    last: list[tuple[int, int] | None] = [None, None]
    before: list[tuple[int, int] | None] = [None, None]  # each word's hit before its last one
    for start, end, slot in sorted(found):
        other = last[1 - slot]
        if other is not None and other[1] > start and before[1 - slot] is not None:
            # one amount of money stands for both words ("compensation AMOUNTS": "$14.50"):
            # it pairs with the other word's hit before it, not with itself
            other = before[1 - slot]
        if other is not None and other[1] <= start:
            if len(keyed[other[1] + 1 : start + 1].split()) <= WINDOW \
                    and not _SENTENCE_BREAK.search(text, other[1], start):
                hits.append(RawHit(rule, other[0], end, term, parts=((other[0], other[1]), (start, end))))
        if last[slot] != (start, end):
            before[slot] = last[slot]
        last[slot] = (start, end)
    return hits
