"""From a red line written in plain words to the topics it guards.

A topic is one word or two words that must stand together in one sentence of a draft,
each matched by its whole word family (`lexicon.family`: lemma, inflections, one step of
derivation), in any order. "Never promise a refund" guards `refund`; "Never waive early
termination fees" guards `waive + fee`, `termination + fee`, `early + termination`…, so
"the early termination fee on your line has been waived" holds and "your monthly fee is
due" does not.

Derivation is recall-first (on a red line a silent miss is far worse than a false alarm)
and reads the rule the way English is built, with no model to download:
1. The first clause states the rule; what follows ";" or "." is its rationale.
2. Directives ("never", "do not") and a routing verb ("escalate", "hand off … to a
   human") are dropped; so are conditions and exceptions ("without approval", "unless
   …", "during a change freeze") and the destination of a hand-off ("to a clinician").
3. The rest splits into list items; each word is classified: function words, verbs of
   saying, giving and doing-in-general ("promise", "tell", "give": their OBJECT is the
   topic), the addressee ("customer", "claimant": named, not guarded), light nouns that
   name a kind of talk or container ("symptoms", "advice", "questions about"), digits.
4. Content words become topics:
   - a word stands alone when it is the whole of a guarded phrase ("promise a REFUND",
     "signs of ARSON", "applicants who are HOMELESS"), when it is rare in English (its
     Zipf frequency, from wordfreq, below `RARE_ZIPF`: "subrogation", "cryptocurrency"),
     when the rule repeats it in its rationale ("… dose; only the prescriber can adjust
     DOSING"), or when it is an act whose object names nothing more ("WITHDRAW more than
     $50,000", "DIAGNOSE a condition");
   - every other content word pairs with the others of its clause: an act with each
     word of its object ("waive + fee"), the words of one phrase with each other
     ("stolen + card", "risk + profile"), a quoted clause's subject with what is said of
     it ("claim + approved"). Two verbs never pair, nor two light or container words.
5. A phrase that names what a built-in detector finds ("passwords", "personal details")
   is delegated to that detector instead (see `DETECTOR_TOPICS`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from redline.policy.lexicon import family, lemmas, part_of_speech, zipf
from redline.policy.words import DETECTOR_TOPICS, WORDS, phrase_at

__all__ = ["Derivation", "HEAD_ZIPF", "RARE_ZIPF", "Topic", "derive_topics"]

# A word rarer than this in English (Zipf frequency: log10 of uses per billion words) is
# specific enough to stand alone: "arson" 3.4, "liquidate" 2.8, "hotline" 3.4; "fund"
# 4.8, "account" 5.2 and "death" 5.4 are not, and stand alone only by their place in the
# rule. Measured on the held-out rules (README).
RARE_ZIPF = 3.75
# The head of a guarded noun-noun phrase stands alone when it is at least this specific:
# "network COVERAGE" (4.6), "prescription DOSE" (4.2), but not "bill CREDITS" (5.0).
HEAD_ZIPF = 4.7
_MAX_PAIRS = 48  # a rule is a sentence or two; beyond this it is a paragraph of policy
_TOKEN = re.compile(
    r"e\.g\.|i\.e\.|\$?\d[\d,.]*\d%?|\$?\d%?"
    r"|[a-z]+(?:'[a-z]+)?(?:-[a-z0-9]+(?:'[a-z]+)?)*"
    r"|[,;:.!?()/&]"
)
_CLAUSE_END = frozenset(";.!?:")
_ITEM_MARKS = frozenset(",()/&")
_CONTAINER_DETS = frozenset({"any", "all", "every", "each"})
_RELATIVE = frozenset({"who", "that", "which", "whose", "whom"})
_FRAME_PREPOSITIONS = frozenset({"of", "about", "on", "regarding", "concerning", "involving", "around", "for", "to"})
_NEGATIVE_PREFIXES = ("non-", "non", "un-")


@dataclass(frozen=True, slots=True)
class Topic:
    """One or two words that must stand together in a sentence (each by its family)."""

    words: tuple[str, ...]
    why: str

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
    notes: tuple[str, ...] = ()


@dataclass(slots=True)
class _Word:
    text: str
    item: int
    verb: bool = False
    adjective: bool = False
    light: bool = False  # a light noun or adjective, an adverb
    container: bool = False  # "any CLAIM showing signs of …"
    in_pp: bool = False  # after a preposition: it modifies what came before
    subject: bool = False  # of a clause the rule quotes ("THEIR CLAIM is approved")
    predicate: bool = False  # what such a clause says of it ("their claim IS APPROVED")
    of_addressee: bool = False  # a state of the person served ("users who are MINORS")
    co_topic: bool = False  # "pregnancy or breastfeeding AND MEDICATIONS": with the others
    governed: bool = False  # the object of an act ("waive FEES"), not of a framing verb
    person: bool = False  # a role ("adjuster", "pharmacist"), not a topic
    attribute: bool = False  # "payment DATE": an attribute of the topic
    np: int = -1
    parts: tuple[str, ...] = field(default_factory=tuple)

    @property
    def weak(self) -> bool:
        return self.light or self.container


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower().replace("\u2019", "'").replace("\u2018", "'"))


def _in(kind: str, word: str) -> bool:
    """`word` or one of its lemmas is in list `kind` ("telling" is a framing verb)."""
    listed = WORDS.get(kind, frozenset())
    return word in listed or any(lemma in listed for lemma in lemmas(word))


def _phrase(tokens: list[str], i: int, kind: str) -> int:
    """Like `phrase_at`, with the first word of the phrase matched by its lemmas too."""
    n = phrase_at(tokens, i, kind)
    if n or i >= len(tokens):
        return n
    for lemma in lemmas(tokens[i]):
        n = phrase_at([lemma, *tokens[i + 1 : i + 4]], 0, kind)
        if n:
            return n
    return 0


def _is_digit(token: str) -> bool:
    return token[0].isdigit() or token[0] == "$"


def _possessive(token: str) -> str | None:
    return token[:-2] if token.endswith("'s") and len(token) > 3 else None


@lru_cache(maxsize=4096)
def derive_topics(rule: str) -> Derivation:
    """The topics a red line or boundary written in words guards (cached per text)."""
    tokens = _tokens(rule)
    end = next((i for i, t in enumerate(tokens) if t in _CLAUSE_END), len(tokens))
    main, rationale = tokens[:end], tokens[end + 1 :]
    about_others = any(phrase_at(main, i, "others") for i in range(len(main)))
    imperative = False
    while main and (n := phrase_at(main, 0, "directive")):
        # "Never GIVE …" opens with a verb; "No SEATS booked …" with a noun phrase
        main, imperative = main[n:], main[0] != "no"
    escalating = False
    if main and (n := _phrase(main, 0, "escalate")):
        escalating, imperative, main = True, False, main[n:]
    main = _cut(main, escalating)
    words, detectors = _classify(_items(main), imperative, escalating)
    topics = _topics(words, rationale)
    return Derivation(topics=topics, detectors=detectors, about_others=about_others)


def _cut(tokens: list[str], escalating: bool) -> list[str]:
    """Drop conditions, exceptions and (after a routing verb) the destination."""
    for i in range(len(tokens)):
        if i and phrase_at(tokens, i, "cut"):
            after_split = tokens[i - 1] in (",", "or", "and")
            if after_split and tokens[i] in ("without", "no"):
                continue  # "homeless, facing eviction or without food": an item of the list
            return tokens[:i]
        if escalating and i and tokens[i] == "to" and i + 1 < len(tokens):
            following = tokens[i + 1]
            if following in WORDS["closed"] or _in("addressee", following) or following in ("human", "humans"):
                return tokens[:i]  # "… to a human adjuster", "… to the on-call counselor"
    return tokens


def _items(tokens: list[str]) -> list[tuple[str, list[str]]]:
    """The list items of a clause, each with the word that introduced it."""
    items: list[tuple[str, list[str]]] = [("", [])]
    i = 0
    while i < len(tokens):
        n = phrase_at(tokens, i, "split")
        if n or tokens[i] in _ITEM_MARKS:
            if items[-1][1]:
                items.append((" ".join(tokens[i : i + (n or 1)]), []))
            i += n or 1
            continue
        items[-1][1].append(tokens[i])
        i += 1
    return [item for item in items if item[1]]


_NUMBERS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty "
    "fifty hundred thousand million billion once twice half dozen".split()
)
_PERSON_SUFFIXES = ("er", "or", "ist", "ian", "ant", "ent")
_PRONOUNS = frozenset("something anything everything nothing someone anyone everyone one".split())
_OBJECT_OPENERS = frozenset("a an the your their his her its our my any every this that these those".split())


def _role(item: list[str], i: int) -> tuple[str, int]:
    """What the token at item[i] is, and how many tokens that role spans."""
    token = item[i]
    if i == 0 and token in ("without", "no") and len(item) > 1:
        return "content", 1  # "homeless, facing eviction or WITHOUT food": part of the topic
    if _is_digit(token) or token in _NUMBERS or token.startswith("non-"):
        return "skip", 1  # amounts, and negative compounds ("non-refundable" names no topic)
    owner = _possessive(token)
    if owner is not None and (_in("addressee", owner) or owner in WORDS["closed"]):
        return "skip", 1  # "a client's behalf": whose, not what
    if token in _CONTAINER_DETS:
        return "any", 1
    if token in _RELATIVE:
        return "relative", 1
    if token in WORDS["aux"]:
        return "aux", 1
    if token in WORDS["preposition"]:
        return "preposition", 1
    if token in WORDS["closed"] or token in WORDS["light_adj"]:
        return "skip", 1  # "specific stocks" guards stocks
    if n := phrase_at(item, i, "addressee"):
        return "addressee", n
    if _in("addressee", token):
        return "addressee", 1
    if n := _phrase(item, i, "framing"):
        previous = item[i - 1] if i else ""
        # "a delivery DATE", "a return GUARANTEE": inside a noun phrase it is a noun
        inside_phrase = bool(previous) and previous not in WORDS["closed"] and _role(item, i - 1)[0] == "content"
        if not (inside_phrase and "NOUN" in part_of_speech(token) and not token.endswith(("ing", "ed"))):
            return "framing", n
    return "content", 1


def _is_person(token: str) -> bool:
    """A role noun made with an agent suffix: adjuster (adjust), pharmacist (pharmacy)."""
    for suffix in _PERSON_SUFFIXES:
        stem = token[: -len(suffix)]
        if token.endswith(suffix) and len(stem) >= 4 and (
            part_of_speech(stem) or part_of_speech(stem + "e") or part_of_speech(stem + "y")
        ):
            return "NOUN" in part_of_speech(token)
    return False


def _word(token: str, item: list[str], i: int, verb_place: bool) -> _Word:
    """A content word, told verb or not by the dictionary and its place in the rule."""
    parts = tuple(p for p in token.split("-") if p) if "-" in token else ()
    if parts:  # a compound is a noun or a modifier: "estate-planning", "trade-in"
        return _Word(text=token, item=0, parts=parts)
    pos = part_of_speech(token)
    light = _in("light", token) or _in("attribute", token) or pos == {"ADV"}
    word = _Word(text=token, item=0, adjective="ADJ" in pos, light=light)
    word.attribute = _in("attribute", token)
    if "VERB" not in pos:
        return word
    previous = item[i - 1] if i else ""
    following = item[i + 1] if i + 1 < len(item) else ""
    participle = token.endswith(("ing", "ed", "en")) and token not in lemmas(token)
    if previous in _OBJECT_OPENERS and not participle:
        return word  # "a DEPLOY to production", "the FIX": after a determiner, a noun
        # "STAGED accidents", "CONTROLLED substances": a participle before a noun modifies it
        modifier = bool(following) and _role(item, i + 1)[0] == "content" and "NOUN" in part_of_speech(following)
        # "margin TRADING": a gerund after a noun ends the noun phrase
        gerund = token.endswith("ing") and bool(previous) and _role(item, i - 1)[0] == "content" \
            and "VERB" not in part_of_speech(previous)
        word.verb = not (modifier or gerund)
    elif not pos & {"NOUN", "ADJ"}:
        word.verb = True
    elif following in _OBJECT_OPENERS and previous not in WORDS["closed"]:
        word.verb = True  # "… or RECORD an applicant's status": a determiner opens its object
    elif previous in WORDS["closed"] and previous not in WORDS["aux"] and previous != "to":
        word.verb = False  # after "a", "the", "your": a noun
    else:
        word.verb = verb_place or previous == "to"
    word.adjective = word.adjective and not word.verb
    return word


@dataclass(slots=True)
class _Clause:
    """What reading a rule's clause has established so far, across its list items."""

    verb_place: bool  # the next ambiguous word is a verb ("Never GIVE", "… or LIQUIDATE")
    acts: bool = False  # an act governs the next noun phrase ("waive FEES")
    predicating: bool = False  # after "is", "will be": what is said of a subject
    of_addressee: bool = False  # … and that subject is the person served
    seen_or: bool = False


