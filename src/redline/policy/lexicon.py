"""Which words count as the same word: lemmas, inflections, one step of derivation.

A rule says "harassment"; a draft says "harassed". A rule says "stolen cards"; a draft
says "your card was stolen". The screen never lemmatizes a draft (that would cost a
dictionary lookup per word on the hot path): instead each rule word is expanded, once
per policy, into its *family* — every surface form that counts as it — and those forms
go into the automaton.

- Lemmas and inflections come from `lemminflect` (a lemmatizer and inflector that ships
  its dictionary), so irregular forms work: stolen/steal, paid/pay, sold/sell, took/take.
  Words it does not know (product names, coinages) get the regular English forms.
- Derivation is one step of English suffix morphology (pregnancy/pregnant,
  harassment/harass, sponsorship/sponsor, withdrawal/withdraw), from the suffix
  alternations in `data/derivation.tsv`. No library ships a derivational lexicon that
  installs without a download, so each candidate the table proposes is kept only when
  the dictionary knows it and `wordfreq` (word frequencies from many corpora, shipped in
  the package) says it is a word people write. Suffixes that change who or what a word
  names (-er, -ist, -ant: claim/claimant) or turn it around (-less) are not in
  the table. Derivations by a change of the stem (sell/sale, wide/width) and clippings
  (photo/photograph), which no suffix step makes, are listed in
  `data/irregular_derivations.tsv`.
- British and American spellings (unauthorised/unauthorized, cancelled/canceled) are
  the same word; a variant is kept when `wordfreq` knows it.

`specificity` is a word's Zipf frequency (log10 of uses per billion words): below ~3.6 a
word is rare enough that its presence alone says what a text is about.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple
from importlib import resources

from wordfreq import freq_to_zipf, get_frequency_dict, word_frequency, zipf_frequency, zipf_to_freq

from redline.policy.dictionary import forms as _table_forms, readings

__all__ = ["compound_parts", "family", "is_word", "lemmas", "part_of_speech", "share_of_drafts", "zipf"]

_MIN_ZIPF = 2.0  # a derived or respelled candidate rarer than this is not a word people write
# American and British endings of the same word, tried both ways (a respelling is kept
# only when wordfreq knows it, so "error" never becomes "errour")
_SPELLING = tuple(
    pair.split("/")
    for pair in "ize/ise izes/ises ized/ised izing/ising ization/isation izations/isations "
    "yze/yse yzed/ysed yzing/ysing or/our ors/ours ored/oured oring/ouring ter/tre ters/tres "
    "og/ogue eled/elled eling/elling eler/eller ence/ense ences/enses oll/ol ill/il".split()
)
_SPELLING_ENDINGS = tuple(ending for pair in _SPELLING for ending in pair)
_VOWELS = frozenset("aeiou")
_SHORT_PLURAL_MARGIN = 0.3  # Zipf: "ads" 4.3 / "ad" 4.8 is a plural, "gps" 4.0 / "gp" 3.9 is not
# Prefixes that never change how the word they prefix inflects.
_PREFIXES = ("un", "re", "dis", "mis", "pre", "over", "under", "out", "up", "co", "de")


class _Step(NamedTuple):
    """One row of `data/derivation.tsv`."""

    base_end: str
    derived_end: str
    shortest: int  # the fewest letters the base word may have
    base_pos: frozenset[str]
    derived_pos: frozenset[str]
    base_only: bool  # the base may have no reading but `base_pos` ("=VERB": deny, not party)
    derived_only: bool  # the same for the derived word ("=NOUN": dosage, not savage)


def _load_suffixes() -> list[_Step]:
    rows = []
    table = resources.files("redline.policy").joinpath("data/derivation.tsv").read_text("utf-8")
    for number, line in enumerate(table.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        try:
            base, derived, shortest, base_pos, derived_pos = cols
            rows.append(_Step(base, derived, int(shortest), frozenset(base_pos.lstrip("=").split("|")),
                              frozenset(derived_pos.lstrip("=").split("|")), base_pos.startswith("="),
                              derived_pos.startswith("=")))
        except ValueError as exc:
            raise ValueError(f"redline/policy/data/derivation.tsv:{number}: bad row {line!r}") from exc
    return rows


_SUFFIXES = _load_suffixes()

# the rows by the ending a lemma must have for each direction, so a lemma is checked
# against the few rows its endings name instead of every row
_BY_DERIVED: dict[str, list[_Step]] = {}
_BY_BASE: dict[str, list[_Step]] = {}
for _row in _SUFFIXES:
    _BY_DERIVED.setdefault(_row.derived_end, []).append(_row)
    _BY_BASE.setdefault(_row.base_end, []).append(_row)
_ENDING_LENGTHS = sorted({len(ending) for ending in (*_BY_DERIVED, *_BY_BASE)})


def _word_pairs(name: str) -> list[tuple[str, str]]:
    """The rows of a table of word pairs in `data/` (two words a row, tab-separated)."""
    table = resources.files("redline.policy").joinpath(f"data/{name}").read_text("utf-8")
    pairs = []
    for number, line in enumerate(table.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 2 or not all(cols):
            raise ValueError(f"redline/policy/data/{name}:{number}: bad row {line!r}")
        pairs.append((cols[0], cols[1]))
    return pairs


# pairs the rows relate by spelling only ("import" / "importance"): never one family
_FALSE_DERIVATIONS = frozenset(pair for a, b in _word_pairs("false_derivations.tsv") for pair in ((a, b), (b, a)))


def _related(pairs: list[tuple[str, str]]) -> dict[str, frozenset[str]]:
    related: dict[str, set[str]] = {}
    for a, b in pairs:
        related.setdefault(a, set()).add(b)
        related.setdefault(b, set()).add(a)
    return {word: frozenset(others) for word, others in related.items()}


# derivations by a change of the stem ("sell" / "sale", "wide" / "width"): no suffix row proposes them
_IRREGULAR_DERIVATIONS = _related(_word_pairs("irregular_derivations.tsv"))


_PLAIN = re.compile(r"[a-z]+")
_FLOOR = zipf_to_freq(0.0)  # what wordfreq answers for a word it does not list


@lru_cache(maxsize=1 << 17)
def zipf(word: str) -> float:
    """How common `word` is in English: Zipf frequency, 0 for unknown, ~7.7 for "the"."""
    if _PLAIN.fullmatch(word):
        return _plain_zipf(word)
    return float(zipf_frequency(word, "en"))


def _plain_zipf(word: str) -> float:
    """`zipf_frequency(word, "en")` for a word of ASCII lower-case letters, which wordfreq's
    tokenizer keeps whole: the same table, the same roundings, without the tokenizing
    that costs 30 µs a call (derivation asks for some ten candidate words per rule word).
    `tests/unit/test_dictionary.py` checks it against wordfreq's own answer."""
    freq = get_frequency_dict("en").get(word)
    if freq is None:
        value = _FLOOR
    else:
        unrounded = max(1.0 / (1.0 / freq), _FLOOR)  # wordfreq combines one token's frequency so
        value = round(unrounded, math.floor(-math.log(unrounded, 10)) + 3)  # and keeps 3 digits
    return round(freq_to_zipf(value), 2)


