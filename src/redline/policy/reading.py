"""Reading a red line: which of its words carry the topic, and what each does in the sentence.

Rules are short imperative sentences, so a shallow reading is enough and needs no model:
the words of a clause are classified by the word lists of `data/rule_words.txt` (closed
classes of English and the roles words play in a rule) and by the dictionary
(`lexicon.part_of_speech`), and each content word gets its place: in which list item and
noun phrase it stands, whether it is a verb, the object of an act, in a prepositional
phrase, the subject of a clause the rule quotes, a state of the person served. The
topics are built from that reading in `policy.topics`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from redline.policy.clauses import (
    CONTAINER_DETS, LOCATING as _LOCATING, MODALS as _MODALS, OBJECT_OPENERS as _OBJECT_OPENERS, POSITIVE_DIRECTIVES,
    after_frame,
    SECRET, bound_party, cut, fact_verb, in_list, items, participle as _participle, phrase, rule_clauses,
)
from redline.policy.dictionary import forms as table_forms, readings
from redline.policy.lexicon import PERSON_SUFFIXES, agent_base, is_agent, is_person, lemmas, part_of_speech, zipf
from redline.policy.words import WORDS, phrase_at

__all__ = ["HEAD_ZIPF", "NOUN_PARTICLES", "Word", "names_third_party", "read"]

_RELATIVE = frozenset({"who", "that", "which", "whose", "whom"})
# after the directive, a negation inside the rule belongs to what the rule forbids saying:
# "never say an investment CAN'T lose money", "never tell a borrower they DON'T need …"
_NEGATORS = frozenset(
    "not never no can't cannot won't don't doesn't didn't isn't aren't wasn't weren't "
    "shouldn't wouldn't couldn't hasn't haven't hadn't needn't without".split()
)
# after the person, these open what the rule is about ("travelers WITH disabilities",
# "advise travelers ON visa requirements"); others modify the person ("a client OF the firm")
_TOPIC_PREPOSITIONS = frozenset({"with", "without", "on", "about", "regarding", "concerning"})
_WH = frozenset({"how", "why", "what", "which", "when", "where", "whether"})
_MESSAGES = frozenset({"draft", "drafts", "reply", "replies", "response", "responses", "message", "messages"})
# verbs of telling that only inform: their first object is whoever is told ("advise
# ATHLETES on …"), where "offer DISCOUNTS on …" or "give ADVICE on …" name a thing
_INFORMING = frozenset({"tell", "advise", "inform", "remind", "warn", "reassure", "notify", "teach", "instruct",
                        "counsel", "educate", "brief", "coach", "update", "question", "quiz"})
_DRAFT_OPENERS = frozenset({"that", "which", "where", "saying", "telling", "with", "in", "promising", "offering", "about",
                            "mentioning"})
# The head of a guarded noun-noun phrase stands alone when it is at least this specific:
# "network COVERAGE" (4.6), "prescription DOSE" (4.2), but not "bill CREDITS" (5.0); a
# word that describes the person acted on names their state by the same bar ("PREGNANT
# guests"; not "EXISTING", "NEW" customers).
HEAD_ZIPF = 4.7
_EXAMPLE_SPLITS = frozenset({"such as", "including", "like", "e.g.", "eg", "i.e.", "ie", "for example", "for instance"})
_MIN_JOINED_ZIPF = 1.5  # "failover" is written (2.0); "workoff" is not
_PARTICLES = frozenset({"off", "out", "up", "down", "over", "back", "away"})
# the particles of nouns made from phrasal verbs ("a check-in", "a sign-up", "an add-on")
NOUN_PARTICLES = _PARTICLES | {"in", "on", "by"}
_NUMBERS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty "
    "fifty hundred thousand million billion once twice half dozen".split()
)
_ROLE_ENDING = re.compile(rf"[a-z](?:{'|'.join(PERSON_SUFFIXES)})s?\b").search  # a word with a person suffix
_CLAUSE_OPENERS = frozenset("that what whether how why when where it it's its they he she there one".split())
_PRONOUNS = frozenset("something anything everything nothing someone anyone everyone one".split())
_PERSONAL = frozenset("they he she you we i".split())
_PERSON_PRONOUNS = frozenset("anyone anybody someone somebody everyone everybody them him her us me you".split())
# verbs whose object does what a bare verb after it says ("let guests GO", "make a customer PAY")
_BARE_CAUSATIVES = frozenset({"let", "lets", "make", "makes", "help", "helps"})
_ACT_AUX = frozenset(
    "can could may might will would should must shall do does did can't cannot won't "
    "don't doesn't didn't shouldn't wouldn't couldn't mustn't".split()
)


@dataclass(slots=True)
class Word:
    """A content word of a rule's clause and its place in the sentence."""

    text: str  # as written, lower case; a phrasal verb with its particle ("laid off")
    clause: int = 0
    item: int = 0
    np: int = -1  # the noun phrase it belongs to (-1 for a verb)
    verb: bool = False
    adjective: bool = False
    light: bool = False  # a light noun or adjective, an adverb
    attribute: bool = False  # "payment DATE": an attribute of the topic
    container: bool = False  # "any CLAIM showing signs of …"
    in_pp: bool = False  # after a preposition: it modifies what came before
    subject: bool = False  # of a clause the rule quotes ("THEIR CLAIM is approved")
    predicate: bool = False  # what such a clause says of it ("their claim IS APPROVED")
    of_addressee: bool = False  # a state of the person served ("users who are MINORS")
    co_topic: bool = False  # "pregnancy or breastfeeding AND MEDICATIONS": with the others
    governed: bool = False  # the object of an act ("waive FEES"), not of a framing verb
    person: bool = False  # a role ("pharmacist", "claimants"), or the person told: not a topic
    agent: bool = False  # "-er"/"-or": a role or an instrument ("adjuster", "voucher")
    splitter: str = ""  # the word that opened its list item ("or", ",", "such as")
    determined: bool = False  # a determiner opens its phrase ("A death", "THE fee")
    example: bool = False  # named as an example ("… such as LAWSUITS, ATTORNEYS")
    bare: bool = False  # a verb with nothing after it in its list item ("STARTING, stopping or …")
    parts: tuple[str, ...] = field(default_factory=tuple)
    negated: bool = False  # said in the negative by the rule itself ("say it CAN'T lose money")
    acronym: bool = False  # written in capitals ("an interest rate or APR"): a name complete in itself
    preposition: str = ""  # the one it stands after, when `in_pp`
    refers_back: str = ""  # a verb whose object is a pronoun for what came before ("waive IT", "organise ONE")
    fact: bool = False  # of a first sentence that says what is so ("Results TAKE 2-3 DAYS. Don't promise them …")

    @property
    def weak(self) -> bool:
        return self.light or self.container


def _is_digit(token: str) -> bool:
    return (token[0].isdigit() or token[0] == "$") and not token[-1].isalpha()  # "2fa" is a word


# how far back `_role` reads a run of framing words, each of which is a noun when the one
# before it is ("a delivery DATE PROMISE"): a longer run is no English, and reading it
# whole would cost its length squared ('"say "say "say …')
_FRAMING_RUN = 8