def _classify(items: list[tuple[str, list[str]]], imperative: bool, escalating: bool) -> tuple[list[_Word], tuple[str, ...]]:
    """The content words of a rule's clause, each with its place in the sentence."""
    words: list[_Word] = []
    np_count = 0
    clause = _Clause(verb_place=imperative)
    for index, (splitter, raw) in enumerate(items):
        item = _after_frame(raw)
        if len(item) < len(raw):
            clause.verb_place = clause.acts = False  # "advice about APPEALS": a noun phrase
        co_topic = splitter == "and" and clause.seen_or
        clause.seen_or = clause.seen_or or splitter == "or"
        phrase: list[_Word] = []
        seen_content = in_pp = False
        container_pending = escalating and index == 0

        def close(container: bool = False) -> None:
            nonlocal phrase, np_count, seen_content
            for w in phrase:
                w.np = np_count
                w.container = w.container or container
            if container:
                seen_content = False  # what follows a container is the topic, not a modifier
            np_count += bool(phrase)
            phrase = []

        i = 0
        while i < len(item):
            role, n = _role(item, i)
            if role == "content":
                w = _word(item[i], item, i, clause.verb_place or clause.predicating and not phrase)
                w.item, w.co_topic, w.in_pp = index, co_topic, in_pp
                w.predicate = clause.predicating and not clause.of_addressee
                w.of_addressee = clause.predicating and clause.of_addressee
                w.person = not w.verb and _is_person(w.text)
                if w.verb:
                    close(container_pending and bool(phrase))
                    container_pending = in_pp = False
                    if not clause.predicating:
                        clause.acts = True
                else:
                    w.governed = clause.acts
                    phrase.append(w)
                words.append(w)
                seen_content, clause.verb_place = True, False
                i += n
                continue
            follows = role in ("preposition", "relative", "aux")
            close(container_pending and follows and bool(phrase))
            if role == "aux":
                subject = [w for w in words if w.np == np_count - 1 and w.item == index]
                for w in subject:
                    w.subject = True
                if subject:
                    clause.of_addressee = False  # "their CLAIM is approved"
                elif not seen_content and not clause.predicating:
                    clause.of_addressee = True  # "applicants who ARE homeless", "they are eligible"
                clause.predicating, clause.acts = True, False
            elif role in ("relative", "addressee"):
                clause.of_addressee = clause.of_addressee or not seen_content
                clause.verb_place = True  # "… that a customer BUY or sell", "who THREATENS"
                clause.predicating = False
            elif role == "framing":
                clause.verb_place = clause.acts = False
            elif role == "preposition":
                previous = item[i - 1] if i else ""
                # "something ON THE ROADMAP": what a pronoun stands for is the content;
                # "caused BY a cyberattack": a passive's agent is an argument, not a modifier
                after_pronoun = previous in _PRONOUNS
                agent = item[i] == "by" and bool(words) and words[-1].verb and words[-1].item == index
                in_pp = seen_content and not after_pronoun and not agent
            if role == "any":
                container_pending = True
            elif role in ("preposition", "relative", "aux", "framing", "addressee"):
                container_pending = False
            i += n
        close()
        # "starting, stopping OR CHANGING …": a list of bare verbs goes on with a verb
        clause.verb_place = bool(words) and words[-1].verb and words[-1].item == index
    detectors: list[str] = []
    words = _delegate(words, detectors)
    return words, tuple(detectors)