@lru_cache(maxsize=1 << 16)
def part_of_speech(word: str) -> frozenset[str]:
    """The universal POS tags `word` can have (empty when the dictionary does not know it).

    The dictionary gives a VERB reading to many nouns ("product", "fee"); such a word counts
    as a verb too only when its -ing form is written ("courting" is, "producting" is not).
    """
    tags = set(readings(word))
    if "VERB" in tags and tags & {"NOUN", "ADJ"} and not any(
        zipf(form) >= _MIN_ZIPF
        for lemma in readings(word)["VERB"]
        for form in _table_forms(lemma).get("VBG", ())
    ):
        tags.discard("VERB")
    return frozenset(tags)


def is_word(word: str, pos: frozenset[str] | None = None) -> bool:
    """A word people write: one the dictionary knows (as one of `pos`, when given, by any
    reading it lists: "garnish" is a verb though "garnishing" is rare), or a long one it
    does not know that is as common in wordfreq's corpora ("anaphylactic", "remediate"; a
    short unknown string such as "com" is no word)."""
    known = frozenset(readings(word))
    if not known:
        return len(word) >= 8 and zipf(word) >= _MIN_ZIPF
    if pos is not None and not known & pos:
        return False
    # a word is written when one of its forms is: "hospitalize" is rare (Zipf 1.8),
    # "hospitalized" is not (3.4)
    return zipf(word) >= _MIN_ZIPF or any(zipf(form) >= _MIN_ZIPF for form in _inflections(word))