def _role(item: list[str], i: int, run: int = 0) -> tuple[str, int]:
    """What the token at item[i] is, and how many tokens that role spans."""
    token = item[i]
    if i == 0 and token in ("without", "no") and len(item) > 1:
        return "content", 1  # "homeless, facing eviction or WITHOUT food": part of the topic
    if len(token) < 2:
        return "skip", 1  # "401(k)": a letter alone names nothing
    if token == "'s":
        return "possessive", 1
    # "… is NON-HAZARDOUS", "describe it AS NON-TOXIC", "promise NON-STOP service": what
    # is said of something is the claim
    said = token.startswith("non-") and i > 0 and (item[i - 1] in WORDS["aux"] or item[i - 1] == "as"
                                                   or in_list("tell", item[i - 1]) or phrase(item, i - 1, "framing") == 1)
    if _is_digit(token) or token in _NUMBERS or token.startswith("non-") and not said:
        return "skip", 1  # amounts, and negative compounds ("a NON-REFUNDABLE fare" names no topic)
    if token in CONTAINER_DETS:
        return "any", 1
    if token in _RELATIVE:
        return "relative", 1
    if token == "will" and (i and item[i - 1] in _OBJECT_OPENERS or i + 1 == len(item)):
        return "content", 1  # "a contract, WILL or court filing"; not "WILL be paid"
    if token in WORDS["aux"]:
        return "aux", 1
    if token in WORDS["preposition"]:
        return "preposition", 1
    if token in WORDS["closed"] or token in WORDS["light_adj"] and not (i and item[i - 1] in WORDS["aux"]):
        return "skip", 1  # "specific stocks" guards stocks; "the price IS FINAL" says something of it
    if n := phrase_at(item, i, "others"):
        return "skip", n  # "a third party's balance": whose, not what
    if n := phrase_at(item, i, "addressee"):
        return "addressee", n
    if in_list("addressee", token):
        return "addressee", 1
    if token in _MESSAGES and i + 1 < len(item) and item[i + 1] in _DRAFT_OPENERS:
        # "Flag DRAFTS that say …", "any REPLY offering a refund": the agent's own message
        return "framing", 1
    if n := phrase(item, i, "framing"):
        following = item[i + 1] if i + 1 < len(item) else ""
        if n == 1 and following in _PARTICLES and _phrasal(token, following, i + 2 >= len(item)):
            return "content", 1  # "a balance WRITTEN OFF", "TAKEN OVER": a phrasal verb of its own, no verb of saying
        if n == 1 and token.endswith("ing") and following and in_list("attribute", following) and i \
                and (phrase(item, i - 1, "framing") and item[i - 1] not in _MESSAGES or item[i - 1] in _OBJECT_OPENERS):
            # "promise PROCESSING times", "the HANDLING fees": what the time or fee is of, in
            # the object of a verb (not "no QUOTING prices": the act)
            return "content", 1
        if i == 0 and n == 1 and following in _LIMITS and _plural_noun(token):
            # "QUOTES over £500 go to the estimator": a plural noun with a limit opens the
            # case (not "quotes FOR a room", "promises OF delivery": a frame and its topic)
            return "content", 1
        previous = item[i - 1] if i else ""
        # "a delivery DATE", "a return GUARANTEE", "a minor's SCHEDULE": inside a noun
        # phrase, or after a determiner, it is a noun
        # (not after the party the rule binds: "any chat where THE AGENT MENTIONS …" is its verb)
        inside_phrase = bool(previous) and previous not in WORDS["closed"] and run < _FRAMING_RUN \
            and _role(item, i - 1, run + 1)[0] == "content" \
            and not in_list("actor", previous)
        # "the CUSTOMER LIST is …", "share our client SUMMARY with …": after a determiner
        # and a person's noun, a noun that the person's noun modifies, where nothing it
        # could act on follows (not "help a seller LIST goods", "a member MENTIONS being …")
        after_determiner = previous in _OBJECT_OPENERS or previous == "'s" or i > 1 \
            and item[i - 2] in _OBJECT_OPENERS and not token.endswith(("ing", "s")) \
            and _role(item, i - 1, _FRAMING_RUN)[0] == "addressee" \
            and (i + n == len(item) or item[i + n] in WORDS["aux"] or item[i + n] in WORDS["preposition"])
        # the verb agrees with the noun before "that": "any reply THAT MENTIONS",
        # "replies THAT MENTION"
        plural = i > 1 and item[i - 2].endswith("s") and item[i - 2] not in WORDS["closed"] \
            and "NOUN" in part_of_speech(item[i - 2])
        # … not "tell guests THAT OFFER is open": a noun before an auxiliary is a subject
        relative = token.endswith("s") or plural and not (i + 1 < len(item) and item[i + 1] in WORDS["aux"])
        if previous in ("that", "which") and relative and "VERB" in part_of_speech(token):
            # a relative clause's verb, not "that mention"
            after_determiner = False
        # … but "a renter REPORTS that the boat …": before a clause it is the verb
        opens_clause = i + n < len(item) and item[i + n] in ("that", "whether", "they", "he", "she", "i", "we")
        if opens_clause or not ((inside_phrase or after_determiner) and "NOUN" in part_of_speech(token)
                                and not token.endswith("ed")):
            return "framing", n
    return "content", 1


# the prepositions that set a limit on what the noun before them names
_LIMITS = frozenset({"over", "under", "above", "below", "exceeding"})


def _plural_noun(token: str) -> bool:
    """A noun's plural ("quotes"), not a verb's third person alone."""
    return token.endswith("s") and any(lemma != token and "NOUN" in part_of_speech(lemma) for lemma in lemmas(token)) \
        and "NOUN" in part_of_speech(token)


def _contact_clause(item: list[str], i: int, words: list[Word]) -> bool:
    """Whether the pronoun at item[i] opens a relative clause without "that" ("someone
    THEY met", "a product YOU bought"): it stands right after a pronoun for a person or
    a noun, and a verb follows it."""
    previous = item[i - 1]
    after_noun = previous in _PRONOUNS or bool(words) and words[-1].text == previous and not words[-1].verb
    following = item[i + 1] if i + 1 < len(item) else ""
    return after_noun and bool(following) and "VERB" in part_of_speech(following) \
        and following not in WORDS["aux"] and following not in _MODALS


def _after_relative(item: list[str], i: int) -> bool:
    """Whether the auxiliary at item[i] opens a relative clause: "that HAS already been
    filed", "which IS pending" (only other auxiliaries and function words between)."""
    j = i - 1
    while j >= 0 and (item[j] in WORDS["aux"] or item[j] in WORDS["closed"]) and item[j] not in ("that", "which"):
        j -= 1
    return j >= 0 and item[j] in ("that", "which")