def _after_frame(item: list[str]) -> list[str]:
    """'any mention of self-harm' -> 'self-harm': a light noun and its preposition frame
    the topic that follows them."""
    for i in range(len(item) - 2, -1, -1):
        if item[i + 1] in _FRAME_PREPOSITIONS and _in("light", item[i]):
            if item[i + 1] in ("for", "to", "on") and item[i + 2] in WORDS["closed"]:
                continue  # "questions for the team", "advice on the phone"
            return item[i + 2 :]
    return item


def _delegate(words: list[_Word], detectors: list[str]) -> list[_Word]:
    """Phrases that name what a detector finds go to that detector, not to the matcher."""
    by_np: dict[int, list[_Word]] = {}
    for w in words:
        if w.np >= 0:
            by_np.setdefault(w.np, []).append(w)
    gone: set[int] = set()
    for phrase in by_np.values():
        for start in range(len(phrase)):
            for stop in range(len(phrase), start, -1):
                key = " ".join(_singular(w.text) for w in phrase[start:stop]).replace("-", " ")
                detector = DETECTOR_TOPICS.get(key)
                if detector is not None:
                    gone.update(id(w) for w in phrase[start:stop])
                    if detector not in detectors:
                        detectors.append(detector)
                    break
    return [w for w in words if id(w) not in gone]