@lru_cache(maxsize=1 << 16)
def lemmas(word: str) -> frozenset[str]:
    """The dictionary forms `word` is an inflection of; the word itself when it has none."""
    found: set[str] = set()
    entry = readings(word)
    for upos, group in entry.items():
        # "number" is a noun, not the comparative of "numb"; "longer" is the comparative of long
        if upos == "ADJ" and word.endswith(("er", "est")) and word in entry.get("NOUN", ()):
            continue
        found.update(group)
    if not found and word.isalpha() and len(word) > 3:
        stems = _regular_stems(word)  # "doxxing" -> "doxx", "slas" -> "sla", "vpns" -> "vpn"
        if word.startswith(_PREFIXES) and not any(readings(stem) or zipf(stem) >= _MIN_ZIPF for stem in stems - {word}):
            # "refrozen", "refroze" -> refreeze: a prefix on a verb's irregular form (not
            # "counties", the plural of a word the dictionary knows, as "co" + "unties")
            stems = _prefixed(word) or stems
        found.update(stems)
    elif not found and len(word) == 3 and word.endswith("s") and word.isalpha() \
            and zipf(word[:-1]) >= zipf(word) + _SHORT_PLURAL_MARGIN:
        # "ads" -> ad, "tvs" -> tv: a short plural the dictionary leaves out, told from a
        # word of its own ("gps", "sms", "abs") by being written less often than its stem
        found.update((word, word[:-1]))
    return frozenset(found or {word})


def _prefixed(word: str) -> set[str]:
    """The lemma of a word the dictionary does not know that is a prefix on a verb's
    inflected form ("refrozen", "refroze": re + freeze), as `_inflections` inflects a
    prefixed lemma ("unfreeze") by its stem."""
    for prefix, stem in _prefix_splits(word):
        verbs = readings(stem).get("VERB", ())
        if verbs and stem not in verbs:
            return {prefix + verb for verb in verbs}
    return set()


def _prefix_splits(word: str) -> Iterator[tuple[str, str]]:
    """Each prefix `word` begins with and the stem of three letters or more after it."""
    for prefix in _PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 3:
            yield prefix, word[len(prefix):]


def _regular_stems(word: str) -> set[str]:
    """The bases a word the dictionary does not know may be a regular form of, from
    lemminflect's rules for words it has not seen ("euthanized" -> euthanize, "doxxing"
    -> doxx, "vpns" -> vpn)."""
    import lemminflect

    stems: set[str] = set()
    if word.endswith(("ing", "ed")) and len(word) > 5:
        stems.update(lemminflect.getAllLemmasOOV(word, "VERB").get("VERB", ()))
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "ics")):
        stems.update(lemminflect.getAllLemmasOOV(word, "NOUN").get("NOUN", ()))
    stems.discard(word)
    return {word} | stems if stems else set()


def _regular(word: str) -> set[str]:
    """Regular English forms of a word the dictionary does not know ("zorbify", "sla")."""
    forms = {word}
    if len(word) < 3 or not word.isalpha():
        return forms
    if word.endswith("y") and word[-2:-1] not in _VOWELS:
        forms.update({word[:-1] + "ies", word[:-1] + "ied", word + "ing"})
    elif word.endswith("e"):
        forms.update({word + "s", word + "d", word[:-1] + "ing"})
    elif word.endswith(("s", "x", "z", "ch", "sh")):
        forms.update({word + "es", word + "ed", word + "ing"})
    else:
        forms.update({word + "s", word + "ed", word + "ing"})
    return forms


