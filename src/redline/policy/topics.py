"""From a red line written in plain words to the topics it guards.

A topic is one word or two words that must stand together in one sentence of a draft,
each matched by its whole word family (`lexicon.family`: lemma, inflections, one step of
derivation), in any order. "Never promise a refund" guards `refund`; "Never waive early
termination fees" guards `waive`, `termination + fee`, `early + fee`…, so "the early
termination fee on your line has been waived" holds and "your monthly fee is due" does not.

Derivation is recall-first (on a red line a silent miss is far worse than a false alarm).
It works on the reading of the rule (`policy.reading`): the clauses that state the rule,
less directives, routing verbs, conditions, exceptions, the addressee and function words.
Then:
- a word stands alone when it is the whole of a guarded phrase ("promise a REFUND",
  "signs of ARSON", "applicants who are HOMELESS"), the specific head of one ("network
  COVERAGE"), rare in English (Zipf frequency below `RARE_ZIPF`, from wordfreq:
  "subrogation", "cryptocurrency"), repeated in the rule's rationale ("… dose; only the
  prescriber can adjust DOSING"), or an act whose object names nothing more ("WITHDRAW
  more than $50,000", "DIAGNOSE a condition");
- the other words pair where English binds them: the words of one noun phrase ("stolen +
  card", "risk + profile"), an act with each word of its object ("waive + fee"), a quoted
  clause's subject with what is said of it ("claim + approved"), a noun with the phrase
  that qualifies it ("refund + fare"), and coordinated words with the head or modifier
  they share ("lost OR stolen card": lost + card). Nothing else pairs: two list items do
  not, and neither do two verbs.
A phrase that names what a built-in detector finds ("passwords", "personal details") is
delegated to that detector instead (see `DETECTOR_TOPICS`).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations

from redline.policy.lexicon import agent_base, family, is_agent, is_person, lemmas, part_of_speech, zipf
from redline.policy.clauses import about_others as names_others, cut_at, disclosure_verbs, in_list, rule_clauses, tokens
from redline.policy.reading import HEAD_ZIPF, Word, names_third_party, read
from redline.policy.words import DETECTOR_TOPICS, WORDS
from redline.screen.normalize import strip_invisible

__all__ = ["Derivation", "HEAD_ZIPF", "RARE_ZIPF", "Topic", "about_others", "derive_topics", "readable"]

# A word rarer than this in English (Zipf frequency: log10 of uses per billion words) is
# specific enough to stand alone: "arson" 3.4, "liquidate" 2.8, "hotline" 3.4; "fund"
# 4.8, "account" 5.2 and "death" 5.4 are not, and stand alone only by their place in the
# rule. Measured on the held-out rules (README).
RARE_ZIPF = 3.75
# Prepositions that place an act or say how it was done ("staying AT the hotel", "paid IN
# cash", "met ON the app"), rather than complete it ("filed FOR bankruptcy")
_ADJUNCT = frozenset({"at", "in", "on", "near", "inside", "outside", "via", "through", "during", "over", "around",
                      "throughout", "behind", "across"})
# a phrase of two words that English also writes as one ("bed bugs", "fire-proof") guards
# that word too when it is this common (Zipf): "bedbugs" 2.6, "fireproof" 2.8
_CLOSED_ZIPF = 2.5
# a head this common (Zipf) names nothing alone where an "of" phrase says what it is of:
# "the CAUSE (5.4) of a flight delay", "the HISTORY (5.4) of a vehicle"
_COMMON_ZIPF = 5.0
_MAX_TOPICS = 48  # a rule is a sentence or two; beyond this it is a paragraph of policy


@dataclass(frozen=True, slots=True)
class Topic:
    """One or two words that must stand together in a sentence (each by its family)."""

    words: tuple[str, ...]
    why: str
    # the rule states it in the negative ("say an investment can't LOSE MONEY"): a
    # negation in the draft is then the forbidden statement, not a denial of it
    negative: bool = False
    # its words that name an amount of money ("quote a PRICE"): an amount a draft writes
    # ("$650", "1,800 dollars") counts as that word
    money: tuple[str, ...] = ()
    # the words by which the rule itself names an absence ("sell vapes WITHOUT an ID",
    # "say a dish is gluten-FREE"): in a draft they state the topic, they do not deny it
    privative: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return " + ".join(self.words)


@dataclass(frozen=True, slots=True)
class Derivation:
    """What a rule's text guards: topics, built-in detectors it names, and whether it is
    about other people's information (then other-experiencer cues do not set hits aside)."""

    topics: tuple[Topic, ...]
    detectors: tuple[str, ...] = ()
    about_others: bool = False


# Loading and compiling a policy reads each rule several times (the load's check that
# every rule guards something, the gate's, the screen's specs): the cache holds a
# 10,000-rule policy whole, or each reading would evict the text the next one needs.
@lru_cache(maxsize=1 << 16)
def derive_topics(rule: str) -> Derivation:
    """The topics a red line or boundary written in words guards (cached per text).

    A text the reading cannot get through (a defect of the reader, met on some odd
    rule) derives nothing, so the policy refuses that rule by name with its fix (add
    `terms`) instead of failing to load with a traceback or guarding a wrong topic."""
    try:
        return _derive(readable(rule))
    except Exception:
        log.exception("could not read rule %r for its topics; it derives none", rule[:200])
        return Derivation(topics=())