def _passive_state(item: list[str], i: int, state: _State, splitter: str) -> bool:
    """A verb of saying or doing as a passive participle with no object after it ("they
    were THREATENED by someone", "were assaulted or THREATENED"): it says what happened
    to someone, the topic itself, not the frame of one ("were PROMISED a refund")."""
    token = item[i]
    if not (token.endswith(("ed", "en")) and token not in lemmas(token) or _irregular_participle(token)):
        return False
    after_aux = i > 0 and item[i - 1] in WORDS["aux"] or i == 0 and state.predicating and splitter in ("or", "and")
    following = item[i + 1] if i + 1 < len(item) else ""
    # (an adverb may end the clause: "whether a patient is ADMITTED HERE")
    ending_adverb = i + 2 == len(item) and part_of_speech(following) == {"ADV"}
    return after_aux and (following in ("", "by") or ending_adverb)


def _after_a_noun(words: list[Word], clause: int, index: int) -> bool:
    """Whether the list item before item `index` of `clause` ended in a noun ("schematics,
    OR …", "a spill OR …"): an item alone after it is a noun too."""
    return bool(words) and words[-1].clause == clause and words[-1].item == index - 1 and not words[-1].verb


def _irregular_participle(token: str) -> bool:
    """"found", "sold", "paid": the past form of another verb (find, sell, pay)."""
    if token in readings(token).get("NOUN", ()):
        return False  # "rent" is a noun before it is the past of "rend"
    return any(
        token in forms
        for lemma in lemmas(token) if lemma != token
        for tag, forms in table_forms(lemma).items() if tag in ("VBN", "VBD")
    )


def lemminflect_vbz(token: str) -> set[str]:
    """The third-person forms of the verbs `token` may be."""
    import lemminflect

    return {form for lemma in lemmas(token) for form in lemminflect.getInflection(lemma, tag="VBZ")}


def _gerund_noun(item: list[str], i: int) -> bool:
    """An -ing word the dictionary lists as a noun, before another noun ("booking details")."""
    token = item[i]
    return token.endswith("ing") and token in readings(token).get("NOUN", ()) \
        and i + 1 < len(item) and _role(item, i + 1)[0] == "content"


def _phrasal(verb: str, particle: str, last: bool) -> bool:
    """Whether verb + particle is a phrasal verb: it ends its phrase ("being laid OFF") or
    English writes it as one word too ("failover", "layoff"); not "work OFF the clock"."""
    return last or any(zipf(lemma + particle) >= _MIN_JOINED_ZIPF for lemma in lemmas(verb))


def _asked(item: list[str], i: int) -> bool:
    """Whether a form of "ask" stands before item[i] ("ask the family FOR payment"), or
    of a verb of blaming ("blame the municipality FOR a token rejection", "accuse a
    neighbour OF theft"): whoever is asked or blamed comes first, then what for."""
    return any(lemmas(t) & _ASKING for t in item[:i])


_ASKING = frozenset({"ask", "blame", "accuse"})


def names_third_party(rule: str) -> bool:
    """Whether the clauses that state a rule name a person who is neither the one served
    nor the party the rule binds: "a RESIDENT's medication dose", "exploitation of a
    RESIDENT", "a JOURNALIST's request"; or name a person as the owner of what it guards
    ("a TENANT'S apartment", "a GUEST'S room number") or as the one a telling is about
    ("confirm WHETHER A GUEST is staying", "reveal WHEN A TENANT is away"): a rule does
    not keep a person's own affairs from that person. What the rule guards is then
    someone else's, and a draft names them as someone else ("your mother's dose")."""
    low = rule.lower()
    roles, owned, asked = bool(_ROLE_ENDING(low)), "'s" in low or "\u2019s" in low, bool(_WH_TOLD(low))
    if not (roles or owned or asked):
        return False  # no role, owner or question about someone: most rules, read without the dictionary
    for clause in rule_clauses(rule)[0]:
        told = False
        for i, token in enumerate(clause):
            if not token[0].isalpha():
                continue
            if roles and token.rstrip("s").endswith(PERSON_SUFFIXES) and is_person(token) \
                    and not in_list("addressee", token) and not in_list("actor", token):
                return True
            if owned and clause[i + 1 : i + 2] == ["'s"] and _someone(token):
                return True
            told = told or in_list("disclose", token) or in_list("tell", token) or any(
                lemma in _CONFIRMING for lemma in lemmas(token))
            if told and token in _WH and any(_someone(t) for t in clause[i + 1 : i + 5]):
                return True
    return False


# verbs that tell whether something is so, besides those of telling and handing over
_CONFIRMING = frozenset({"confirm", "verify", "discuss", "release", "say", "mention", "reveal", "acknowledge"})
# "whether", "when", "who" … after a verb of telling: a cheap first test of a rule's text
_WH_TOLD = re.compile(r"\b(?:whether|when|where|who|which)\b").search


def _someone(token: str) -> bool:
    """A noun for a person, not the party the rule binds: "guest", "tenant", "worker"."""
    return token[0].isalpha() and not in_list("actor", token) and (
        in_list("addressee", token) or is_person(token) or is_agent(token))


def _word(token: str, item: list[str], i: int, verb_place: bool, determined: bool = False) -> Word:
    """A content word, told verb or not by the dictionary and its place in the rule."""
    parts = tuple(p for p in token.split("-") if p) if "-" in token else ()
    if parts:  # a compound is a noun or a modifier: "estate-planning", "trade-in"
        if len(parts) > 1 and parts[-1][:-1] in NOUN_PARTICLES and parts[-1].endswith("s"):
            parts = (*parts[:-1], parts[-1][:-1])  # "check-INS", "sign-UPS": the plural is on the particle
        return Word(text=token, parts=parts)
    pos = part_of_speech(token)
    word = Word(text=token, adjective="ADJ" in pos, attribute=in_list("attribute", token))
    word.light = in_list("light", token) or word.attribute or pos == {"ADV"}
    if not pos:  # a word the dictionary does not know ("reboot"): its place says
        following = item[i + 1] if i + 1 < len(item) else ""
        # "advise on BACKFEEDING a house": an -ing form with a determiner after it acts on it
        word.verb = verb_place and not determined or token.endswith("ing") and following in _OBJECT_OPENERS \
            and not determined
        return word
    if "VERB" not in pos:
        return word
    previous = item[i - 1] if i else ""
    following = item[i + 1] if i + 1 < len(item) else ""
    participle = token.endswith(("ing", "ed", "en")) and token not in lemmas(token) or _irregular_participle(token)
    if _relative_verb(item, i) or following in ("it", "them") and not determined and _back_reference(item, i + 1):
        # "any draft that WAIVES them", "drafts that ORGANISE one", "don't share or SELL them":
        # a word with an object pronoun after it is a verb
        word.verb, word.adjective = True, False
        return word
    if (determined or previous in _OBJECT_OPENERS) and not participle:
        return word  # "a DEPLOY to production", "their full CARD number": after a determiner, a noun
    wh_clause = token.endswith("s") and i + 1 == len(item) and any(t in _WH for t in item[:i]) \
        and previous not in WORDS["preposition"] and previous not in WORDS["closed"]
    if wh_clause and token in lemminflect_vbz(token):
        word.verb = True  # "how our fraud detection WORKS": a wh-clause ends in its verb
        return word
    if participle and determined:
        return word  # "a LOST or stolen card", "the DELETED project": after a determiner, a modifier
    if participle:
        # "STAGED accidents", "CONTROLLED substances": a participle before a noun modifies it
        # ("promise INTENDED parents …", "offer RETURNING customers …": the person too)
        modifier = bool(following) and (_role(item, i + 1)[0] == "content" and "NOUN" in part_of_speech(following)
                                        or _role(item, i + 1) == ("addressee", 1))
        # "margin TRADING": a gerund after a noun ends the noun phrase
        gerund = token.endswith("ing") and bool(previous) and _role(item, i - 1)[0] == "content" \
            and "VERB" not in part_of_speech(previous)
        # … but "Avoid PREDICTING market movements": in a verb's place it is the verb
        word.verb = not (modifier or gerund) or verb_place and token.endswith("ing")
    elif not pos & {"NOUN", "ADJ"}:
        word.verb = True
    elif following in _OBJECT_OPENERS and previous not in WORDS["closed"]:
        word.verb = True  # "… or RECORD an applicant's status": a determiner opens its object
    elif (previous in WORDS["closed"] or previous in WORDS["preposition"]) and previous not in WORDS["aux"] \
            and previous != "to":
        word.verb = False  # after "a", "the", "your", "for": a noun
    else:
        # after "to" a verb ("to HIRE a lawyer"), unless a noun follows ("to RETAIL customers")
        infinitive = previous == "to" and token in lemmas(token) \
            and not (following and _role(item, i + 1)[0] == "addressee")
        word.verb = verb_place or infinitive
    word.adjective = word.adjective and not word.verb
    return word