def _singular(word: str) -> str:
    if "-" in word:
        return word
    forms = sorted(lemmas(word), key=len)
    return forms[0] if forms else word


def _units(word: _Word) -> tuple[str, ...]:
    """The words a rule word stands for in a topic: a compound's parts ("estate-planning")
    or, where a part is a particle, the phrase ("trade-in" -> "trade in")."""
    if not word.parts:
        return (word.text,)
    content = [p for p in word.parts if p not in WORDS["closed"] and len(p) > 1]
    if len(content) == len(word.parts):
        return tuple(content)
    return (" ".join(word.parts),) if content else ()


def _specificity(word: _Word) -> float:
    return min(zipf(lemma) for lemma in lemmas(word.text))


def _object_of(verb: _Word, words: list[_Word]) -> list[_Word]:
    """The words of a verb's object: the noun phrase after it in its item, or, for a bare
    verb in a list ("starting, stopping or changing X"), the one after the list."""
    at = words.index(verb)
    own = [w for w in words[at + 1 :] if w.item == verb.item]
    candidates = own if own or verb.np >= 0 else words[at + 1 :]
    found: list[_Word] = []
    for w in candidates:
        if w.verb:
            if found:
                break
            continue
        if w.in_pp:
            break
        found.append(w)
    return found


def _singles(words: list[_Word], rationale: list[str]) -> list[tuple[_Word, str]]:
    """The words that stand alone as a topic, with the reason."""
    said_again = {form for token in rationale if token[0].isalpha() for form in family(token)}
    phrases: dict[int, list[_Word]] = {}
    for w in words:
        if w.np >= 0:
            phrases.setdefault(w.np, []).append(w)
    heads = {id(p[-1]) for p in phrases.values() if len(p) > 1}
    found: list[tuple[_Word, str]] = []
    for phrase in phrases.values():
        first = phrase[0]
        if first.in_pp or first.subject or first.container or first.predicate or first.co_topic or first.governed:
            continue
        if first.of_addressee:
            if len(phrase) == 1 and not first.weak and not first.person:
                found.append((first, "a state of the person the rule is about"))
            continue
        kept = list(phrase)
        if len(kept) > 1 and kept[-1].light and not kept[-1].attribute:
            kept = kept[:-1]  # "stroke SYMPTOMS", "court ACTION"
            if len(kept) == 1 and kept[0].adjective:
                continue  # "legal ADVICE" needs both words
        if any(w.attribute for w in kept):
            continue  # "payment DATE" needs both words
        if len(kept) == 1 and not kept[0].light and not kept[0].person:
            found.append((kept[0], "the whole of a guarded phrase"))

        elif len(kept) > 1 and not any(w.adjective or w.verb for w in kept) and not kept[-1].light \
                and not kept[-1].person and not kept[-1].parts and not kept[-1].text.endswith("ing") \
                and _specificity(kept[-1]) < HEAD_ZIPF:
            found.append((kept[-1], f"the head of a guarded phrase, specific (Zipf {_specificity(kept[-1]):.1f})"))
    for w in words:
        if w.weak or w.person or w.co_topic:
            continue
        if w.parts:
            if w.np < 0 or len(phrases.get(w.np, ())) == 1 or id(w) not in heads:
                found.append((w, "a compound"))
        elif id(w) not in heads and not (w.subject or w.governed or w.in_pp) and _specificity(w) < RARE_ZIPF:
            found.append((w, f"a rare word (Zipf {_specificity(w):.1f})"))
        elif said_again and not w.verb and family(w.text) & said_again:
            found.append((w, "repeated in the rule's rationale"))
        elif w.of_addressee and w.verb:
            found.append((w, "a state of the person the rule is about"))
        elif w.verb and not w.predicate and not any(not o.light for o in _object_of(w, words)):
            found.append((w, "an act whose object names nothing more"))
    return found