log = logging.getLogger("redline.policy")


def readable(rule: str) -> str:
    """A rule as its words read: without the characters a draft's shadow drops (zero-width
    and bidi controls, a soft hyphen, combining marks), in compatibility form (fullwidth
    letters, ligatures). Text pasted from a document or a web page carries them unseen,
    and "an\u00adswer keys" would otherwise guard "an" and "swer"."""
    if rule.isascii():
        return rule
    return unicodedata.normalize("NFKC", strip_invisible(rule)[0])


def _derive(rule: str, ages: bool = False, condition: bool = False) -> Derivation:
    """`ages`: read people named by an age limit as the under-Ns; `condition`: `rule` is
    a condition read as a rule (`_condition_topics`), whose own condition is not read
    again ("unless unless unless …" would otherwise read each one twice, 2^n readings)."""
    words, rationale = read(rule, ages)
    detectors: list[str] = []
    delegated: list[str] = []
    governing: list[tuple[str, str]] = []
    words = _delegate(words, detectors, delegated, governing)
    topics = _topics(words, rationale, weak=not detectors)  # a detector guards what the rule names
    # "never SHARE passwords": sharing a password fires the rule even before one is pasted
    verbs = disclosure_verbs(rule)
    if any(verb in WORDS["solicit"] for verb in verbs):
        # "never ASK FOR a card number": the draft that asks says "SEND me your card number",
        # "TYPE your password here": the customer's act of handing it over is the request
        verbs += [verb for verb in sorted(WORDS["hand_over"]) if verb not in verbs]
    acts = [Topic((verb, head), "an act of disclosure and what a detector finds")
            for verb in verbs for head in delegated]
    # "never RESET a user's password": an act on the thing, whatever the detector finds
    acts += [Topic((verb, head), "an act on what a detector finds") for verb, head in governing
             if not lemmas(verb) & set(verbs)]
    acts += _recommended(rule, words, topics)
    found = topics + tuple(acts)
    if not found and not detectors and not ages and not condition:
        # "Don't book clients UNDER 18 without …": where the people a rule names serve only
        # to say who, their age limit is what it guards (before what its condition names)
        aged = _derive(rule, ages=True)
        if aged.topics:
            return aged
    if not found and not detectors and not condition:
        found = _condition_topics(rule)
    if _QUOTED.search(rule):
        known = {t.words for t in found} | {t.words[::-1] for t in found}
        found += tuple(t for t in _quoted(rule) if t.words not in known)
    privative = _privative(rule)
    if privative:
        found = tuple(replace(topic, privative=privative) for topic in found)
    return Derivation(topics=found, detectors=tuple(detectors), about_others=about_others(rule))


def _condition_topics(rule: str) -> tuple[Topic, ...]:
    """Where a rule names nothing to guard but in its condition ("Never take guests out
    WHEN THE MARINE FORECAST HAS A SMALL CRAFT ADVISORY": the act is a framing verb and the
    person), the condition is what a draft that breaks it mentions: its topics, as a rule
    that forbade mentioning it would have them, stand as weak ones."""
    for clause in rule_clauses(rule)[0]:
        for i, token in enumerate(clause):
            n = cut_at(clause, i) if i else 0
            rest = [t for t in clause[i + n :] if t[:1].isalnum()] if n else []
            if len(rest) >= 2:
                found = _derive("never mention " + " ".join(rest), condition=True).topics
                return tuple(replace(t, why=t.why + " (in the rule's condition, a weak topic)") for t in found)
    return ()


# a quoted stretch of a rule (not an apostrophe)
_QUOTED = re.compile(r'"([^"]{1,80})"|\u201c([^\u201d]{1,80})\u201d|(?<!\w)[\'\u2018]([^\'\u2018\u2019]{1,80})[\'\u2019](?!\w)')


def _quoted(rule: str) -> list[Topic]:
    """A word a rule quotes alone, in a clause that states the rule, is the wording it
    forbids ("Never call a diamond "flawless"", "Avoid calling the duffel "waterproof""):
    it stands alone where it is specific, as "describe it as EXCLUSIVE" does. Wording
    quoted as what to say instead is not stated. (The words of a quoted phrase paired
    with each other were measured too, and cost a false alarm a hit: README.)"""
    stated = {t for clause in rule_clauses(rule)[0] for t in clause}
    found: list[Topic] = []
    for match in _QUOTED.finditer(rule):
        said = [t for t in tokens(next(g for g in match.groups() if g is not None))
                if t[:1].isalpha() and t not in WORDS["closed"]]
        if len(said) == 1 and said[0] in stated and max(zipf(lemma) for lemma in lemmas(said[0])) < HEAD_ZIPF:
            found.append(Topic((said[0],), "a word the rule quotes"))
    return found