def _doubled(word: str) -> set[str]:
    """The forms with a doubled final consonant of a word the dictionary does not know
    ("screenshotted"): whether a word doubles depends on its stress, which no table here
    knows, so a derived topic takes both spellings (an operator's own terms take the
    plain ones: their forms are the operator's to list)."""
    if len(word) > 3 and word.isalpha() and word[-1] not in _VOWELS and word[-1] not in "wxy" \
            and word[-2] in _VOWELS and word[-3] not in _VOWELS and not _table_forms(word):
        return {word + word[-1] + "ed", word + word[-1] + "ing"}
    return set()


@lru_cache(maxsize=1 << 16)
def _inflections(lemma: str) -> frozenset[str]:
    """The lemma's inflected forms that really are its forms ("fee" is not "feed")."""
    known = _table_forms(lemma)
    if not known:
        for prefix, stem in _prefix_splits(lemma):  # "unfreeze" inflects as "freeze": unfroze, unfrozen
            if _table_forms(stem):
                return frozenset({lemma} | {prefix + form for form in _inflections(stem)})
        # a regular form the dictionary gives to another word is that word's ("pos" is no
        # verb: "posing" is a form of pose)
        return frozenset(form for form in _regular(lemma) if form == lemma or not readings(form))
    forms = {lemma}
    verb = "VERB" in part_of_speech(lemma)
    for tag, group in known.items():
        if tag.startswith("VB") and not verb:
            # a verb reading `part_of_speech` doubts still owns the forms that are written
            # and are its alone ("lapsed", "garnished"; not "feed", which is feed's too)
            forms.update(form for form in group if tag in ("VBD", "VBN", "VBG")
                         and zipf(form) >= _MIN_ZIPF and readings(form).get("VERB") == (lemma,))
            continue
        forms.update(form for form in group if form == lemma or lemma in lemmas(form))
    return frozenset(forms)


def _derived(lemma: str) -> set[str]:
    """Lemmas one suffix step away from `lemma`, in either direction, that are words."""
    found: set[str] = set()
    pos = part_of_speech(lemma)
    for length in _ENDING_LENGTHS:
        if length > len(lemma):
            break
        ending = lemma[len(lemma) - length :]
        for step in _BY_DERIVED.get(ending, ()):
            if not pos or pos & step.derived_pos and (not step.derived_only or pos <= step.derived_pos):
                # harassment -> harass
                candidate = lemma[: len(lemma) - len(step.derived_end)] + step.base_end
                if len(candidate) >= step.shortest and candidate != lemma and is_word(candidate, step.base_pos) \
                        and (not step.base_only or part_of_speech(candidate) <= step.base_pos):
                    found.add(candidate)
        for step in _BY_BASE.get(ending, ()):
            if len(lemma) >= step.shortest and (not pos or pos & step.base_pos) \
                    and (not step.base_only or pos <= step.base_pos):
                candidate = lemma[: len(lemma) - len(step.base_end)] + step.derived_end  # harass -> harassment
                if candidate != lemma and is_word(candidate, step.derived_pos) \
                        and (not step.derived_only or part_of_speech(candidate) <= step.derived_pos):
                    found.add(candidate)
    found.update(_IRREGULAR_DERIVATIONS.get(lemma, ()))
    return {candidate for candidate in found if (lemma, candidate) not in _FALSE_DERIVATIONS}


def _respellings(form: str) -> set[str]:
    if not form.endswith(_SPELLING_ENDINGS) or not part_of_speech(form):
        return set()  # most words end in none of them; a word nobody lists has no other spelling
    found = set()
    for american, british in _SPELLING:
        for old, new in ((american, british), (british, american)):
            if form.endswith(old) and len(form) > len(old) + 2:
                variant = form[: -len(old)] + new
                # (a spelling of the same word: "enrol" is "enroll", "until" is no "untill")
                if zipf(variant) >= _MIN_ZIPF and part_of_speech(variant) & part_of_speech(form):
                    found.add(variant)
    return found


_REFLEXIVES = frozenset("myself yourself himself herself itself oneself ourselves yourselves themselves".split())