# pronouns that stand for a thing the rule named before ("Late fees apply. Never waive THEM")
_BACK_REFERENCES = frozenset({"it", "them", "one"})


def _said_of_them(item: list[str], i: int) -> bool:
    """Whether item[i] follows a "they" that a verb of saying (or its "that") governs
    directly, with no one told between: "say THEY last", "claim that THEY meet", "say
    THEY can be refunded" (auxiliaries and modals between)."""
    j = i - 1
    while j > 0 and item[j] in WORDS["aux"]:
        j -= 1
    if j < 1 or item[j] != "they":
        return False
    k = j - 2 if item[j - 1] == "that" and j >= 2 else j - 1
    if k > 0 and (item[k - 1] in _PERSONAL or item[k - 1] == "who" or "NOUN" in part_of_speech(item[k - 1])):
        return False  # "a rider SAYS they were in a crash": the speaker is "they", not a thing named before
    return in_list("framing", item[k]) and not in_list("tell", item[k]) or item[k] in ("say", "says", "said")


def _back_reference(item: list[str], i: int) -> str:
    """The pronoun at item[i] when it is the object of the verb before it and stands for
    something named earlier ("never waive IT", "flag drafts that organise ONE"); not a
    subject ("saying IT applies", "say IT is fine"), nor a numeral or a determiner ("ONE
    client's rate", "ONE weekend")."""
    if i >= len(item) or item[i] not in _BACK_REFERENCES:
        return ""
    following = item[i + 1] if i + 1 < len(item) else ""
    if following in WORDS["aux"] or following in _MODALS or following == "'s" \
            or item[i] == "one" and following and _role(item, i + 1)[0] == "content" \
            or following and _role(item, i + 1)[0] == "content" and part_of_speech(following) == {"VERB"}:
        return ""
    return item[i]


def _relative_verb(item: list[str], i: int) -> bool:
    """Whether item[i] is the verb of a relative clause that "that" or "which" opens after
    a noun, acting on a pronoun for what the rule named before ("any draft THAT WAIVES
    them", "drafts THAT ORGANISE one"): a verb that agrees with the noun. Where the verb
    names its own object ("any reply that references a divorce") the object stands alone
    as after "any reply about", so the word is left to the reading of the phrase."""
    if i < 2 or item[i - 1] not in ("that", "which") or _role(item, i - 2)[0] not in ("content", "framing"):
        return False
    noun, token = item[i - 2], item[i]
    if "NOUN" not in part_of_speech(noun) or "VERB" not in part_of_speech(token):
        return False
    if not _back_reference(item, i + 1):
        return False  # "any reply that REFERENCES a divorce" keeps the divorce alone, as "any reply about"
    plural = noun.endswith("s") and noun not in lemmas(noun)
    return token in lemminflect_vbz(token) and not plural or plural and token in lemmas(token) and token != noun


@dataclass(slots=True)
class _State:
    """What reading a rule's clause has established so far, across its list items."""

    verb_place: bool  # the next ambiguous word is a verb ("Never GIVE", "… or LIQUIDATE")
    acts: bool = False  # an act governs the next noun phrase ("waive FEES")
    predicating: bool = False  # after "is", "will be": what is said of a subject
    of_addressee: bool = False  # … and that subject is the person served
    seen_or: bool = False
    examples: bool = False  # after "such as", "including": the items are examples
    predicate_list: bool = False  # the last item ended with what is said of a subject
    in_pp: bool = False  # the last item ended inside a prepositional phrase
    np_count: int = 0
    recipient: bool = False  # after "tell", "advise": the next noun phrase may be a person
    told_before: list[Word] = field(default_factory=list)  # "tell PATIENTS or families that …": an earlier one
    informing: bool = False  # … and the verb only informs ("advise", "warn"; not "offer", "give")
    preposition: str = ""  # the preposition of the phrase the last item ended in
    back_subject: str = ""  # "never say IT is covered": a pronoun for what came before is the subject
    fact_verb: str = ""  # the verb of a first sentence that says what is so ("Results TAKE 2-3 days")


def read(rule: str, ages: bool = False) -> tuple[list[Word], list[str]]:
    """The content words of the clauses that state a rule, and its rationale's words
    (with `ages`, people named by an age limit read as the "under-Ns": `rule_clauses`)."""
    stated, rationale = rule_clauses(rule, ages)
    words: list[Word] = []
    state = _State(verb_place=False)
    facts = fact_verb(stated[0]) if len(stated) > 1 else 0  # "Results TAKE 2-3 days. Don't promise them …"
    for number, clause in enumerate(stated):
        imperative = forbids = False
        clause = clause[bound_party(clause):]
        while clause and (n := phrase_at(clause, 0, "directive")):
            # "Never GIVE …" opens with a verb; "No SEATS booked …" with a noun phrase
            forbids = forbids or " ".join(clause[:n]) not in POSITIVE_DIRECTIVES
            clause, imperative = clause[n:], clause[0] != "no"
        escalating = False
        # (a clause that opens with its routing verb has its case after it: "Escalate if a
        # reply says the balance will be SENT TO collections" routes the reply, not "sent to")
        # ("ROUTE changes belong to the dispatch lead": a subject may open with a routing word)
        routed = None if forbids or imperative \
            else (None if phrase(clause, 0, "escalate") else _routed_subject(clause)) or _owned_subject(clause)
        if routed is not None:
            clause = ["escalate", *routed]  # "any refund over $500 MUST BE ESCALATED to a lead"
        # "Never REJECT a candidate because of …", "Do not TRANSFER funds …": a routing
        # verb that the rule forbids is the act it guards, not a hand-off
        if clause and not forbids and (n := phrase(clause, 0, "escalate")):
            escalating, imperative, clause = True, False, clause[n:]
            while len(clause) > 1 and clause[0] in ("and", "or", ",") and (n := phrase(clause, 1, "escalate")):
                clause = clause[1 + n :]  # "flag AND FORWARD to the banding office": one routing
        state = _State(verb_place=imperative, np_count=state.np_count)
        if number == 0 and facts:
            state.fact_verb = stated[0][facts]  # read as the verb it is, not a noun of the subject's phrase
        # (a subject routed after it, "any shipment TO a sanctioned country goes to
        # compliance", had its destination read already: a "to" in it is its own)
        for index, (splitter, raw) in enumerate(items(cut(clause, escalating and routed is None))):
            _read_item(words, state, number, index, splitter, raw, escalating)
    _coordinated_modifiers(words)
    if facts:
        for w in words:
            w.fact = w.clause == 0
    if written := _acronyms(rule):
        for w in words:
            w.acronym = w.text in written
    return words, rationale