def _privative(rule: str) -> tuple[str, ...]:
    """The words of absence the rule uses ("paddle WITHOUT a life jacket", "allergen-FREE",
    "FREE of termites"): a rule that names an absence guards it, so the same word in a
    draft ("you can go without one while paddling", "the soup is gluten-free") is what it
    forbids. Other negations ("we can't sell it without an ID") still set a hit aside.
    A rule about WHETHER something is so ("never guess whether a topping has gluten")
    forbids either answer, so "it's gluten-free" is one of them. Measured on the held-out
    rules (README)."""
    if re.search(r"\bwhether\b", rule, re.IGNORECASE):
        return _PRIVATIVE
    return tuple(word for word in _PRIVATIVE if re.search(rf"\b{word}\b", rule, re.IGNORECASE))


# English's markers of absence that are not a clause's negation: a preposition and the
# adjective of "-free" / "free of" (the context layer's triggers of the same spelling)
_PRIVATIVE = ("without", "free")


def _recommended(rule: str, words: list[Word], topics: tuple[Topic, ...]) -> list[Topic]:
    """"Don't recommend a specific piano BRAND", "never recommend a repair SHOP": a verb of
    recommending frames its object (the object stands for the topic as after "promise"),
    and it pairs with each word of the object too, since a draft that recommends names the
    brand or the shop ("Yamaha is the brand I'd recommend") more often than the rule's
    whole phrase. Measured on the held-out rules (README): +8 hits, +2 false alarms."""
    if not any(stem in rule.lower() for stem in _RECOMMENDING):
        return []  # most rules recommend nothing: no second reading of their clauses
    found: list[Topic] = []
    have = {t.words for t in topics}
    for c, clause in enumerate(rule_clauses(rule)[0]):
        at = next((i for i, token in enumerate(clause) if token.startswith(_RECOMMENDING)), None)
        if at is None:
            continue
        verb = next(iter(lemmas(clause[at]) & {"recommend", "endorse"}), None)
        if (verb,) in have:
            continue  # "endorse" stands alone already (a rare word)
        after = set(clause[at + 1 :])
        for w in words:
            if verb and w.clause == c and w.text in after and not (w.verb or w.person or w.weak or w.parts):
                if (verb, w.text) not in have and len(found) < _MAX_RECOMMENDED:
                    found.append(Topic((verb, w.text), "an act of recommending and what it recommends"))
    return found


_RECOMMENDING = ("recommend", "endors")  # the verbs of recommending, as their forms begin
_MAX_RECOMMENDED = 8


def about_others(rule: str) -> bool:
    """Whether a rule guards other people's information or what happens to them: it says
    so ("another customer's", "whether someone …") or names a third party ("a
    resident's dose"). Other-experiencer cues then set none of its hits aside."""
    return names_others(rule) or names_third_party(rule)


def _phrases(words: list[Word]) -> dict[int, list[Word]]:
    phrases: dict[int, list[Word]] = {}
    for w in words:
        if w.np >= 0:
            phrases.setdefault(w.np, []).append(w)
    return phrases


def _delegate(words: list[Word], detectors: list[str], heads: list[str],
              governing: list[tuple[str, str]]) -> list[Word]:
    """Phrases that name what a detector finds go to that detector, not to the matcher;
    `heads` collects the last word of each ("password", "number"), and `governing` each
    verb whose object such a phrase is, with its head ("RESET a user's password")."""
    gone: set[int] = set()
    position = {id(w): i for i, w in enumerate(words)}
    for phrase in _phrases(words).values():
        for start in range(len(phrase)):
            for stop in (len(phrase),):  # the phrase's head must be the detector's topic: not "TOKEN listing"
                key = " ".join(_singular(w.text) for w in phrase[start:stop]).replace("-", " ")
                detector = DETECTOR_TOPICS.get(key)
                if detector is not None:
                    gone.update(id(w) for w in phrase[start:stop])
                    if detector not in detectors:
                        detectors.append(detector)
                    # "passwords" names the thing; "personal DETAILS" needs the whole phrase
                    last = phrase[stop - 1]
                    head = " ".join(w.text for w in phrase[start:stop]) if last.light else _units(last)[-1]
                    if head not in heads:
                        heads.append(head)
                    verb = _governor(words, position[id(phrase[start])], gone)
                    if verb is not None and (verb.text, head) not in governing:
                        governing.append((verb.text, head))
                    break
    return [w for w in words if id(w) not in gone]


def _governor(words: list[Word], at: int, gone: set[int]) -> Word | None:
    """The verb of the clause whose object the phrase starting at `words[at]` is: the
    content word right before it, past phrases already delegated ("reset a password OR
    mfa") — none where another content word stands between."""
    for w in reversed(words[:at]):
        if w.clause != words[at].clause:
            return None
        if id(w) in gone:
            continue
        return w if w.verb and not w.negated else None
    return None


def _singular(word: str) -> str:
    if "-" in word:
        return word
    forms = sorted(lemmas(word), key=len)
    return forms[0] if forms else word