@lru_cache(maxsize=1 << 16)
def family(word: str, derive: bool = True) -> frozenset[str]:
    """Every surface form that counts as `word` (lower-case, one word).

    With `derive`, the family spans one derivational step from each lemma (what a rule's
    topic word needs); without, only inflections and respellings (an operator's term).
    """
    bases = set(lemmas(word))
    if word.endswith("ings") and word in bases and is_word(word[:-1]):
        bases.add(word[:-1])  # "savings", "earnings": a plural the dictionary keeps as a lemma
    for lemma in [b for b in bases if b.endswith("ing") and b != word]:
        bases.update(lemmas(lemma))  # "openings" is as much the act as "opening" is: open, opened
    if derive:
        for known in _misspelt(word):  # "gaurantees": a rule typed in a hurry still names its word
            bases.update(lemmas(known))
    for lemma in list(bases):
        if lemma.endswith(_SPELLING_ENDINGS):  # `_respellings`' own first test, without the call
            bases.update(_respellings(lemma))
    if derive:
        # a word the dictionary does not list is read by its parts too: "excusal" is
        # excuse + -al (each candidate must be a word the dictionary lists, `_derived`)
        for lemma in list(bases):
            bases.update(_derived(lemma))
    forms: set[str] = {word}  # the word as the rule writes it is always one of its forms
    for lemma in bases:
        forms.update(_inflections(lemma))
        if derive:
            forms.update(_doubled(lemma))
            forms.update(_compound_verb(lemma))
    for lemma in readings(word).get("VERB", ()):
        table = _table_forms(lemma) if lemma != word else {}
        if any(word in table.get(tag, ()) for tag in ("VBD", "VBN", "VBG")):
            # a past or -ing form in the rule ("wages GARNISHED") is a verb, whatever the
            # doubt about its lemma (`part_of_speech`: "garnishing" is rare); not "-s",
            # which is a noun's plural as often ("fees" is no form of a verb "fee")
            forms.update(f for tag, group in table.items() if tag.startswith("VB") for f in group)
    for form in [f for f in forms if f.endswith(_SPELLING_ENDINGS)]:
        forms.update(_respellings(form))
    if "self" in bases:  # "self-harm" is "harming YOURSELF": the reflexives are forms of self
        forms.update(_REFLEXIVES)
    forms.discard("")
    return frozenset(forms)


@lru_cache(maxsize=1 << 12)
def _compound_verb(lemma: str) -> tuple[str, ...]:
    """A verb the dictionary does not know that ends in one it does inflects as that one:
    "jailbreak" -> jailbroke, jailbroken; "backfeed" -> backfed (English compounds inflect
    at their head). The first part must be a word of its own ("jail", "back")."""
    if readings(lemma) or not lemma.isalpha() or len(lemma) < 6:
        return ()
    for cut in range(2, len(lemma) - 2):
        head, tail = lemma[:cut], lemma[cut:]
        if "VERB" in readings(tail) and readings(head) and zipf(tail) >= _MIN_ZIPF_SPELLED:
            table = _table_forms(tail)
            return tuple(head + form for tag, group in table.items() if tag.startswith("VB") for form in group)
    return ()


_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_MIN_ZIPF_SPELLED = 2.5  # a correction must be a word English writes ("appraise" 2.5)
_MAX_ZIPF_MISSPELT = 2.0  # a word written more often than this is a word, not a slip
# longer than any word English writes often enough to be a correction ("internationalization"
# is 20): the one-edit set of a pasted token or hash is its length squared times 52
# strings of its length, gigabytes for 10,000 characters
_MAX_SPELLED_LENGTH = 30