# what a rule says is kept secret ("… ARE CONFIDENTIAL"): each subject is guarded alone
_KEPT_SECRET = frozenset(ending[0] for ending in SECRET if len(ending) == 1)


def _coordinated_subject(words: list[Word], clause: int, item: int) -> list[Word]:
    """The noun phrase that ends the list item before a subject joined to it by "or" or
    "and" ("that A REVIEW or suspension will be dropped"): a subject of the same verb. []
    where that item ends in anything else (a verb, a prepositional phrase, the person told)."""
    before = [w for w in words if w.clause == clause and w.item == item]
    if not before:
        return []
    last = [w for w in before if w.np == before[-1].np]
    if before[-1].np < 0 or any(w.verb or w.in_pp or w.person or w.predicate or w.subject for w in last):
        return []
    return last


def _coordinated_modifiers(words: list[Word]) -> None:
    """A modifier alone in a list item, before "or"/"and" and a modifier of a noun ("STOLEN
    or broken items", "mention DAMAGED or broken items"), modifies that noun as the
    second one does: it becomes a phrase of its own, which the list shares the noun with
    (`topics._coordinated`); read alone it was dropped, or taken for the clause's verb."""
    fresh = max((w.np for w in words), default=-1) + 1
    for n, w in enumerate(words[:-1]):
        following = words[n + 1]
        if w.np != -1 or following.splitter not in ("or", "and") or following.clause != w.clause \
                or following.item != w.item + 1 or not (following.adjective or following.text.endswith("ed")):
            continue
        if any(o.clause == w.clause and o.item == w.item for o in words[n + 1 :]):
            continue  # not the last word of its item
        participle = w.text.endswith(("ed", "en")) and w.text not in lemmas(w.text) or _irregular_participle(w.text)
        if not (w.adjective or w.verb and participle):
            continue
        if any(o.np == following.np and o is not following and not o.adjective and not o.verb and not o.in_pp
               for o in words if o.item == following.item and o.clause == w.clause):
            w.verb, w.adjective, w.np = False, True, fresh
            fresh += 1


_CAPITALS = re.compile(r"\b[A-Z][A-Z0-9]{1,5}(?=s?\b)")


def _acronyms(rule: str) -> set[str]:
    """The words a rule writes in capitals as names ("APR", "ADHD", "PINs"), not those it
    shouts ("NEVER share ..."): none where most of its words are in capitals."""
    found = _CAPITALS.findall(rule)
    if len(found) * 2 > len(rule.split()):
        return set()
    names = {word.lower() for word in found}
    return {form for name in names if name not in WORDS["closed"] for form in (name, name + "s")}


# Auxiliaries that may stand between a subject and its routing verb ("MUST BE escalated",
# "SHOULD GET routed"), and verbs that route a case when its subject comes first
_ROUTING_AUX = frozenset({"be", "is", "are", "must", "should", "shall", "will", "get", "gets", "always", "immediately"})
_ROUTING_EXTRA = frozenset({"send", "go", "hand", "reserve", "belong", "restrict", "limit"})
# what may stand between a routing verb and its "to" ("goes STRAIGHT to underwriting")
_ROUTING_ADVERBS = frozenset({"straight", "directly", "immediately", "right", "only", "always", "automatically"})


def _routed_subject(clause: list[str]) -> list[str] | None:
    """The subject of a clause that routes it: "ANY SUSPICION OF ABUSE goes to the
    director", "ALL REFUND REQUESTS OVER $500 must be escalated to a supervisor" say
    "escalate" with the case first; None for any other clause."""
    for i in range(1, len(clause)):
        token = clause[i]
        following = clause[i + 1] if i + 1 < len(clause) else ""
        if following in _ROUTING_ADVERBS and i + 2 < len(clause):
            following = clause[i + 2]
        routing = any(phrase_at([lemma, following], 0, "escalate") or lemma in WORDS["escalate"]
                      or lemma in _ROUTING_EXTRA for lemma in lemmas(token))
        if not routing or (following and following not in ("to", "for", "off", "over", "up")):
            continue
        j = i
        while j > 1 and clause[j - 1] in _ROUTING_AUX:
            j -= 1
        passive = j < i and _participle(token) or token in ("go", "goes")  # "is LEFT to", "are SENT to"
        if passive and j > 0 and clause[j - 1] not in WORDS["closed"]:
            return clause[:j]
        return None  # the first routing verb decides
    return None


_BE = frozenset({"is", "are", "was", "were", "be"})
_SUBORDINATORS = _WH | frozenset({"because", "since", "as", "if", "although", "though", "while", "unless", "until", "once"})