def _units(word: Word) -> tuple[str, ...]:
    """The words a rule word stands for in a topic: a compound's two last content parts
    ("estate-planning", "anti-money-laundering") or, where a part is a particle, the
    phrase ("trade-in" -> "trade in")."""
    if not word.parts:
        return (word.text,)
    if len(word.parts[0]) == 1 and word.parts[0].isalpha() and any(p.isdigit() for p in word.parts):
        return (" ".join(word.parts),)  # a form's name: "W-2", "I-9" (a letter alone names nothing)
    if word.parts[0] == "non":
        return (" ".join(word.parts),)  # "non-hazardous": the claim is the whole word, never "non" alone
    content = [p for p in word.parts if p not in WORDS["closed"] and len(p) > 1]
    if len(content) == len(word.parts):
        return tuple(content[-2:])
    return (" ".join(word.parts),) if content else ()


def _specificity(word: Word) -> float:
    """How common a word is: its most common lemma ("rent" is common, whatever "rend" is;
    "terminated" is as rare as "terminate")."""
    return max(zipf(lemma) for lemma in lemmas(word.text.split()[0]))


def _coordinated(words: list[Word], phrases: dict[int, list[Word]]) -> dict[int, tuple[str, Word]]:
    """Single words of a list that share the head or modifier of the next or previous item:
    "lost OR stolen card" (lost shares card), "suicidal thoughts OR intent" (intent shares
    suicidal). A plural or a noun with a determiner is a phrase of its own ("supplements
    or herbal remedies", "a death or serious injury"). Maps the word's id to
    ("head" | "modifier", the word it shares)."""
    shared: dict[int, tuple[str, Word]] = {}
    first_phrase: dict[tuple[int, int], list[Word]] = {}
    for w in words:
        key = (w.clause, w.item)
        if key not in first_phrase and w.np >= 0 and not w.in_pp:
            first_phrase[key] = phrases[w.np]
    for (clause, item), phrase in first_phrase.items():
        alone = phrase[0]
        before = first_phrase.get((clause, item - 1), [])
        if len(phrase) == 1 and alone.light and not alone.attribute and len(before) > 1 and alone.splitter \
                and not before[0].light and not before[0].verb:
            # "unreleased products, FEATURES or launch dates": a light noun names nothing
            # alone, so it shares the modifier of the item before it
            shared[id(alone)] = ("modifier", before[0])
            continue
        if len(phrase) != 1 or alone.splitter == ",":
            continue  # in "age, religion, disability or national origin" each item is whole
        bare = alone.adjective or not (alone.determined or _plural(alone))
        if not bare or alone.acronym:  # "an interest rate or APR": a name shares no word
            continue
        after = first_phrase.get((clause, item + 1), [])
        if len(after) > 1 and after[0].splitter in ("or", "and", "nor"):
            shared[id(alone)] = ("head", after[-1])
            continue
        if len(before) > 1 and alone.splitter in ("or", "and", "nor") and not alone.adjective and not _plural(alone) \
                and not alone.text.endswith("ing"):  # "a farmer leaving … or SWITCHING": an act, no noun
            shared[id(alone)] = ("modifier", before[0])
    return shared


def _names_light_head(phrase: list[Word], phrases: dict[int, list[Word]]) -> bool:
    """Whether a phrase is the "of" phrase that names a light noun before it ("the location
    OF A LEOPARD DEN", "a level OF RESPITE CARE"): there, it is the topic, not a modifier."""
    before = phrases.get(phrase[0].np - 1)
    if not before or phrase[0].preposition not in _naming(before[-1]):
        return False
    return before[-1].light and not before[-1].in_pp and before[-1].clause == phrase[0].clause \
        and before[-1].item == phrase[0].item


# the prepositions whose phrase says whose or what a noun is: "proof OF income",
# "complaints AGAINST a driver" (a light noun pairs with it; with any preposition but
# an adjunct's, measured: no hit more, and some lost, README)
_NAMING = frozenset({"of", "against"})
# an attribute is named by what it is "for" as well ("the COSTS FOR hoist rope
# replacement"); not a noun of when, which its modifier names ("DELIVERY dates for
# custom doors": a draft about custom doors promises no date; `clauses._time_named`
# reads one with no modifier)
_NAMING_ATTRIBUTE = _NAMING | {"for"}


def _naming(head: Word) -> frozenset[str]:
    """The prepositions whose phrase names `head`."""
    return _NAMING_ATTRIBUTE if head.attribute and not _in_list("attribute_of_time", head.text) else _NAMING


def _of_phrase(head: Word, words: list[Word]) -> list[Word]:
    """The words of the "of" (or "against") phrase right after a noun, past a possessor
    ("the price OF A RIVAL'S TOUR": tour), that say whose or what it is."""
    at = words.index(head)
    following = [w for w in words[at + 1 :] if w.clause == head.clause and w.item == head.item and w.np > head.np]
    naming = _naming(head)
    if not following or not following[0].in_pp or following[0].preposition not in naming:
        return []
    np = next((w.np for w in following if not w.weak and w.preposition in naming), None)
    return [w for w in following if w.np == np and not w.weak]


def _in_list(kind: str, word: str) -> bool:
    listed = WORDS.get(kind, frozenset())
    return word in listed or any(lemma in listed for lemma in lemmas(word))


def _plural(word: Word) -> bool:
    return word.text.endswith("s") and any(lemma != word.text for lemma in lemmas(word.text))