@lru_cache(maxsize=1 << 12)
def _misspelt(word: str) -> tuple[str, ...]:
    """The common words one edit (a letter dropped, added, changed, or two swapped) from a
    word of six letters or more that the dictionary does not know and wordfreq barely does:
    "gaurantees" -> guarantees, "instalation" -> installation, "internationaly" ->
    internationally, international. A brand or a term of art ("isotretinoin") has none
    and stays as written; the word as written is kept either way.

    Written here rather than taken from a spelling library: the candidates are Norvig's
    one-edit set, a few lines, and the frequencies they are checked against are wordfreq's,
    the one table every other decision of the lexicon uses (a spelling package brings its
    own list, which would disagree with it)."""
    if not 6 <= len(word) <= _MAX_SPELLED_LENGTH or not word.isalpha() or not word.isascii() or readings(word):
        return ()
    written = zipf(word)  # wordfreq counts common misspellings too ("instalation" 1.1)
    if written >= _MAX_ZIPF_MISSPELT:
        return ()
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    edits = {a + b[1:] for a, b in splits if b}
    edits |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    edits |= {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    edits |= {a + c + b for a, b in splits for c in _LETTERS}
    floor = max(_MIN_ZIPF_SPELLED, written + 1.5)  # far more common than the word as written
    found = sorted((e for e in edits if e != word and zipf(e) >= floor), key=zipf, reverse=True)
    return tuple(found[:3])


@lru_cache(maxsize=1 << 14)
def compound_parts(word: str) -> tuple[str, str] | None:
    """A closed compound's two words ("cyberattack" -> cyber, attack; "takeovers" -> take,
    over), when both are words."""
    for lemma in sorted(lemmas(word), key=len):
        parts = _split_compound(lemma)
        if parts is not None:
            return parts
    return None


_PARTICLES = ("off", "out", "up", "down", "over", "back")  # not "in", "on": button, carton


def _split_compound(word: str) -> tuple[str, str] | None:
    for particle in _PARTICLES:  # "layoff", "breakdown", "takeover": a verb and its particle
        head = word[: -len(particle)]
        if word.endswith(particle) and len(head) >= 3 and "VERB" in part_of_speech(head):
            return head, particle
    if len(word) < 8 or not word.isalpha() or zipf(word) >= 4.0:
        return None
    best: tuple[float, tuple[str, str]] | None = None
    for cut in range(3, len(word) - 2):
        left, right = word[:cut], word[cut:]
        score = min(zipf(left), zipf(right))
        if score >= 3.5 and is_word(right) and (best is None or score > best[0]):
            best = (score, (left, right))
    return best[1] if best else None


def share_of_drafts(forms: frozenset[str] | set[str], words: int = 100) -> float:
    """How many drafts of `words` words would hold one of `forms`, by English word
    frequencies (wordfreq): the chance that a topic fires with no reason at all."""
    per_word = min(sum(word_frequency(form, "en") for form in forms), 1.0)
    return float(1.0 - (1.0 - per_word) ** words)


# agent suffixes that make a person of a word: claimant, pharmacist, clinician, resident.
# "-er" and "-or" make instruments as often (printer, voucher, monitor): such a noun is
# still read as a topic, but never stands alone for being rare ("public ADJUSTER").
PERSON_SUFFIXES = ("ist", "ian", "ant", "ent")
AGENT_SUFFIXES = ("er", "or")


def is_person(token: str, suffixes: tuple[str, ...] = PERSON_SUFFIXES) -> bool:
    """A role noun made with an agent suffix: pharmacist (pharmacy), claimants (claim)."""
    for lemma in lemmas(token):
        if lemma != token and _agent_noun(lemma, suffixes):
            return True
    return _agent_noun(token, suffixes)


def is_agent(token: str) -> bool:
    """A noun made with "-er" or "-or" on a word: adjuster, renter, donor (or a voucher)."""
    return is_person(token, AGENT_SUFFIXES)


def _agent_noun(token: str, suffixes: tuple[str, ...]) -> bool:
    return agent_base(token, suffixes) is not None and "NOUN" in part_of_speech(token)


def agent_base(token: str, suffixes: tuple[str, ...] = AGENT_SUFFIXES) -> str | None:
    """The word a noun is made from with one of `suffixes` ("adjuster" -> adjust,
    "waiver" -> waive, "pharmacist" with the person suffixes -> pharmacy), or None."""
    for suffix in suffixes:
        stem = token[: -len(suffix)]
        if token.endswith(suffix) and len(stem) >= 4:
            base = next((b for b in (stem, stem + "e", stem + "y") if part_of_speech(b)), None)
            if base is not None:
                return base
    return None