def _owned_subject(clause: list[str]) -> list[str] | None:
    """The subject of a clause that says who holds its case rather than what to do with
    it: "Rail stressing results STAY WITH the track engineer", "Mix ratios COME FROM the
    conservation officer", "Underpinning depths ARE THE structural ENGINEER'S DECISION",
    "Trench collapse incidents ARE FOR the HSE lead TO HANDLE", "Rail grinding prices ARE
    SET BY the commercial manager". Such a rule keeps its subject from the agent as a
    routing does (`_routed_subject`); the holder is no topic. None for any other clause:
    the first verb or copula after the subject decides. A matter given to someone is
    held the same way: "Curtailment decisions BELONG TO the grid operator",
    "Extensions ARE GRANTED ONLY BY the dispatch supervisor",
    "Results ARE EXPLAINED to customers ONLY BY the specialist"."""
    modal = 0
    for i in range(1, len(clause)):
        token = clause[i]
        if token in _MODALS and clause[i + 1 : i + 2] == ["be"]:
            modal = i  # "… MAY be cancelled only by …": the copula decides
            continue
        rest = clause[i + 1 :]
        skip = 0
        while skip < len(rest) and rest[skip] in _ROUTING_ADVERBS:
            skip += 1  # "stays STRICTLY with", "are set ONLY by"
        following = rest[skip:]
        if phrase([token, *following[:1]], 0, "owner_verb") == 2 and not token.endswith("ing"):
            return _subject_before(clause, modal or i)
        if token not in _BE:
            if _finite_verb(token):
                return None  # the clause says something else of its subject
            continue
        if any(t in _NEGATORS for t in clause[:i]) or following[:1] in (["not"], ["never"]):
            return None  # "Vouchers CAN'T be reissued by the desk": whoever is named may not act
        if following[:1] == ["for"]:  # "… are for the asset team to publish | the surveyor"
            owned = "to" in following[2:] or is_person(following[-1]) or is_agent(following[-1])
        elif "'s" in following:  # "… is the legal team's (call | to handle)"
            owner = following.index("'s")
            tail = following[owner + 1 :]
            owned = not _BE.intersection(following[:owner]) \
                and (not tail or tail[0] in ("to", "only", "alone") or bool(phrase(tail, 0, "ownership")))
        else:  # "… are set (only) by the estimator", not "… are required by law and …"
            by = following.index("by") if "by" in following[1:3] else 0
            if not by and "only" in following[1:5] and following[following.index("only") + 1 :][:1] in _ONLY_TO:
                # "… are explained to customers ONLY BY …", "… may be disclosed ONLY TO the
                # policyholder", "… are shared ONLY WITH the client"
                by = following.index("only") + 1
            agent = following[by + 1 :]
            for k, word in enumerate(agent):
                if word == "," or word in _SUBORDINATORS or in_list("cut", word):
                    agent = agent[:k]  # "… by the pro shop only, and only when …"
                    break
            owned = by > 0 and _participle(following[0]) and not WORDS["aux"].intersection(agent) \
                and not any(in_list("authority", word) for word in agent)
        return _subject_before(clause, modal or i) if owned else None
    return None


_ONLY_TO = (["by"], ["to"], ["with"], ["from"])


def _by_the_party(item: list[str], i: int) -> bool:
    """Whether "by" at item[i] ends its item with the one who does a passive's act, named
    as the party a rule binds ("must not be calculated BY THE REFERRAL AGENT", "promised
    BY STAFF"): the doer with the words that say which, as `bound_party` reads a subject."""
    if not i or not any(t in WORDS["aux"] for t in item[:i]):
        return False
    rest = item[i + 1 :]
    if rest and rest[0] in _OBJECT_OPENERS:
        rest = rest[1:]
    return 1 <= len(rest) <= 3 and in_list("actor", rest[-1]) \
        and all(t[0].isalpha() and t not in WORDS["closed"] for t in rest)


def _finite_verb(token: str) -> bool:
    """A present form of a verb that is no noun or adjective too ("handles", "decides");
    not a participle or -ing form before a noun ("FAILED signals", "GPS TRACKING data")."""
    found = readings(token)
    if "VERB" not in found or found.keys() & {"NOUN", "ADJ"} or token.endswith("ing"):
        return False
    return any(token in table_forms(lemma).get(tag, ()) for lemma in lemmas(token) for tag in ("VBZ", "VBP"))


def _subject_before(clause: list[str], i: int) -> list[str] | None:
    """clause[:i] without the auxiliaries before i, where it ends in a content word and
    is no subordinate clause ("BECAUSE the casino is run by …", "WHETHER a patient is …")."""
    if clause[0] in _SUBORDINATORS:
        return None
    j = i
    while j > 1 and clause[j - 1] in _ROUTING_AUX:
        j -= 1
    return clause[:j] if clause[j - 1] not in WORDS["closed"] else None