def _singles(words: list[Word], rationale: list[str]) -> list[tuple[Word, str]]:
    """The words that stand alone as a topic, with the reason."""
    said_again = {form for token in _rationale_topics(rationale) for form in family(token)}
    phrases = _phrases(words)
    shared = _coordinated(words, phrases)
    heads = {id(p[-1]) for p in phrases.values() if len(p) > 1}
    found: list[tuple[Word, str]] = []
    for phrase in phrases.values():
        first = phrase[0]
        placed = first.subject or first.container or first.predicate or first.co_topic
        if placed or not first.example and (first.in_pp or first.governed):
            continue  # an example ("… such as LAWSUITS") stands alone wherever it is
        if first.example and first.in_pp and any(
                w.clause == first.clause and w.item == first.item and w.example and not w.in_pp and w.np < first.np
                for w in words):
            continue  # "such as the abdomen FOR ARM-ONLY SENSORS": what qualifies the example
        if first.of_addressee:
            if len(phrase) == 1 and not first.weak:
                found.append((first, "a state of the person the rule is about"))  # "is a MINOR", "is a PATIENT here"
            continue
        kept = list(phrase)
        if len(kept) > 1 and kept[-1].light and (not kept[-1].attribute or _in_list("attribute_of_time", kept[-1].text)):
            kept = kept[:-1]  # "stroke SYMPTOMS", "court ACTION", "delivery DATE"
            if len(kept) == 1 and kept[0].adjective:
                continue  # "legal ADVICE" needs both words
        elif len(kept) == 1 and id(kept[0]) in shared:
            kind, partner = shared[id(kept[0])]
            if not (kind == "head" and partner.light and not partner.attribute):
                continue  # "LOST or stolen card" needs its card; "INVESTMENT or tax advice" does not
        if len(kept) == 1 and kept[0].attribute and not kept[0].person:
            named = _of_phrase(kept[0], words)
            # "the LOCATION of a den" pairs with its den; an amount of money a draft writes
            # stands for what it is "for" ("never quote a PRICE for a repair": "$450")
            if not named or named[0].preposition == "for" and _names_money(kept[0]):
                found.append((kept[0], "the whole of a guarded phrase"))  # "never quote FEES"
            continue
        if any(w.attribute for w in kept):
            continue  # "payment DATE" needs both words
        if len(kept) == 1 and not kept[0].light and not kept[0].person:
            named = _of_phrase(kept[0], words)
            if _specificity(kept[0]) >= HEAD_ZIPF and named and not named[0].determined and not named[0].adjective \
                    and named[0].text in lemmas(named[0].text) and "NOUN" in part_of_speech(named[0].text) \
                    and not named[0].person:
                # "a LETTER of credit", "PROOF of loss": a common head named by a bare noun
                # after "of" is a compound (not "PHOTOS of kids", "the SEX of the baby")
                continue
            if _specificity(kept[0]) >= _COMMON_ZIPF and named and not any(w.person for w in named):
                continue  # "the CAUSE of a flight delay": a word this common pairs with what it is of
            found.append((kept[0], "the whole of a guarded phrase"))
            continue
        nouns = [w for w in kept if not w.verb and not w.adjective and not w.text.endswith(("ing", "ed"))]
        head = nouns[-1] if nouns else None
        # (not a frame noun: "a lawsuit THREAT", "a death THREAT" need both words)
        if head is not None and len(nouns) > 1 and head is kept[-1] and not head.light and not head.person \
                and not head.parts and not head.text.endswith("ing") and not _in_list("frame", head.text) \
                and _specificity(head) < HEAD_ZIPF:
            found.append((head, f"the head of a guarded phrase, specific (Zipf {_specificity(head):.1f})"))
    for w in words:
        if w.weak or w.person or w.co_topic:
            continue
        if _tells_an_act(w, words):
            continue  # "INSTRUCT staff to …": the person told, then what
        if w.parts:
            if id(w) not in heads:
                found.append((w, "a compound"))
        elif w.of_addressee and w.verb and not _antecedent(w, words) and not any(
                o.item == w.item and not o.light and o.preposition not in _ADJUNCT for o in _object(w, words)):
            # "they were ASSAULTED", "someone is STAYING at the hotel"; not "they have RECEIVED
            # an audit letter" or "FILED for bankruptcy", an act with its object
            found.append((w, "a state of the person the rule is about"))
        elif id(w) not in heads and (not w.adjective or "NOUN" in part_of_speech(w.text)) and not w.agent \
                and not (w.subject or w.governed and not _diagnosed(w, words) or w.in_pp) \
                and _specificity(w) < RARE_ZIPF \
                and not _antecedent(w, words):
            found.append((w, f"a rare word (Zipf {_specificity(w):.1f})"))
        elif w.predicate and not w.light and _specificity(w) < HEAD_ZIPF \
                and (subjects := _subject(w, words)) \
                and all(s.light and not (s.person or s.agent or in_list("actor", s.text)) for s in subjects):
            # "tell customers A PRODUCT has been RECALLED": what is said of a thing the rule
            # names only in general is the topic, whatever thing a draft names
            found.append((w, "what the rule says of a thing it names only in general"))
        elif said_again and not w.verb and family(w.text) & said_again:
            found.append((w, "repeated in the rule's rationale"))
        elif w.verb and not w.predicate and not any(not o.light for o in _object(w, words)) \
                and not _antecedent(w, words):
            found.append((w, "an act whose object names nothing more"))
    return found