def _topics(words: list[_Word], rationale: list[str]) -> tuple[Topic, ...]:
    topics: dict[tuple[str, ...], str] = {}

    def add(units: tuple[str, ...], why: str) -> None:
        units = tuple(dict.fromkeys(u for u in units if u))
        if units and units not in topics and units[::-1] not in topics:
            topics[units] = why

    alone: set[str] = set()
    for w, why in _singles(words, rationale):
        units = _units(w)
        add(units, why)
        if len(units) == 1:
            alone.add(units[0])
    pairs = 0
    for a, b in combinations(words, 2):
        if pairs >= _MAX_PAIRS:
            break
        if (a.verb and b.verb) or (a.weak and b.weak):
            continue
        if not (a.verb or b.verb or a.co_topic or b.co_topic) and abs(a.item - b.item) > 1:
            continue
        if a.in_pp and b.in_pp and a.item == b.item:
            continue  # "… a user WITH A MENTAL HEALTH condition": a modifier is no topic alone
        ua, ub = _units(a), _units(b)
        if not ua or not ub or alone & {ua[0], ub[0]} or family(ua[0]) & family(ub[0]):
            continue
        add((ua[0], ub[0]), "words of the rule that stand together")
        pairs += 1
    for w in words:  # a compound whose parts are words: both parts together
        units = _units(w)
        if len(units) == 2:
            add(units, "a compound")
    return tuple(Topic(units, why) for units, why in topics.items())