def _read_item(words: list[Word], state: _State, clause: int, index: int, splitter: str,
               raw: list[str], escalating: bool) -> None:
    item = after_frame(raw)
    if len(item) < len(raw):
        state.verb_place = state.acts = state.in_pp = False  # "advice about APPEALS": a noun phrase
    if state.recipient and index and splitter not in ("or", "and", "nor"):
        state.told_before, state.recipient = [], False  # only a list goes on with the person told
    co_topic = splitter == "and" and state.seen_or
    state.seen_or = state.seen_or or splitter == "or"
    if splitter in _EXAMPLE_SPLITS:
        state.examples = True
        state.verb_place = state.acts = state.in_pp = False  # examples are noun phrases
    elif splitter not in (",", "or", "and", "nor"):
        state.examples = False
    phrase: list[Word] = []
    seen_content = False
    # "… in a ticket OR CHAT": a bare noun after a prepositional phrase goes on with it
    in_pp = state.in_pp and splitter in ("or", "and", "nor") and _role(item, 0)[0] == "content" \
        and sum(_role(item, j)[0] == "content" for j in range(len(item))) == 1
    # "any complaint ABOUT harassment at a placement": the frame was the container
    container_pending = escalating and index == 0 and clause == 0 and len(item) == len(raw)

    def close(container: bool = False) -> None:
        nonlocal phrase, seen_content
        if state.recipient and phrase:
            # "tell OWNERS it's safe", "advise RENTERS their card covers it": the person
            # told, whoever they are, is named before what is told
            following = item[i] if i < len(item) else ""
            after = item[i + 1] if i + 1 < len(item) else ""
            # "tell borrowers TO WAIT": an infinitive after the noun phrase says what they are told,
            # in a verb's bare form (not "offer discounts TO EXISTING customers", "quote rates TO BROKERS")
            infinitive = following == "to" and after not in WORDS["closed"] and "VERB" in part_of_speech(after) \
                and not after.endswith("ing") and after in lemmas(after)
            # "advise FREELANCERS on how to …": a person, then what they are told about
            # ("advise ATHLETES on steroid use": after a verb that only informs, whoever the
            # noun names, what follows "on" or "about" is what they are told)
            about = following in _TOPIC_PREPOSITIONS and (
                all(is_person(w.text) or is_agent(w.text) for w in phrase)
                or state.informing and following not in ("with", "without") and not any(w.light for w in phrase))
            # "ask THE FAMILY for payment": whoever is asked for something is asked, not asked for
            asked_for = following in ("for", "of") and _asked(item, i)
            # "tell OWNERS it's safe", "promise BEGINNERS they will …": before a clause, the
            # person told; but what is offered or promised may come first ("offer A DISCOUNT
            # where the order is reduced"): after a verb that only informs, a phrase that names
            # a person, or a bare plural (people are told as a class), it is the person
            told = following in _CLAUSE_OPENERS and (
                state.informing
                or any(is_person(w.text) or is_agent(w.text) or in_list("addressee", w.text) for w in phrase)
                or not any(w.determined for w in phrase) and phrase[-1].text not in lemmas(phrase[-1].text))
            if told or following in _OBJECT_OPENERS or in_list("addressee", following) \
                    or infinitive or about or asked_for:
                # an earlier item is told as well where no infinitive decides it ("give
                # investment or tax advice TO RETAIL customers": "retail" may be a verb)
                for w in (*phrase, *(state.told_before if not infinitive else ())):
                    w.person = w.light = True
                state.told_before = []
            elif not following:
                # the item ends ("advise A MASTER or crew member on whether …"): the next
                # item may be told too, and what follows it says whether both are
                state.told_before.extend(phrase)
            else:
                state.told_before = []
            state.recipient = bool(state.told_before)
        # "any CLAIM showing signs of arson" holds a topic; "any donor PLEDGE over $10,000"
        # holds only an amount, so it is the topic itself
        container = container and any(_role(item, j)[0] == "content" and not in_list("light", item[j])
                                      for j in range(i, len(item)))
        for w in phrase:
            w.np = state.np_count
            w.container = w.container or container
        if container:
            seen_content = False  # what follows a container is the topic, not a modifier
        state.np_count += bool(phrase)
        phrase = []

    i = 0
    determiner = False
    negating = False
    preposition = state.preposition if in_pp else ""
    while i < len(item):
        role, n = _role(item, i)
        if role == "addressee" and n == 1 and state.predicating and state.of_addressee and i > len(phrase) \
                and item[i - 1 - len(phrase)] in ("a", "an"):
            # "whether someone is A PATIENT here", "they're A GOOD CANDIDATE for …": being one
            # is what the rule guards
            role = "content"
        if item[i] == "by" and _by_the_party(item, i):
            break  # "must not be calculated BY THE REFERRAL AGENT": who does it is the party bound
        if role == "framing" and n == 1 and i + 1 == len(item) and splitter in (",", "or", "and", "nor") \
                and all(_role(item, j)[0] == "skip" for j in range(i)) and _after_a_noun(words, clause, index) \
                and "NOUN" in part_of_speech(item[i]):
            role = "content"  # "a spill or LEAK": alone after a noun in a list, a noun too
        passive = role == "framing" and _passive_state(item, i, state, splitter)
        if passive:
            role, n = "content", 1  # "they were THREATENED by …": what was done to them is the topic
        if item[i] in _PERSONAL and i and not (state.recipient and phrase) and _contact_clause(item, i, words):
            break  # "by someone THEY MET on the app": a clause that says who, not what ("tell residents THEY qualify …" says what)
        if item[i] in _NEGATORS and role != "content" and not (i and item[i - 1] in _MODALS) \
                and any(in_list("framing", t) or in_list("tell", t) for t in item[:i]):
            # not "… must NOT be changed", nor "Members CAN'T sublet their plots": the rule's
            # own prohibition; only a negation in what is said ("say it CAN'T lose money")
            negating = True
        if state.recipient and not phrase and (item[i] in _PERSON_PRONOUNS or item[i] in _WH):
            # "tell ANYONE how many …", "tell THEM whether …", "tell HOW many …": the person
            # told is named, or what is told begins; the noun phrase after is no person
            state.recipient = False
        if item[i] in _OBJECT_OPENERS or role == "possessive":
            determiner = True
        elif role not in ("content", "skip"):
            determiner = False
        if role == "content":
            token = item[i]
            following = item[i + 1] if i + 1 < len(item) else ""
            forced = token == state.fact_verb
            # (the word right after a predicate's verb is its object: "can join CLASS IV trips")
            after_verb = bool(words) and words[-1].verb and i > 0 and words[-1].text.split()[-1] == item[i - 1]
            w = _word(token, item, i, state.verb_place or state.predicating and not phrase and not after_verb or forced,
                      determiner)
            if forced:
                state.fact_verb = ""
            if w.verb and token.endswith("ing") and splitter in (",", "or", "and") and i == 0 \
                    and (not following or following in WORDS["preposition"]) \
                    and _after_a_noun(words, clause, index) and not words[-1].in_pp:
                # "Gerber files, schematics OR PRICING": alone at the end of a list of nouns,
                # an -ing word is a noun too (not "starting, stopping or changing …")
                w.verb = False
            if passive:
                w.verb, w.light, w.attribute = True, False, False  # "been REPORTED": the act, not a kind of talk
            if w.verb and following in _PARTICLES and _phrasal(token, following, i + 2 >= len(item)):
                w.text, n = f"{token} {following}", 2  # "laid OFF", "fail OVER": one unit
            if w.verb and not in_list("tell", token):
                w.refers_back = _back_reference(item, i + n)
            said_of_them = _said_of_them(item, i) and "VERB" in part_of_speech(token)
            if said_of_them:
                # "Race credits expire after a year. Don't say THEY LAST forever": "they" right
                # after a verb of saying (no one told) stands for what the rule named before,
                # and what follows it is said of that
                w.verb, w.refers_back = True, "them"
                w.light = w.adjective = w.attribute = False
            if state.predicating and state.of_addressee and state.back_subject:
                # "never say it's COVERED", "one will be PAID": what is done to what the
                # pronoun stands for (not "it's SAFE to stay", "it's OKAY": a state, an act)
                if w.verb and _participle(token):
                    w.refers_back = state.back_subject
                state.back_subject = ""
            w.clause, w.item, w.co_topic, w.in_pp, w.splitter = clause, index, co_topic, in_pp, splitter
            w.preposition = preposition if in_pp else ""
            w.negated = negating
            w.example = state.examples
            w.bare = w.verb and i + n == len(item)
            w.determined = phrase[0].determined if phrase else determiner
            w.predicate = state.predicating and not state.of_addressee
            w.of_addressee = state.predicating and state.of_addressee or said_of_them
            w.person = not w.verb and is_person(w.text)
            w.agent = not w.verb and is_agent(w.text)
            if w.verb and not phrase and i == 0 and state.predicate_list and splitter in ("or", "and", "nor"):
                w.predicate = True  # "seats booked OR HELD": what is said of the same subject
            reduced = token.endswith(("ed", "en")) and (following in WORDS["preposition"] or not following)
            if w.verb:
                if phrase and not state.verb_place and not container_pending and not w.in_pp and not reduced:
                    # "a used CAR passed an inspection", "which SIGNALS trigger a hold":
                    # a noun phrase right before a verb is its subject
                    for noun in phrase:
                        noun.subject = True
                    w.predicate = True
                close(container_pending and bool(phrase))
                container_pending = in_pp = False
                if not state.predicating and not w.predicate:
                    state.acts = True
                    if in_list("tell", token):
                        state.recipient = True  # "INSTRUCT volunteers to …": the next noun phrase may be the person told
            else:
                w.governed = state.acts
                phrase.append(w)
            words.append(w)
            seen_content, state.verb_place = True, False
            if w.verb:
                determiner = False
            i += n
            continue
        if role == "possessive" and phrase:
            for owner in phrase:  # "a COURIER's phone number": whose, not what
                owner.light = True
        if role == "addressee":
            if state.recipient and not any(w.item == index and w.clause == clause and w not in phrase for w in words):
                # "advise a master or A CREW member on …": the person told, with the nouns that
                # say which (not "give tax advice TO CUSTOMERS": what is given comes first)
                for w in (*state.told_before, *(p for p in phrase if "ADJ" not in part_of_speech(p.text))):
                    w.person = w.light = True
            state.told_before = []
            # "tell A CUSTOMER to …": the person told is named; one that ends its item may
            # go on in a list ("advise TENANTS or landlords on …")
            state.recipient = state.recipient and i + n == len(item)
            if i and item[i - 1] in _BARE_CAUSATIVES or i > 1 and item[i - 2] in _BARE_CAUSATIVES:
                state.verb_place = True  # "let GUESTS go inside": a bare verb follows the person
            # "a PROSPECTIVE tenant's race": a word that describes the person is no topic;
            # "let PREGNANT guests in": where the person is the act's object, the state the
            # word names is what the rule is about, as "guests who are pregnant" says
            possessor = i + n < len(item) and item[i + n] == "'s"
            for describing in [p for p in phrase if "ADJ" in part_of_speech(p.text)]:
                if possessor or describing.verb or zipf(describing.text) >= HEAD_ZIPF:
                    words.remove(describing)
                    phrase.remove(describing)
                else:
                    describing.of_addressee = True
        follows = role in ("preposition", "relative", "aux")
        if role == "preposition" and not phrase:
            state.recipient = False  # "advise ON backfeeding a house": after it comes what, not whom
        # (not "flag FEVER during chemo": a phrase of time or place locates the case, it
        # names no contents)
        locating = role == "preposition" and item[i] in _LOCATING
        close(container_pending and follows and bool(phrase) and not locating)
        if role == "aux":
            subject = [w for w in words if w.np == state.np_count - 1 and w.item == index and w.clause == clause]
            if i and item[i - 1] == "who" and state.of_addressee:
                subject = []  # "any donor WHO IS confused": what is said is of the person
            elif subject and not subject[0].container and _after_relative(item, i):
                # "amend a return THAT HAS been filed": a relative clause narrows the act's
                # object; what it says of it is no topic of its own, nor of the person's
                subject, state.of_addressee = [], False
            elif i and item[i - 1] in _PERSONAL and not _said_of_them(item, i):
                subject, seen_content = [], False  # "tell a borrower THEY don't need …": of the person
                if item[i] in _ACT_AUX:
                    # "tell renters they CAN cross a border": what they may do is an act
                    # with its object, as after "Never …"
                    state.predicating = state.of_addressee = False
                    state.verb_place = True
                    i += n
                    continue
            opening = [t for t in item[:i] if t not in _OBJECT_OPENERS]
            # (not "X and Y ARE CONFIDENTIAL": what is kept secret stands alone, each item)
            if subject and index and splitter in ("or", "and") and opening == [w.text for w in subject] \
                    and not any(t in _KEPT_SECRET for t in item[i + n : i + n + 2]):
                subject = [*_coordinated_subject(words, clause, index - 1), *subject]
            for member in subject:
                member.subject = True
            if subject:
                state.of_addressee = False  # "their CLAIM is approved"
            elif not seen_content and not state.predicating and not _after_relative(item, i):
                state.of_addressee = True  # "applicants who ARE homeless", "they are eligible"
                state.back_subject = item[i - 1] if i and item[i - 1] in ("it", "one") else \
                    "them" if _said_of_them(item, i) else ""  # "never say THEY are refunded"
            state.predicating, state.acts = True, False
        elif role in ("relative", "addressee"):
            state.of_addressee = state.of_addressee or not seen_content
            state.predicating = False
            if role == "relative":
                state.verb_place = True  # "… that a customer BUY or sell", "who THREATENS"
                in_pp = False  # "the buyer WHO left a review": a clause of its own
                if words and words[-1].container and words[-1].item == index:
                    state.of_addressee, seen_content = True, False  # "any patron WHO says they are …"
        elif role == "possessive":
            state.verb_place = False  # "a candidate's AGE": a noun follows
        elif role == "framing":
            state.verb_place = state.acts = False
            in_pp = False  # "authorize guests to BRING their own alcohol": a verb ends the phrase, as a content verb does
            state.recipient = any(in_list("tell", t) for t in item[i : i + n])
            state.informing = any(lemma in _INFORMING for t in item[i : i + n] for lemma in lemmas(t))
            speaker = [w for w in words if w.np == state.np_count - 1 and w.item == index and w.clause == clause]
            if speaker and i and speaker[-1].text == item[i - 1] \
                    and all(w.agent or w.person or in_list("actor", w.text) for w in speaker):
                # "when a BORROWER says …", "any reply where THE BOT discusses …": who speaks, not what is said
                for w in speaker:
                    w.person = w.light = True
        elif role == "preposition":
            state.verb_place = False  # "ask a cardholder FOR their card number"
            previous = item[i - 1] if i else ""
            # "something ON THE ROADMAP": what a pronoun stands for is the content;
            # "caused BY a cyberattack": a passive's agent is an argument, not a modifier
            agent = item[i] == "by" and bool(words) and words[-1].verb and words[-1].item == index
            # "a client OF THE FIRM" modifies the person; "travelers WITH disabilities" is the topic
            after_person = i > 0 and _role(item, i - 1)[0] == "addressee" and item[i] not in _TOPIC_PREPOSITIONS
            # "they are IN DANGER", "their unit is STILL UNDER warranty" (an adverb between)
            before = i - 1
            while before > 0 and "ADV" in part_of_speech(item[before]) and (
                    item[before] in WORDS["closed"] or part_of_speech(item[before]) == {"ADV"}):
                before -= 1
            predicative = i > 0 and item[before] in WORDS["aux"]
            # "ask the family FOR PAYMENT": after the person asked, what they are asked for
            asked_for = item[i] in ("for", "of") and bool(words) and words[-1].item == index and _asked(item, i) \
                and (words[-1].person or not any(lemmas(t) & {"ask"} for t in item[:i]))
            if asked_for and not words[-1].person:
                # "blame THE MUNICIPALITY for …": whoever is blamed, whatever the noun
                for w in [w for w in words if w.np == words[-1].np and w.item == index]:
                    w.person = w.light = True
            # "advise A FARMER on withdrawal periods", "warn guests about …": after the person
            # told, what they are told about (as "advise ON …" with no person named)
            told_about = item[i] in ("on", "about") and state.informing and bool(words) and words[-1].person \
                and words[-1].item == index and words[-1].text == previous
            # "disposing OF asbestos waste", "approve OF it": after a verb, "of" opens its object
            verb_of = item[i] == "of" and bool(words) and words[-1].verb and words[-1].text == previous
            # "remedies (feverfew, butterbur) FOR MIGRAINE": after a bracket, the phrase goes on
            # with what came before it
            resumed = i == 0 and splitter == ")"
            in_pp = (seen_content or after_person or resumed) and previous not in _PRONOUNS and not agent \
                and not predicative and not asked_for and not verb_of and not told_about
            preposition = item[i]
        if role == "any":
            container_pending = True
        elif role in ("preposition", "relative", "aux", "framing", "addressee"):
            container_pending = False
        i += n
    close()
    state.in_pp, state.preposition = in_pp, preposition
    # "starting, stopping OR CHANGING …": a list of bare verbs goes on with a verb
    mine = [w for w in words if w.item == index and w.clause == clause]
    state.predicate_list = bool(mine) and mine[-1].verb and mine[-1].predicate
    state.verb_place = bool(mine) and mine[-1].verb