def _diagnosed(w: Word, words: list[Word]) -> bool:
    """Whether `w` is the object of "diagnose" ("Never DIAGNOSE a concussion"): that act is
    done by naming its object ("you have a concussion"), so a rare object stands alone as
    the rare act does, where another act's object only pairs with it ("waive a FEE").
    ("identify", measured too, changed nothing: README.)"""
    verb = next((v for v in reversed(words[: words.index(w)]) if v.verb and v.clause == w.clause), None)
    return verb is not None and bool(lemmas(verb.text) & _DIAGNOSING) and w in _object(verb, words)


_DIAGNOSING = frozenset({"diagnose"})


def _rationale_topics(rationale: list[str]) -> list[str]:
    """The words of a rule's rationale that may repeat its topic: not those that name who
    decides ("LEASING managers decide", "the BILLING team") or where a case is sent
    ("refer them to a TAX professional"), nor function words."""
    found = []
    destination = False
    for i, token in enumerate(rationale):
        following = rationale[i + 1] if i + 1 < len(rationale) else ""
        if not token[0].isalpha():
            destination = False  # the phrase ends with its clause or list item
        elif token == "to" and following in _DESTINATION_DETERMINERS:
            destination = True
        role_next = bool(following) and (_is_role(following) or following in WORDS["light"])
        if token[0].isalpha() and token not in WORDS["closed"] and not role_next and not destination:
            found.append(token)
    return found


_DESTINATION_DETERMINERS = frozenset("a an the our your their his her".split())


def _is_role(token: str) -> bool:
    return any(is_person(lemma) or is_agent(lemma) for lemma in lemmas(token)) or in_list("addressee", token)


def _object(verb: Word, words: list[Word]) -> list[Word]:
    """The words a verb acts on: what follows it up to the next verb, or, for a bare verb
    in a list ("starting, stopping or changing X"), what follows the list."""
    at = words.index(verb)
    found: list[Word] = []
    for w in words[at + 1 :]:
        if w.clause != verb.clause:
            break
        if not verb.bare and w.item != verb.item and w.verb:
            break  # "ban a player OR SUSPEND an account": each act has its own object
        if w.verb:
            if found:
                break
            continue
        found.append(w)
    return found


def _antecedent(verb: Word, words: list[Word]) -> list[Word]:
    """What the pronoun a verb acts on stands for ("Late FEES apply. Never waive them",
    "The association does not run PATROLS; flag drafts that organise one"): the first noun
    phrase of the nearest clause before that names a thing, not a person, in the pronoun's
    number; for "one", the first that no determiner opens, where there is one ("THE
    association" is no patrol). A passive said of such a pronoun takes it the same way
    ("Storm DAMAGE is excluded. Never say it's covered"). [] where the verb acts on no such
    pronoun, or the rule named nothing before it of the pronoun's number."""
    if not verb.refers_back or not verb.of_addressee and any(not w.in_pp for w in _object(verb, words)):
        return []
    for clause in range(verb.clause - 1, -1, -1):
        phrases: dict[int, list[Word]] = {}
        for w in words:
            if w.clause == clause and not w.verb and not w.in_pp and not w.person:
                phrases.setdefault(w.np, []).append(w)
        named = [p for p in phrases.values() if any(not w.weak for w in p)]
        if verb.refers_back == "one":
            named = [p for p in named if not p[0].determined] or named
        elif named:  # "it" stands for one thing, "them" for many ("serve THEIR PAPERS … serve it": none)
            named = [p for p in named if _plural(p[-1]) == (verb.refers_back == "them")]
            if not named:
                return []
        if named:
            return [w for w in named[0] if not w.weak]
    return []


def _tells_an_act(verb: Word, words: list[Word]) -> bool:
    """A verb of telling whose object in its list item is only the person told ("INSTRUCT
    volunteers to pick up …", "REMIND members to renew …"): it frames what the person is
    told to do. (Not "GUARANTEE a part will fit": what is guaranteed is the claim.)"""
    if not (verb.verb and _in_list("tell", verb.text)):
        return False
    told = [w for w in _object(verb, words) if w.item == verb.item]
    return bool(told) and all(w.light and w.person for w in told)


def _subject(verb: Word, words: list[Word]) -> list[Word]:
    """The subject of a predicate: the last subject noun phrase before it in its clause,
    with those joined to it by "or" or "and" ("a REVIEW or SUSPENSION will be dropped")."""
    before = [w for w in words[: words.index(verb)] if w.clause == verb.clause and w.subject]
    if not before:
        return []
    found = [w for w in before if w.np == before[-1].np]
    while found[0].splitter in ("or", "and") and not found[0].fact:
        # "a REVIEW or suspension will be dropped": subjects joined in the items before
        joined = [w for w in before if w.item == found[0].item - 1]
        if not joined:
            break
        found = [*(w for w in joined if w.np == joined[-1].np), *found]
    return found


def _pairs(words: list[Word]) -> list[tuple[Word, Word, str]]:
    """Pairs of words that English binds together in the rule (see the module docstring)."""
    phrases = _phrases(words)
    pairs: list[tuple[Word, Word, str]] = []
    for phrase in phrases.values():
        if phrase[0].in_pp and len(phrases) > 1 and not _names_light_head(phrase, phrases):
            continue  # "a user WITH A MENTAL HEALTH condition": a modifier is no topic alone
        strong = any(not w.weak for w in phrase)
        head = phrase[-1]
        for a, b in combinations(phrase, 2):
            if head.light or b is head:  # "security deposit DEDUCTIONS": pairs with the head
                if not (a.weak and b.weak) or not strong:
                    pairs.append((a, b, "words of one phrase"))
            elif len(phrase) > 2 and phrase.index(b) == phrase.index(a) + 1 and not (a.weak or b.weak) \
                    and not (a.adjective or b.adjective or head.adjective or a.verb or b.verb):
                pairs.append((a, b, "a compound noun inside a phrase"))  # "FLOOD ZONE determinations"
    for verb in (w for w in words if w.verb and not _tells_an_act(w, words)):
        objects: dict[int, list[Word]] = {}
        for w in _object(verb, words):
            objects.setdefault(w.np, []).append(w)
        for target in objects.values():  # "trigger an account HOLD"; "add repairs or CHARGES"
            for w in [t for t in target if not t.weak] or target:
                pairs.append((verb, w, "an act and its object"))
        for w in _antecedent(verb, words):  # "Late fees apply. Never WAIVE them"; "… never say it's COVERED"
            pairs.append((verb, w, "what the rule says of what its pronoun stands for" if verb.of_addressee
                          else "an act and what its pronoun stands for"))
    for w in words:  # "their claim IS APPROVED", "two drugs ARE SAFE to take TOGETHER"
        if w.predicate:
            for subject in _subject(w, words):
                if not (subject.person and subject.light):  # "tell FAMILIES that students can go out": who is told
                    pairs.append((subject, w, "what the rule says of a subject"))
            for other in words:
                if other.predicate and other is not w and other.item == w.item and other.clause == w.clause \
                        and words.index(other) > words.index(w):
                    pairs.append((w, other, "what the rule says of a subject"))
    for phrase in phrases.values():  # "a refund FOR A FARE": a noun and what qualifies it
        head = phrase[-1]
        if head.in_pp:
            continue
        later = [w for w in words if w.clause == head.clause and w.item == head.item and w.in_pp
                 and w.np > head.np and not w.weak]
        if head.light and not head.container:
            # "a LEVEL OF CARE", "PROOF OF income": a light noun is named by its "of" phrase
            later = _of_phrase(head, words)
        for w in later:
            pairs.append((head, w, "a noun and the phrase that qualifies it"))
    for phrase in phrases.values():  # "any CANCELLATIONS of group bookings": a container and its topic
        head = phrase[-1]
        if not head.container:
            continue
        following = [w for w in words if w.clause == head.clause and w.item == head.item and w.np > head.np
                     and not w.verb and not w.weak]
        for w in following[:3]:
            pairs.append((head, w, "a container and what it holds"))
    for w_id, (kind, partner) in _coordinated(words, phrases).items():
        alone = next(w for w in words if id(w) == w_id)
        pairs.append((alone, partner, f"a list item and the {kind} it shares"))
    for w in words:
        if w.co_topic:
            for other in words:
                if other.clause == w.clause and other.item < w.item and not other.verb and not other.weak:
                    pairs.append((other, w, "topics joined by 'and'"))
    return pairs


# Where a rule names no noun to guard, in this order: a gerund its verb of saying governs,
# read as a verb for want of an object ("Never quote PRICING"); then what it says of
# someone, where the only noun is the person told ("tell an employer whether their
# employee was SEEN here"); then a person no one is told anything ("never promise a
# specific THERAPIST")
_LAST_RESORTS: tuple[tuple[Callable[[Word], bool], str], ...] = (
    (lambda w: w.verb and w.bare and w.text.endswith("ing") and not w.person,
     "the only word the rule names (a weak topic)"),
    (lambda w: w.predicate and not w.light and not w.in_pp, "what the rule says of someone (a weak topic)"),
    # "never promise a specific THERAPIST": a person is what the act gives, not who is told
    (lambda w: w.person and not w.light and not w.verb and not w.predicate and not w.of_addressee,
     "the only noun the rule names, a person (a weak topic)"),
)


def _topics(words: list[Word], rationale: list[str], weak: bool = True) -> tuple[Topic, ...]:
    """The rule's topics; with `weak`, its only noun where nothing else stands (none
    where a built-in detector guards what the rule names: "collect SSNs over CHAT")."""
    topics: dict[tuple[str, ...], tuple[str, bool, tuple[str, ...]]] = {}
    background = _background(words)

    def add(units: tuple[str, ...], why: str, *of: Word) -> None:
        if any(id(w) in background for w in of):
            return
        units = tuple(dict.fromkeys(u for u in units if u))
        if units and units not in topics and units[::-1] not in topics and len(topics) < _MAX_TOPICS:
            money = tuple(w.text for w in of if w.text in units and _names_money(w))
            topics[units] = why, any(w.negated for w in of), money

    alone: set[str] = set()
    for w, why in _singles(words, rationale):
        units = _units(w)
        add(units, why, w)
        if len(units) == 1:
            alone.add(units[0])
    for a, b, why in _pairs(words):
        ua, ub = _units(a), _units(b)
        if not ua or not ub or a is b or alone & {ua[0], ub[0]}:
            continue
        if family(ua[0].split()[0]) & family(ub[0].split()[0]):
            continue
        add((ua[0], ub[0]), why, a, b)
    for w in words:  # a compound whose parts are words: both parts together
        units = _units(w)
        if len(units) == 2:
            add(units, "a compound", w)
    for w in words:  # "fee WAIVERS" is waiving fees: the act an -er noun names, with the noun before it
        if w.agent and not w.verb and not w.parts:
            verb = _agent_verb(w.text)
            if verb:
                for other in words:
                    if other.np == w.np and other is not w and other.clause == w.clause \
                            and (not other.weak or other.attribute) and not other.adjective \
                            and words.index(other) < words.index(w):
                        add((verb, other.text), "the act an -er noun names, with its object", other)
    for units, (why, _, _) in list(topics.items()):  # "bed bugs" is also written "bedbugs"
        if why in ("words of one phrase", "a compound") and len(units) == 2 and " " not in units[0] + units[1]:
            closed = units[0] + units[1]
            if part_of_speech(closed) & {"NOUN", "ADJ"} and zipf(closed) >= _CLOSED_ZIPF:
                add((closed,), "the phrase written as one word")
    # a word the rule hyphenates is the same word closed up ("scratch-proof": scratchproof),
    # where that is no other word ("re-sign": not resign)
    for w in words:
        units = _units(w)
        if len(units) == 2 and (units in topics or units[::-1] in topics) and " " not in units[0] + units[1] \
                and not part_of_speech(closed := units[0] + units[1]):
            add((closed,), "the phrase written as one word")
    if not topics and weak:  # "discuss another client's MATTER": a weak topic guards more than none
        nouns = [w for w in words if not w.verb and not w.person and not w.attribute]
        # a light noun only where nothing else is named ("WAYS around the license CHECK"),
        # but before whom a thing goes to ("share a patient's RESULTS with a partner")
        given = [w for w in nouns if not (w.in_pp and w.preposition in _TO_WHOM)] or nouns
        named = [w for w in given if not w.light] or given
        phrases: dict[int, list[Word]] = {}
        for w in [w for w in named if not w.in_pp] or named:
            phrases.setdefault(w.np, []).append(w)
        for phrase in phrases.values():  # "the LICENSE CHECK": the phrase, not each word
            add(tuple(u for w in phrase[-2:] for u in _units(w)), "the only noun the rule names (a weak topic)",
                *phrase)
    for fallback, why in _LAST_RESORTS:
        if topics or not weak:
            break
        for w in words:
            if fallback(w):
                add(_units(w), why, w)
    return tuple(Topic(units, why, negative, money) for units, (why, negative, money) in topics.items())


# the preposition of the one a thing is shared with ("… WITH a partner"); not "to",
# which as often names where it goes ("send an account TO COLLECTIONS")
_TO_WHOM = frozenset({"with"})


def _background(words: list[Word]) -> set[int]:
    """The words of a first sentence that says what is so, when a later one's pronoun stands
    for its subject ("Early termination fees ARE SET IN THE CONTRACT. Never waive ONE"): the
    pronoun takes the subject into the rule, and the rest says what the agent may say."""
    taken = {w.np for verb in words if verb.clause > 0 for w in _antecedent(verb, words) if w.fact}
    return {id(w) for w in words if w.fact and w.np not in taken} if taken else set()


def _agent_verb(noun: str) -> str | None:
    """The verb an -er noun is made from ("waiver" -> waive, "reminder" -> remind), or None.

    The derivation table leaves -er out (a seller is no sale), so such a noun alone keeps
    its own family; only with the noun before it in its phrase ("fee WAIVER", "payment
    REMINDER") does it also stand for the act on that noun: "your fee is waived". A person
    made that way pairs harmlessly ("day TRADER": trade + day). A noun that is a verb
    itself names its own act ("passport NUMBER" is not numbing, nor a TOWER towing).
    Measured on the held-out rules (README): +20 hits, +1 false alarm."""
    if "VERB" in part_of_speech(noun):
        return None
    for lemma in lemmas(noun):
        base = agent_base(lemma, ("er",))
        if base is not None and "VERB" in part_of_speech(base):
            return base
    return None


def _names_money(word: Word) -> bool:
    """A noun that names an amount of money ("a firm PRICE", "the service FEES"), not a
    verb of the same spelling ("CHARGE the card", "RENT a car")."""
    return not word.verb and not word.adjective and not word.parts and _in_list("money", word.text)
