"""A red line's words as clauses and list items, before any word is classified.

The first clause states the rule; a later clause that opens with a prohibition states
more of it ("…; no wire transfers or gift cards"); the rest is its rationale. Within a
stated clause, directives, conditions and exceptions ("without approval", "unless …") and
the destination of a hand-off ("to a human adjuster") are cut, and the rest splits into
list items at commas, "or", "and", "such as". `policy.reading` then reads the words of
each item.
"""

from __future__ import annotations

import re
from functools import lru_cache

from redline.policy.lexicon import family, is_agent, is_person, lemmas, part_of_speech
from redline.policy.dictionary import forms as table_forms, readings
from redline.policy.words import WORDS, may_hold, phrase_at

__all__ = [
    "CONTAINER_DETS", "LOCATING", "MODALS", "OBJECT_OPENERS", "POSITIVE_DIRECTIVES", "about_others", "after_frame", "bound_party", "clauses", "cut", "cut_at",
    "declares", "fact_verb",
    "disclosure_verbs", "in_list",
    "items", "phrase", "rule_clauses", "tokens",
]

_TOKEN = re.compile(
    r"(?:[a-z]\.){2,}|\d+[a-z][a-z0-9]*|\$?\d[\d,.]*\d%?|\$?\d%?"
    r"|[a-z]{1,6}-\d+(?:\.\d+)+[a-z]?"  # a code with a section number: "ec-2.1", "tf-3.1"
    r"|[a-z]+\d[a-z0-9]*(?:-[a-z0-9]+)*"  # letters and digits as one word: "b2b", "mp3", "co2", "hba1c"
    r"|[a-z]+(?:'(?!s\b)[a-z]+)?(?:-[a-z0-9]+(?:'(?!s\b)[a-z]+)?)*|'s\b"
    r"|-+>|=>|\u2192|(?<!\S)=(?!\S)"
    r"|[,;:.!?()/&|\u00a7]|[\u2014\u2013]|(?<!\S)--?(?!\S)"
)
# "X -> a supervisor", "X => ops", "X = emergency": in a note's shorthand an arrow (or an
# equals sign between spaces) sends the case on its left to what its right names
_ARROWS = frozenset({"->", "-->", "=>", "\u2192", "="})
# shorthand of notes: "w/ a kid inside", "w/o approval"
_WITH = re.compile(r"\b[wW]/(o\b)?(?=[\s,.;:]|$)")
# "re:" ("regarding") of notes and letters: "No tax advice RE: withdrawals" (its colon
# heads nothing); not the "'re" of "we're"
_REGARDING = re.compile(r"(?<!['\u2019\w])re:?(?=\s)", re.IGNORECASE)
# negative contractions written without their apostrophe ("dont", "cant", "doesnt"):
# informal notes drop it, and the word is then the contraction, not "cant" or "wont"
_BARE_NEGATIONS = {
    form.replace("'", ""): form
    for form in "don't can't won't doesn't didn't isn't aren't wasn't weren't shouldn't wouldn't couldn't "
    "hasn't haven't hadn't mustn't needn't".split()
}
# the spellings of chat English a note to the bot uses for words the reader knows ("roof
# qs", "flag any msg where …", "dont tell ppl …", "… bc it comes back on us"): read as the
# words, or the reader takes them for topics ("ppl", "msg") and misses a reason ("bc")
_INFORMAL = {
    "qs": "questions", "ppl": "people", "msg": "message", "msgs": "messages", "convo": "conversation",
    "convos": "conversations", "bc": "because", "cuz": "because", "thru": "through",
}
# "qs b4 the paper is sat": chat's "before", in lower case before a word (not a paper
# size or a form's name, "print on B4", "form B4 (a)")
_BEFORE = re.compile(r"(?<![\w-])b4(?= [a-z])")
_CLAUSE_END = frozenset(";.!?:|")  # "|": the column mark of a table row written as a line
_TO_NAME = re.compile(r"\b(to) ([A-Z][A-Za-z]*)\b")
_ABBREVIATION_DOT = re.compile(r"\b([A-Za-z]{2,6})\.(?=\s+[a-z0-9])")
# the abbreviated word before a section's number ("Art. 14", "Reg. 9.3", "No. 5"): no clause ends
_SECTION_DOT = re.compile(r"\b(art|reg|regs|sec|secs|no|para|ch|cl|ss)\.(?=\s*\d)", re.IGNORECASE)
_INITIAL_DOT = re.compile(r"(?<![\w.])([A-Z])\.(?=\s+[a-z])")
# a code in brackets that opens a rule ("[AML-11] Agents must not …", "[SEC-4.2]"): its
# place in a document, as a section number is
_BRACKETED_CODE = re.compile(r"^\s*\[[^\]\d]{0,12}\d[^\]]{0,12}\]\s*[:\-\u2013\u2014]?\s*")
# pronouns whose contracted auxiliary is a word of its own ("THEY'VE been reported")
_CONTRACTING = frozenset("i you we they he she it that there who what here".split())
_CONTRACTED = {"ve": "have", "re": "are", "m": "am", "ll": "will", "d": "would"}
# a pronoun's contraction as chat types it without the apostrophe ("no telling landlords
# THEYLL get a penalty", "YOURE covered"), where that spelling is no word of its own
# ("well", "were", "hell", "ill" are)
_BARE_CONTRACTIONS = {
    pronoun + tail: (pronoun, _CONTRACTED[tail])
    for pronoun, tails in (("i", "m ve ll d"), ("you", "re ve ll d"), ("we", "re ve ll d"), ("they", "re ve ll d"),
                           ("he", "ll d"), ("she", "ll d"), ("it", "ll d"), ("that", "ll d"), ("there", "ll d"),
                           ("who", "ve ll d"), ("what", "re ve ll d"))
    for tail in tails.split()
    if not part_of_speech(pronoun + tail)
}
# A dash between words ("Never X \u2014 it exposes us", "Don't X - only the IRS decides")
# opens an aside, mostly the rule's reason: a clause of its own. Before a word that
# opens examples or another item ("\u2014 including Y", "\u2014 or Z") it only splits
# the list, as a comma does ("\u2014 and it exposes us" is an aside).
_DASHES = frozenset({"\u2014", "\u2013", "-", "--"})
_LIST_GOES_ON = frozenset({"or", "nor", "such as", "including", "like", "e.g.", "eg", "i.e.", "ie", "for example", "for instance", "especially",
                           "particularly", "notably"})
_ITEM_MARKS = frozenset(",()/&")
CONTAINER_DETS = frozenset({"any", "all", "every", "each"})
_ANY = frozenset({"any", "anything", "anyone", "anybody"})
# "escalate TO A supervisor", "hand off TO OUR team"; not "asks TO HAVE it removed"
_DESTINATION_OPENERS = frozenset(
    "a an the our your their his her its my this that these those another someone somebody us them him".split()
)
# Exceptions that name a party or a thing ("to anyone OTHER THAN the patient"), and the
# words that open the clause a verb of saying governs, which may follow them
_EXCEPTED = frozenset({"other than", "except", "apart from", "besides", "outside"})
_OBJECT_CLAUSES = frozenset({"whether", "that", "what", "which", "how"})
_PRONOUN_SUBJECTS = frozenset("we they you it he she i".split())
# "so" before the subject of a clause opens its purpose or result ("so THE team can
# review it", "so WE can check"): the rule's reason, as "so that" is
_CLAUSE_SUBJECTS = _DESTINATION_OPENERS | _PRONOUN_SUBJECTS
# "Hand off to a human WHEN a customer disputes a charge": after a destination that opens
# the rule, the condition is what the rule escalates, as in "Escalate when …"
_TRIGGERS = frozenset({"when", "whenever", "if", "once", "where"})
# cut words that are adjectives too ("an OUTSIDE agent", "the BEFORE photos")
_ALSO_ADJECTIVES = frozenset({"outside", "before", "after", "inside"})
# what may stand between a routing verb and its condition ("flag IT whenever …")
_PLACEHOLDERS = frozenset({"it", "this", "them", "immediately", "always", "right", "away", "promptly", "the", "reply",
                           "draft", "response", "message", "replies", "drafts", "responses", "messages", "any",
                           "anything"})
_ABOUT = frozenset({"about", "on", "regarding", "concerning", "of", "as to"})
_WH = frozenset({"how", "why", "what", "which", "when", "where", "whether", "who"})
_FRAME_PREPOSITIONS = frozenset({"of", "about", "on", "regarding", "concerning", "involving", "around", "for", "to"})
# "please" as typed in a hurry too
_PLEASE = frozenset({"please", "pls", "plz"})
POSITIVE_DIRECTIVES = frozenset({"always", "ensure", "make sure", "only"}) | _PLEASE
# a word every phrase of the `others` list holds and few rules do: most rules never name
# another person, and need not be read for it
_OTHERS_FIRST_WORDS = frozenset(
    next((w for w in p.replace("-", " ").split() if w not in WORDS["closed"] or w in ("another", "other", "others")), p)
    for p in WORDS["others"]
)


def _abbreviation(match: re.Match[str]) -> str:
    """A word the dictionary does not know before a period and a lower-case word ("vs.",
    "approx.", "incl.") loses the period; "contract. agent can't …" keeps it."""
    word = match.group(1)
    return word if not part_of_speech(word.lower()) else match.group(0)


def tokens(text: str) -> list[str]:
    """Words, amounts and punctuation, lower case; a possessive "'s" is a token of its own,
    and a pronoun's contraction two words ("they've" -> they have, "it's" -> it is)."""
    # a name after "to" ("escalate to Trust & Safety", "hand off to Billing") is a
    # destination as "to the team" is: it gets the determiner such a phrase would have
    if "to " in text:
        text = _TO_NAME.sub(r"\1 the \2", text)
    if ". " in text:  # an abbreviation's period ("1099 vs. employee") ends no clause
        text = _ABBREVIATION_DOT.sub(_abbreviation, text)
    if "." in text:
        text = _SECTION_DOT.sub(r"\1", text)
        text = _INITIAL_DOT.sub(r"\1", text)  # "E. coli", "S. aureus": an initial ends no clause
    if "/" in text:
        text = _WITH.sub(lambda m: "without" if m.group(1) else "with", text)
    text = _REGARDING.sub("about", text)
    if "4" in text:
        text = _BEFORE.sub("before", text)
    found = _TOKEN.findall(text.lower().replace("\u2019", "'").replace("\u2018", "'"))
    out: list[str] = []
    for token in found:
        pronoun, _, tail = token.partition("'")
        if token in _BARE_NEGATIONS:
            out.append(_BARE_NEGATIONS[token])
        elif token in _INFORMAL:
            out.append(_INFORMAL[token])
        elif token in _BARE_CONTRACTIONS:
            out += _BARE_CONTRACTIONS[token]
        elif token == "'s" and out and out[-1] == "q":  # "q's"
            out[-1] = "questions"
        elif tail in _CONTRACTED and pronoun in _CONTRACTING:
            out += [pronoun, _CONTRACTED[tail]]
        elif token == "'s" and out and out[-1] in _CONTRACTING:
            out.append("is")  # "it's", "that's": not a possessive
        else:
            out.append(token)
    # "no shade matching guarantees PLS, lighting varies": a please that ends its clause
    # is politeness, no word of the rule (one before a verb stays: "pls never …")
    return [t for i, t in enumerate(out) if t not in _PLEASE or i + 1 < len(out) and out[i + 1][0].isalnum()]


def clauses(tokens_: list[str], splice: bool = True) -> list[list[str]]:
    """The clauses of a rule's tokens. With `splice`, a sentence joined to the rule by a
    comma alone is a clause of its own (a rule that quotes wording passes False: "say
    'it's ready, you can collect it'" is one thing said)."""
    if not _DASHES.isdisjoint(tokens_):
        tokens_ = _dashes_read(tokens_)
    out: list[list[str]] = [[]]
    for i, token in enumerate(tokens_):
        if token in ("?", "!") and tokens_[i + 1 : i + 2] == [","]:
            continue  # 'asks "can you unban me?", do not …': a quoted question, then the sentence goes on
        if token in _CLAUSE_END:
            out.append([])
        elif token == "so" and i and _so_directs(tokens_, i + 1):
            # "…, SO never sign them up for a build day", "we're not electricians SO pls never
            # agree to …": what follows is a rule of its own
            if out[-1]:
                out.append([])
        elif token == "," and out[-1] and i + 2 < len(tokens_) and tokens_[i + 1] == "so" and _so_directs(tokens_, i + 2):
            out.append([])
        elif token == "," and out[-1] and i + 1 < len(tokens_) and tokens_[i + 1] in _COMMA_DIRECTIVES \
                and phrase_at(tokens_, i + 1, "directive") and out[-1][0] not in _EXCEPTIONS \
                and _names_its_own(_until_clause_end(tokens_, i + 1)):
            # "refer to Resident Accounts, DON'T adjust charges yourself", "When someone asks
            # about a missed departure, DON'T tell them …": a rule of its own after the comma
            # (an exception before it stays with it: "Unless …, do not waive …", and so does a
            # rule that points back: "if a tenant asks about the pet deposit, don't tell them
            # IT'll be returned")
            out.append([])
        elif splice and token == "," and out[-1] and out[-1].count("(") <= out[-1].count(")") \
                and _spliced(tokens_, i + 1) and _forbids(out[-1][1:] if out[-1][0] in _SPLICE_IMPERATIVE else out[-1]):
            # "never promise same-day resoling, THE GLUE HAS to cure overnight, JUST TELL ppl
            # …": a sentence of its own after the rule's comma (its reason, or what to do
            # instead), as a period would end it; not a comma inside an open bracket
            out.append([])
        else:
            out[-1].append(token)
    if not _ARROWS.isdisjoint(tokens_):
        out = [_routed(c) for c in out]
    return [c for c in out if c]


# a quotation mark (not an apostrophe inside a word): the rule quotes wording
_QUOTES = re.compile(r"[\"\u201c\u201d]|(?<!\w)['\u2018\u2019]|['\u2018\u2019](?!\w)")


def _bare_verdict(clause: list[str]) -> bool:
    """A clause that is nothing but a directive or a routing verb ("never", "flag",
    "escalate", "not allowed"): the verdict on what the clauses before it name."""
    return bool(clause) and len(clause) <= 3 and (
        phrase_at(clause, 0, "directive") == len(clause) or phrase(clause, 0, "escalate") == len(clause))


def _noun_phrase(clause: list[str]) -> bool:
    """A few words with no verb of their own ("marketing add-ons", "partial or full"; not
    "office manager DECIDES")."""
    return 0 < len(clause) <= 6 and not any(
        t in WORDS["aux"] or t in MODALS or t in _SUBJECT_PRONOUNS or phrase_at(clause, k, "directive")
        or _finite(t) for k, t in enumerate(clause))


def _finite(token: str) -> bool:
    """An inflected form of a word that is only a verb ("decides", "approved")."""
    entry = readings(token)
    return set(entry) == {"VERB"} and token not in entry["VERB"]


def _so_directs(tokens_: list[str], j: int) -> bool:
    """Whether a forbidding directive opens tokens_[j:], after a "please" ("so PLS NEVER …")."""
    if j < len(tokens_) and tokens_[j] in _PLEASE:
        j += 1
    return j < len(tokens_) and tokens_[j] in _COMMA_DIRECTIVES and bool(phrase_at(tokens_, j, "directive"))


def _spliced(tokens_: list[str], j: int) -> bool:
    """Whether tokens_[j:] opens a sentence of its own: a subject and its finite verb ("we
    WILL text", "it SOAKS", "the glue HAS to", "our kitchen IS …"), or an imperative after
    "just", "instead" or "please" ("just TELL ppl …") or before its object pronoun ("TELL
    THEM to …"). A list's next item has neither."""
    head = tokens_[j : j + 5]
    if not head:
        return False
    if head[0] in _SPLICE_IMPERATIVE:
        return len(head) > 1 and head[1] in readings(head[1]).get("VERB", ())
    if len(head) > 2 and head[1] in ("them", "him", "her") and head[0] in readings(head[0]).get("VERB", ()):
        return True  # "…, TELL THEM to call the inspector", "…, SEND HIM to the front desk"
    if head[0] in _SPLICE_SUBJECTS:
        return len(head) > 1 and (head[1] in WORDS["aux"] or head[1] in MODALS or "VERB" in readings(head[1]))
    if head[0] in _SPLICE_DETERMINERS:
        # "the glue HAS", "our deposit policy IS", "the billing team DECIDES": a finite
        # auxiliary or a word that is only a verb within the subject's next words
        return any(t in WORDS["aux"] or t in MODALS or t in ("has", "have") or _finite(t) for t in head[2:4]) \
            and not any(t in (",", "or", "and") for t in head[1:3])
    return False


_SPLICE_IMPERATIVE = frozenset({"just", "instead"}) | _PLEASE
_SPLICE_SUBJECTS = frozenset("we they it you i he she there".split())
_SPLICE_DETERMINERS = frozenset("the our your their my his her its this that these those".split())


# the words that open an exception before a rule (`_exception_first`)
_EXCEPTIONS = frozenset({"except", "unless", "apart", "other", "save"})
# the directives that open a second rule after a comma (not "not": "say X, NOT Y" corrects)
_COMMA_DIRECTIVES = frozenset({"don't", "dont", "never", "do", "avoid"})


def _routed(clause: list[str]) -> list[str]:
    """"roof q's -> send to site surveyor", "lockouts w/ a kid inside = emergency": the
    case on the arrow's left is escalated; what the right names is where it goes."""
    arrow = next((i for i, token in enumerate(clause) if token in _ARROWS), None)
    if arrow is None:
        return clause
    case = [t for t in clause[:arrow] if t not in _ARROWS]
    if _forbids(case):
        return case  # "no guessing where lines are -> tell them to call 811": a rule, then what to do instead
    return ["escalate", *case] if case else []


def _dashes_read(tokens_: list[str]) -> list[str]:
    """Each dash as the clause end or the list mark it stands for (see `_DASHES`)."""
    out: list[str] = []
    for i, token in enumerate(tokens_):
        if token in _DASHES:
            following = tokens_[i + 1 : i + 3]
            goes_on = bool(following) and (following[0] in _LIST_GOES_ON or " ".join(following) in _LIST_GOES_ON)
            if not goes_on and out and _examples(tokens_, i + 1):
                out += [",", "such", "as"]  # "No electrical troubleshooting - inverter faults, tripped breakers, wiring"
                continue
            token = "," if goes_on else ";"  # "\u2014 such as …": the list goes on
        out.append(token)
    return out


def _examples(tokens_: list[str], start: int) -> bool:
    """Whether what follows a dash, up to the clause's end or the next dash, is a list of
    short noun phrases with no verb of its own: examples of what the rule before it names."""
    end = next((j for j in range(start, len(tokens_)) if tokens_[j] in _CLAUSE_END or tokens_[j] in _DASHES),
               len(tokens_))
    span = tokens_[start:end]
    if "," not in span:
        return False
    items_: list[list[str]] = [[]]
    for token in span:
        if token == ",":
            items_.append([])
        else:
            items_[-1].append(token)
    return all(0 < len(item) <= 6 for item in items_) and not any(
        t in WORDS["aux"] or t in MODALS or phrase_at(span, k, "directive") or phrase(span, k, "escalate")
        for k, t in enumerate(span))


def about_others(rule: str) -> bool:
    """Whether a rule's first clause guards other people's information ("another
    customer's", "whether someone has …"): then other-experiencer cues set nothing aside."""
    low = rule.lower()
    if not any(word in low for word in _OTHERS_FIRST_WORDS):
        return False  # most rules name no other person: no need to read them
    first = (clauses(tokens(rule)) or [[]])[0]
    return any(phrase_at(first, i, "others") for i in range(len(first)))


def in_list(kind: str, word: str) -> bool:
    """`word` or one of its lemmas is in list `kind` ("telling" is a framing verb)."""
    listed = WORDS.get(kind, frozenset())
    return word in listed or any(lemma in listed for lemma in lemmas(word))


def phrase(tokens_: list[str], i: int, kind: str) -> int:
    """Like `phrase_at`, with the first word of the phrase matched by its lemmas too."""
    n = phrase_at(tokens_, i, kind)
    if n or i >= len(tokens_):
        return n
    for lemma in lemmas(tokens_[i]):
        n = phrase_at([lemma, *tokens_[i + 1 : i + 4]], 0, kind)
        if n:
            return n
    return 0


def rule_clauses(rule: str, ages: bool = False) -> tuple[list[list[str]], list[str]]:
    """The clauses that state the rule (the first, after its label if it has one, and any
    later one that opens with a directive, "…; no wire transfers or gift cards", that binds
    the agent, "Agents must not …", or that routes a case, "Flag any reply …"), and the
    words of the rest (its rationale: "…; refunds are decided by the billing team")."""
    written = tokens(_BRACKETED_CODE.sub("", rule, count=1))
    written = written[_numbering(written):]  # "6.1 The agent must not …", "(b) never …": its place in a list
    opened = _opener(written)
    written = written[opened:]  # "heads up team - …", "hey all, …": said to the team, not of the rule
    written = written[_role_preamble(written):]  # "As the Acme billing assistant, you never …"
    written = _without_intensifiers(written)  # "Do not, under any circumstances, …"
    if ages:
        written = _age_classes(written)  # "clients UNDER 18": the under-18s
    written = _straight_to_routing(written)  # "If …, STOP AND flag it", "…, THEN hand it to a human"
    written = _verdicts(written)  # "Diagnosis by chat - not allowed." as "… is not allowed"
    written = _colon_examples(written)  # "… hazardous goods: lithium batteries, fuel, …" as "such as"
    split = [_time_named(_passive(_prohibition(_impression(clause))))
             for clause in clauses(written, not _QUOTES.search(rule))]
    if split and split[0] and split[0][0] in _FRONTED and "," in split[0]:
        split = [*_unfronted(split[0]), *split[1:]]
    if len(split) > 1 and _fronted(split[0]) and (_forbids(split[1]) or bound_party(split[1])):
        # "During a change freeze, never approve …": a phrase of time or place put first
        # says when or where the rule applies, as it does at the end
        split = [[*split[1], *split[0]], *split[2:]]
    heading: list[str] = []
    if len(split) > 2 and _heading(split[0]) and not _forbids(split[1]) and not phrase(split[1], 0, "escalate") \
            and _instructs(split[2]) and _forbids(split[2]) and not _names_its_own(split[2]) \
            and _names_a_thing(split[1][:2]) and not _only_this(split[1]) and not _STANDS_FOR.isdisjoint(split[2]):
        # "Pricing: VOLUME DISCOUNTS over 15% need a signed amendment. Agents can't offer
        # THEM": the pronoun stands for what the sentence after the heading names, and that
        # sentence opens the rule as it would with no heading
        heading, split = split[0], split[1:]
    # a precondition or a party that has the matter states the rule in its first clause
    # unless a later one forbids something of its own: then it is the rule's reason
    # ("Intake NEEDS 48 hours, so don't offer same-day starts"; not "Tankless pricing NEEDS
    # a site visit. Don't quote IT over chat")
    stating = not any(_forbids(c) and not _PRONOUN_OBJECTS.intersection(c) for c in split[1:])
    found = _question(_record([_kept_secret(_needs_approval(clause, stating and not n))
                               for n, clause in enumerate(split)])) or [[]]
    asked = [(c, p) for c in found if (p := _proposition(c))]  # "Can parents bring …?", "People ask if …"
    if len(found) > 1 and _cites(found[0]) and not _forbids(found[0]) \
            and (_forbids(found[1]) or phrase(found[1], 0, "escalate")):
        found = found[1:]  # "Per our privacy policy, never share …": the citation is no topic
    if len(found) > 1 and _permits(found[0]) and any(map(_forbids, found[1:])):
        found = found[1:]  # "You can share general pricing; never quote a final bill": what is allowed is no topic
    reason: list[str] = []
    if len(found) > 1 and declares(found[0]) and any(_forbids(c) and _names_its_own(c) for c in found[1:]):
        # "Our forge throws sparks. Never agree to hot shoe a horse in a straw barn": what is
        # so, before a sentence that forbids a thing of its own, is the rule's reason
        reason, found = found[0], found[1:]
    corrected = _corrected(found[0])
    if corrected is not None:
        # "Say 'X', not 'Y'", "Instead of promising X, tell them Y": the wording recommended
        # is neither the topic nor a rationale that repeats it
        found = [corrected, *found[1:]]
    found = [_routed_condition(_asked(_only_party(_checked_first(_exception_first(found[0]))))), *found[1:]]
    label = _label(found[0]) if len(found) > 1 else None
    if label is not None:
        # "BLOCK: telling a customer …", "flag - anything telling …": a label that says what
        # the rule does, then the rule itself
        found = [[label, *found[1]] if label else found[1], *found[2:]]
    if len(found) > 1 and _routes_only_to(found[0]):
        # "Route to the QA manager: any mention of a failed proficiency test": a routing
        # that names only where the case goes, then the case
        found = [[*found[0][: phrase(found[0], 0, "escalate")], *found[1]], *found[2:]]
    if len(found) > 1 and label is None and _COLON_HEADING.match(rule) and _heading(found[0]) \
            and _forbids(found[1]) and _repeats_head(found[0], found[1]):
        # "Riding hats: never say a HAT is safe …", "Warranty: do not confirm WARRANTY cover
        # …": the rule names the heading's thing itself, in the words it forbids; the
        # heading alone would guard every mention of it
        found = found[1:]
    stated: list[list[str]] = found[:1]
    rationale: list[list[str]] = []
    later = found[1:]
    if later and label is None and _dash_after_first(written) and _heading(found[0]) and _instructs(later[0]) \
            and not _names_its_own(later[0]):
        # "battery backup sizing - dont spec it yourself, book an energy consultant": a
        # heading names the topic, and what follows says what to do with it ("it"); one
        # that names its own ("Sizing - don't tell anyone A SIZE will definitely FIT") is
        # stated with it
        rationale.append(later.pop(0))
    # "Upsells: marketing add-ons - flag.": a bare verdict at the end applies to every
    # short noun phrase before it, the heading's specification as much as the heading
    verdict = bool(later) and _bare_verdict(later[-1])
    for clause in later:
        if verdict and clause is not later[-1] and _noun_phrase(clause):
            stated.append(clause)
            continue
        words_ = [t for t in clause if t[:1].isalnum()]
        if words_[-1:] == ["instead"] or words_[:2] == ["not", "even"] or words_[:1] == ["even"]:
            # "…, offer the headboard INSTEAD": what to do instead (as `_tells_what_to_do`); "…
            # never ship - NOT EVEN for research": the rule insisted on, no case of its own
            continue
        opens, n = _directive(clause)  # "Agents must not …", "The assistant should never …"; not "always use …"
        forbids = bool(n) and not _refers_back(clause[opens + n :])
        # "Our reps are not clinicians. FLAG any reply where …": a routing verb states a rule
        # too; "…; refer THE FAMILY to the VA" sends on someone already named, and "Refer to
        # parking appeals" names only where to: what to do instead. The imperative is the
        # verb's base form ("LEAVING can abandon it", "HOLDS are first come": subjects)
        routes = not opens and bool(n := phrase_at(clause, 0, "escalate")) and len(clause) > 2 \
            and not clause[0].endswith("ing") and not _sends_on(clause[n:]) and not _routes_only_to(clause) \
            or _routed_passive(clause)
        # after a sentence that forbids, one that sends cases on ("Never advise …. REFER
        # wound questions to the nurse") says where they go instead; one that holds replies
        # ("FLAG replies that …") is a rule of its own
        routes = routes and (clause[0] in _HOLDS_REPLIES or not _forbids(stated[0]))
        # "Flag spoilers: ANYTHING revealing the plot …": after a routing, a case that "any"
        # opens names what is routed ("EVERY kit is packed in …" says what is so)
        case = bool(clause) and clause[0] in _ANY and bool(found[0]) and bool(phrase(found[0], 0, "escalate"))
        if forbids or routes or case or _forbids_passively(clause):
            stated.append(clause)
        elif not _tells_what_to_do(clause):
            rationale.append(clause)
    if asked and any(map(_says_only_yes, stated)):
        # "Can parents bring their children to class? No - don't tell them THEY CAN", "People
        # ask if the meat is halal. It isn't, so never say IT IS": what may not be said is
        # the answer that the question asks for (and the question is no rationale)
        question, proposition = asked[-1]
        stated = [["never", "say", *proposition] if _says_only_yes(c) else c for c in stated if c is not question]
        rationale = [c for c in rationale if c is not question]
    # "… with a parent present - KIDS' SESSIONS ONLY": what alone is allowed shares its
    # words with the rule to set them apart, not to repeat its topic
    rationale = [c for c in rationale if not _only_this(c)]
    return stated, [*heading, *reason, *(t for c in rationale for t in c)]


def _only_this(span: list[str]) -> bool:
    """A short phrase that ends in "only" and states no rule ("main line only", "kids'
    sessions only", "launch boats are ops only"): what or who alone is allowed."""
    words_ = [t for t in span if t[:1].isalnum()]
    return 1 < len(words_) <= 6 and words_[-1] == "only" and not any(
        phrase_at(words_, k, "directive") or t in MODALS for k, t in enumerate(words_[:-1]))


# words that make a clause state a rule, not what is so: a duty, a need, a permission, a
# limit or a case ("Refunds MUST be approved", "ONLY a manager …", "IF a caller asks …")
_DEONTIC = frozenset(
    "must mustn't should shouldn't shall need needs needed require requires required only allowed permitted "
    "prohibited forbidden banned may not never no nothing nobody cannot can't won't isn't aren't don't doesn't "
    "if when whenever unless any anything anyone anybody someone whether confidential private secret internal".split())
_DETERMINERS = frozenset("the our your their its this that these those each every".split())


def declares(clause: list[str]) -> bool:
    """Whether a clause says what is so (`fact_verb`): a sentence that states no rule."""
    return bool(fact_verb(clause))


def fact_verb(clause: list[str]) -> int:
    """Where the verb of a clause that says what is so stands, or 0 where it says no such
    thing: a subject and a present verb ("OUR FORGE THROWS sparks", "IT TAKES five days",
    "Hot tub CLOSES at 10pm", "Results TAKE 2-3 business days"), or a subject, "is"/"are"
    and what is so ("Mail scans ARE ready within a day"). Not a clause of duty, limit or
    case (`_DEONTIC`: "phone numbers stay PRIVATE"), a permission or a routing
    ("Cancellations GO TO the account team")."""
    at = _fact_verb(clause)
    if at and any(phrase(clause, k, "escalate") for k in range(at, len(clause))):
        return 0  # "… ARE ESCALATED to a lead", "… FORWARD it to billing": a routing (not "gym PASSES expire")
    return at


def _fact_verb(clause: list[str]) -> int:
    """`fact_verb` before the check for a routing after the verb."""
    if len(clause) < 3 or any(t in _DEONTIC for t in clause) or _permits(clause) or phrase(clause, 0, "escalate"):
        return 0
    for i in range(1, min(len(clause) - 1, 6)):
        token, after = clause[i], clause[i + 1]
        if token in _BE_FINITE:  # "Court mail IS forwarded sealed", "Mail scans ARE ready within a day"
            return i if _names_a_thing(clause[:i]) else 0
        if token in WORDS["aux"]:
            return 0
        # "Mortgage lenders OFTEN ask …": an adverb of frequency between subject and verb
        j = next(k for k in range(i, 0, -1) if k == 1 or not _adverb(clause[k - 1]))
        if "VERB" not in part_of_speech(token) or not _names_a_thing(clause[:j]) and not (
                clause[0] in ("it", "he", "she", "we", "they") and j == 1):
            continue
        if token in lemmas(token):
            if (clause[j - 1].endswith("s") and "NOUN" in part_of_speech(clause[j - 1]) or clause[j - 1] in ("we", "they")) \
                    and after != "to":
                return i  # "Results TAKE 2-3 business days", "We RUN an approved trader scheme"
            continue
        if not token.endswith("s"):
            continue
        # "OUR FORGE throws sparks": after a determiner, an object may follow; after a bare
        # noun ("Hot tub CLOSES at 10pm") only a preposition or a number, as a heading of
        # nouns reads the same otherwise ("account HOLDS"…)
        determined = clause[0] in ("it", "he", "she") or clause[0] in _DETERMINERS
        if determined and (after in _DETERMINERS or after[:1].isalpha() and after not in WORDS["closed"]
                           and part_of_speech(after) != {"VERB"}) \
                or after in WORDS["preposition"] or after[:1].isdigit():
            return i
    return 0


_BE_FINITE = frozenset({"is", "are", "was", "were"})


def _adverb(token: str) -> bool:
    """Whether a word is only an adverb or adjective, an adverb to the dictionary ("often",
    "usually", "typically"): no noun or verb that could head or end a subject."""
    kinds = part_of_speech(token)
    return "ADV" in kinds and not kinds & {"NOUN", "VERB"} and token not in WORDS["preposition"] \
        and token not in WORDS["particle"]


def _names_a_thing(subject: list[str]) -> bool:
    """Whether the words before a verb are a noun phrase ("mail SCANS", "the check HOLD"),
    or several joined by "and"/"or" ("condensation AND black mould"): determiners,
    modifiers and a noun last, no pronoun or verb of its own."""
    if len(subject) > 2 and any(t in ("and", "or") for t in subject[1:-1]):
        parts: list[list[str]] = [[]]
        for t in subject:
            if t in ("and", "or"):
                parts.append([])
            else:
                parts[-1].append(t)
        return all(map(_names_one_thing, parts))
    return _names_one_thing(subject)


def _names_one_thing(subject: list[str]) -> bool:
    """`_names_a_thing` of one noun phrase."""
    return bool(subject) and "NOUN" in part_of_speech(subject[-1]) and all(
        t in _DETERMINERS or t[:1].isalnum() and t not in WORDS["closed"] and (
            part_of_speech(t) != {"VERB"} or k < len(subject) - 1 and t.endswith("ed") and t not in lemmas(t))
        for k, t in enumerate(subject))  # a participle describes the noun after it: "LISTED buildings"


def _proposition(clause: list[str]) -> list[str]:
    """What a question asks is so ("CAN parents bring their children to class", "people ASK
    IF the meat is halal"): its words from the subject on; [] for a clause that asks nothing."""
    if len(clause) > 3 and clause[0] in _QUESTION_AUX and clause[1][0].isalpha() and clause[1] not in _QUESTION_AUX:
        return clause[1:]
    for i in range(len(clause) - 3):
        if any(lemma == "ask" for lemma in lemmas(clause[i])) and clause[i + 1] in ("if", "whether"):
            return clause[i + 2 :]
    return []


def _says_only_yes(clause: list[str]) -> bool:
    """A prohibition to say what points back, and nothing else ("don't tell them THEY CAN",
    "never say IT IS", "never say SO", "don't tell them OTHERWISE")."""
    opens, n = _directive(clause)
    rest = clause[opens + n :]
    while rest and rest[0] in ("never", "not", "don't", "dont", ","):
        rest = rest[1:]
    if not n or not rest or not (in_list("framing", rest[0]) or in_list("tell", rest[0])):
        return False
    return bool(rest[1:]) and all(t in _BACK_REFERENCES for t in rest[1:])


_QUESTION_AUX = frozenset("can could is are do does will may should would did has have".split())
# the words of an answer that points back at a question ("they CAN", "it IS", "SO", "OTHERWISE")
_BACK_REFERENCES = frozenset(
    "them him her it they he she so yes otherwise can is are will does do could would be it's they're was were "
    "has have that".split())


_PRONOUN_OBJECTS = frozenset("them him her it us me you".split())
# verbs that report what is said ("TELL the contractor the written approval will follow"):
# what the agent is to say instead speaks of the same thing, so its words stay in the rationale
_SAYING = frozenset("tell say explain inform remind answer reply respond state".split())


def _tells_what_to_do(clause: list[str]) -> bool:
    """A later clause that tells the agent what to do or give instead ("Send the juror
    the online deferral form", "Offer them the next draw", "Suggest a guided dive"): an
    imperative, whose words are what the rule allows, not a rationale that repeats its
    topic. A verb of saying is left to the rationale (`_SAYING`); a clause that opens
    with a noun ("Plot maps change", "Licenses are …") is no imperative."""
    at = 1 if clause and clause[0] in _PLEASE else 0
    if len(clause) < at + 2:
        return False
    verb, after = clause[at], clause[at + 1]
    if verb not in readings(verb).get("VERB", ()) or verb in _SAYING:
        return False  # not the base form of a verb, or a verb of saying
    # a word that may be a noun too ("plot", "direct") is a verb only before its object
    return after in OBJECT_OPENERS or after in _PRONOUN_OBJECTS or not {"NOUN", "ADJ"} & set(readings(verb))


def _impression(clause: list[str]) -> list[str]:
    """"Never LET a customer THINK they can skip the test", "don't MAKE guests BELIEVE …",
    "never LEAD a member TO BELIEVE …": leading someone to believe something is telling
    it to them, read as "Never tell a customer they can skip the test" (what they would
    believe is the topic, not the believing)."""
    for i, token in enumerate(clause):
        if token not in _CAUSATIVES:
            continue
        for j in range(i + 2, min(i + 6, len(clause))):
            if clause[j] in _BELIEVING:
                end = j - 1 if clause[j - 1] == "to" else j
                return [*clause[:i], "tell", *clause[i + 1 : end], *clause[j + 1 :]]
        return clause
    return clause


_CAUSATIVES = frozenset({"let", "lets", "make", "makes", "lead", "leads"})
_BELIEVING = frozenset({"think", "believe", "feel", "assume", "expect", "imagine"})


def _colon_examples(tokens_: list[str]) -> list[str]:
    """"Do not accept hazardous goods: loose lithium batteries, fuel, gas cylinders": after
    a rule that forbids, a colon before a list of noun phrases (no directive, auxiliary,
    pronoun subject or clause of its own) opens the examples of what it names, as "such as"
    does; a heading before a colon ("Riding hats: never …") is no rule, and stays."""
    if ":" not in tokens_:
        return tokens_
    i = tokens_.index(":")
    before = tokens_[:i]
    end = next((j for j in range(i + 1, len(tokens_)) if tokens_[j] in _SENTENCE_ENDS), len(tokens_))
    after = tokens_[i + 1 : end]
    if not any(phrase_at(before, k, "directive") for k in range(len(before))) \
            or len(after) < 3 or not any(t in (",", "or", "and") for t in after) \
            or any(phrase_at(after, k, "directive") or phrase(after, k, "escalate") or t in WORDS["aux"]
                   or t in MODALS or t in _SUBJECT_PRONOUNS or t in _CLAUSE_WORDS for k, t in enumerate(after)):
        return tokens_
    if before[-1:] in (["following"], ["below"], ["these"]):  # "discuss THE FOLLOWING: salaries, …": the list is the object
        before = before[: -2 if before[-2:-1] == ["the"] else -1]
        return [*before, *after, *tokens_[end:]]
    return [*before, "such", "as", *after, *tokens_[end:]]


_CLAUSE_WORDS = frozenset({"to", "that", "which", "who", "whose", "where", "when", "if", "unless", "because"})


def _verdicts(written: list[str]) -> list[str]:
    """"Diagnosis by chat - NOT ALLOWED.", "Refund promises: prohibited": a noun phrase, a
    dash or colon, and a participle of forbidding that ends the sentence is a verdict on
    what comes before it, read as "Diagnosis by chat IS not allowed" (`_passive`). A
    forbidding phrase that goes on ("Not allowed: promising refunds") names a field
    (`_record`), and so does one that opens the sentence."""
    out = list(written)
    for i, token in enumerate(written):
        if token not in _DASHES and token != ":" or not i or written[i - 1] in _CLAUSE_END:
            continue
        n = phrase_at(written, i + 1, "forbidden")
        if n and (i + 1 + n == len(written) or written[i + 1 + n] in _SENTENCE_END or written[i + 1 + n] == ","):
            out[i] = "is"  # "… - not allowed.", "…: not our call, the water company decides"
    return out


_SENTENCE_END = frozenset(".!;")
_SENTENCE_ENDS = _SENTENCE_END | {"?"}


def _role_preamble(written: list[str]) -> int:
    """How many tokens say whose voice the rule is written for ("As the Acme billing
    assistant, …"): the role and its product name, then the comma; 0 when there is none."""
    if len(written) < 5 or written[0] != "as" or "," not in written[2:10]:
        return 0
    comma = written.index(",", 2)
    return comma + 1 if in_list("actor", written[comma - 1]) and comma + 1 < len(written) else 0


def _without_intensifiers(written: list[str]) -> list[str]:
    """The rule less the phrases that only insist ("under any circumstances", "at any
    time", "whatsoever"), with the commas that set one apart."""
    if not may_hold(written, "intensifier"):
        return written  # most rules insist on nothing
    out: list[str] = []
    i = 0
    while i < len(written):
        n = phrase_at(written, i, "intensifier")
        if n:
            if out and out[-1] == "," and i + n < len(written) and written[i + n] == ",":
                out.pop()  # ", under any circumstances," : both commas go
            elif (not out or out[-1] in _CLAUSE_END) and written[i + n : i + n + 1] == [","]:
                n += 1  # "In particular, don't …": the comma after one that opens a sentence
            i += n
            continue
        out.append(written[i])
        i += 1
    return out


def _straight_to_routing(written: list[str]) -> list[str]:
    """Without the words that may stand between a comma and the verb that routes a case
    or forbids ("If someone asks for X, STOP AND hand it to a human", "…, THEN flag it"):
    the clause reads as the plain routing does."""
    out: list[str] = []
    i = 0
    while i < len(written):
        out.append(written[i])
        if written[i] == ",":
            j = i + 1
            while j < len(written) and written[j] in _BEFORE_ROUTING:
                j += 1
            if j > i + 1 and (phrase(written, j, "escalate") or phrase_at(written, j, "directive")):
                i = j
                continue
        i += 1
    return out


# what may stand between a comma and the verb of a rule's instruction ("stop and", "then")
_BEFORE_ROUTING = frozenset({"stop", "pause", "and", "then", "just", "immediately"}) | _PLEASE


def _permits(clause: list[str]) -> bool:
    """Whether a clause grants a permission ("You may help customers choose frames",
    "You can share general pricing", "Feel free to explain …")."""
    start = bound_party(clause) if clause and clause[0] not in ("you", "we") else 1
    return bool(clause) and (clause[start : start + 1] in (["may"], ["can"]) or clause[:3] == ["feel", "free", "to"]
                             or clause[start : start + 3] in (["are", "free", "to"], ["are", "welcome", "to"]))


def _directive(clause: list[str]) -> tuple[int, int]:
    """Where a clause's forbidding directive starts (after the party it binds) and how many
    tokens it spans; (start, 0) when the clause forbids nothing ("Always use …")."""
    opens = bound_party(clause)
    if opens < len(clause) - 1 and clause[opens] in _PLEASE and clause[opens + 1] not in POSITIVE_DIRECTIVES:
        opens += 1  # "pls never …": the directive after the please
    for k in (1, 2):  # "ALSO never …", "AND never …", "SPECIFICALLY don't …": a connective before it
        if all(t in _CONNECTIVES or part_of_speech(t) == {"ADV"} and not phrase_at([t], 0, "directive")
               for t in clause[opens : opens + k]) \
                and phrase_at(clause, opens + k, "directive"):
            opens += k
            break
    n = phrase_at(clause, opens, "directive")
    return opens, n if n and " ".join(clause[opens : opens + n]) not in POSITIVE_DIRECTIVES else 0


_CONNECTIVES = frozenset({"and", "but", "or", "nor", "plus", "then", "so"})


def _fronted(clause: list[str]) -> bool:
    """Whether a clause is a phrase of time or place alone ("WITHIN 14 days of the event",
    "ON weekends", "AFTER 6pm"): a preposition that locates, then no verb of its own."""
    return clause[0] in _FRONTED and len(clause) <= 8 and not any(
        t in WORDS["aux"] or t in MODALS or phrase_at(clause, k, "directive") for k, t in enumerate(clause))


def _unfronted(clause: list[str]) -> list[list[str]]:
    """`rule_clauses`' first clause split as two where a phrase of time or place and a comma
    come before the party the rule binds ("Within 14 days, AGENTS must not …")."""
    k = clause.index(",")
    rest = clause[k + 1 :]
    return [clause[:k], rest] if _fronted(clause[:k]) and rest and bound_party(rest) else [clause]


# prepositions of time and place: the phrase after one says when or where, not what
LOCATING = frozenset("during in at near within throughout after before since until inside outside under over "
                     "across along around behind below above beneath".split())
# … and those that put such a phrase before the rule ("WITHIN 14 days, …", "ON weekends,
# …"); "under" and "per" there cite ("Under GDPR, …", "Per policy, …")
_FRONTED = LOCATING - {"under"} | {"on", "between", "from"}


def _time_named(clause: list[str]) -> list[str]:
    """A noun of when ("date", "ETA", "timeframe") named by a "for", "of" or "on" phrase read
    as that phrase's noun modifying it: "a date FOR A SMART METER INSTALLATION" is "a smart
    meter installation date", which guards what is to happen as "a delivery date" does.
    The phrase runs over nouns and adjectives to the first function word or punctuation."""
    for i in range(1, len(clause) - 2):
        if clause[i + 1] not in ("for", "of", "on") or not in_list("attribute_of_time", clause[i]):
            continue
        before = clause[i - 1]
        if before in WORDS["preposition"]:
            continue  # "IN time for their flight": no noun phrase of its own
        if before[:1].isalpha() and before not in WORDS["closed"] and not in_list("light_adj", before) \
                and not in_list("framing", before) and (part_of_speech(before) & {"NOUN", "ADJ"} or not part_of_speech(before)):
            continue  # "a DELIVERY date for custom doors", "GA dates for …": a word before names it already
        j = i + 2
        while j < len(clause) and clause[j] in OBJECT_OPENERS:
            j += 1
        k = j
        while k < len(clause) and clause[k][:1].isalpha() and clause[k] not in WORDS["closed"] \
                and (part_of_speech(clause[k]) & {"NOUN", "ADJ"} or not part_of_speech(clause[k])) \
                and not in_list("cut", clause[k]):
            k += 1
        if k > j:
            return [*clause[:i], *clause[j:k], clause[i], *_time_named(clause[k:])]
    return clause


def _forbids(clause: list[str]) -> bool:
    return bool(_directive(clause)[1])


def _record(found: list[list[str]]) -> list[list[str]]:
    """A rule written as a row of a table, field by field ("Trigger: … | Action: escalate to
    …", "When: … Then: do not …", "Risk: … Rule: never …", "Wrong: '…' Right: '…'"), as the
    clauses `rule_clauses` reads: first what the rule forbids or routes, then the rest.

    A field that forbids ("Not allowed:", "Wrong:", "Agent must not:") forbids what it
    holds; a field of what to do ("Action:", "Then:", "Response:") states the rule when it
    forbids or routes something; one that names a destination alone ("escalate to a
    supervisor") routes the case its record names ("Trigger:", "Case:", "When:"), which
    is otherwise the rule's context, as is what a record allows ("Allowed:", "Right:").
    "IF … THEN …" is a record of two fields. Clauses that are no record come back as they are."""
    if len(found) == 1 and not (found[0][:1] == ["if"] and "then" in found[0]):
        return found  # one clause, no "IF … THEN": no record
    fields: list[tuple[str, list[str], list[str]]] = []  # (kind, what the field holds, its name)
    i = 0
    while i < len(found):
        clause = found[i]
        kind = _field(clause) if i + 1 < len(found) else ""
        if kind and len(found[i + 1]) <= 3 and found[i + 1][-1] == "only":
            kind = ""  # "Deposit refunds: BLOCK - MGMT ONLY": who alone may, no field's value
        if kind:
            fields.append((kind, found[i + 1], clause))
            i += 2
            continue
        if clause and clause[0] == "if" and "then" in clause[2:-1]:  # "IF X THEN no Y"
            at = clause.index("then", 2)
            fields += [("case", clause[1:at], ["if"]), ("rule", clause[at + 1 :], ["then"])]
        else:
            fields.append(("", clause, []))
        i += 1
    if all(kind == "" for kind, _, _ in fields):
        return found
    case = next((value for kind, value, _ in fields if kind == "case"), None)
    stated: list[list[str]] = []
    rest: list[list[str]] = []
    for kind, value, name in fields:
        if kind == "wrong":  # "Wrong: 'Your discount applies to everything.'" is a thing said
            said = " ".join(name) in WORDS["field_wrong"] and not in_list("framing", value[0])
            stated.append(["never", "say", *value] if said else ["never", *value])
        elif kind in ("rule", ""):
            routes = phrase(value, 0, "escalate")
            if _forbids(value):
                stated.append(value)
            elif routes and case is not None and value[routes : routes + 1] == ["to"]:
                stated.append([*value[:routes], "it", "if", *case])  # "Action: escalate to the NOC"
            elif routes:
                stated.append(value)
            else:
                rest.append(value)
        elif kind == "case":
            rest.append(value)  # the situation: the rule's context; what it allows is dropped
    return stated + rest if stated else [value for _, value, _ in fields]


def _question(found: list[list[str]]) -> list[list[str]]:
    """A reviewer's check written as a question and its verdict ("Does the reply promise
    X? Block it.", "Is the agent telling the customer X? Escalate."): read as "Never
    promise X" (a verdict that refuses) or "Escalate telling the customer X". Any other
    clauses as they are."""
    if len(found) < 2 or len(found[0]) < 3 or found[0][0] not in _QUESTION_AUX:
        return found
    verdict = found[1]
    n = phrase(verdict, 0, "escalate") or phrase_at(verdict, 0, "directive")
    if not n or len(verdict) - n > 3 or not all(t in _PLACEHOLDERS or t in _SUBJECT_OF_CHECK for t in verdict[n:]):
        return found
    question = found[0]
    i = 1
    while i < len(question) - 1 and (question[i] in _SUBJECT_OF_CHECK or in_list("actor", question[i])):
        i += 1  # "does THE REPLY …", "is THE AGENT …"
    refuses = phrase_at(verdict, 0, "directive") or verdict[0] in _REFUSALS
    return [["never" if refuses else verdict[0], *question[i:]], *found[2:]]


_QUESTION_AUX = frozenset({"does", "do", "did", "is", "are", "was", "will", "would", "can", "could", "has", "have"})
_SUBJECT_OF_CHECK = frozenset({"the", "a", "an", "this", "that", "any", "it", "its", "their", "our", "'s", "reply",
                               "replies", "draft", "drafts", "response", "responses", "message", "messages", "answer"})
_REFUSALS = frozenset({"block", "refuse", "reject", "deny", "decline", "fail", "stop"})


def _field(clause: list[str]) -> str:
    """What a clause that is only a field's name says of the next one: "wrong" (it holds
    what may not be said or done), "rule", "case", "ok"; "" for a clause that is no field name."""
    text = " ".join(clause)
    if text in WORDS["field_wrong"] or _label(clause) == "never" or (
            phrase_at(clause, bound_party(clause), "directive") == len(clause) - bound_party(clause)
            and clause[-1] not in POSITIVE_DIRECTIVES):  # "Agent must not:"
        return "wrong"
    for kind in ("rule", "case", "ok"):
        if text in WORDS[f"field_{kind}"]:
            return kind
    return ""


_SAY_INSTEAD = frozenset({"say", "use", "write", "tell", "reply", "answer", "respond", "offer"})


def _corrected(clause: list[str]) -> list[str] | None:
    """A correction of wording, as what it forbids: "Say 'X', not 'Y'" and "We say X, we
    never say Y" forbid Y; "Instead of promising X, tell them Y" and "Replace any promise
    of X with Y" forbid X. None for any other clause."""
    if len(clause) < 4:
        return None
    if clause[0] in ("instead", "rather") and clause[1] in ("of", "than") and "," in clause[3:]:
        return ["never", *clause[2 : clause.index(",", 3)]]
    if clause[0] == "replace" and "with" in clause[2:-1]:
        return ["never", *clause[1 : clause.index("with", 2)]]
    if "but" in clause[2:-2] and _permits(clause):  # "You may help choose frames, BUT you must never …"
        at = clause.index("but", 2)
        if clause[at - 1] == "," and _forbids(clause[at + 1 :]):
            return clause[at + 1 :]
    start = 1 if clause[0] in ("we", "you", "always") or clause[0] in _PLEASE else 0
    if clause[start] not in _SAY_INSTEAD or "," not in clause[start + 2 :]:
        return None
    at = clause.index(",", start + 2)
    after = clause[at + 1 :]
    opens, n = _directive(after)
    if not n:
        return None
    forbidden = after[opens + n :]
    if after[opens : opens + n] == ["not"] and forbidden and forbidden[0] not in _SAY_INSTEAD:
        forbidden = [clause[start], *forbidden]  # "say X, NOT Y": not say Y
    return ["never", *forbidden]


def _numbering(written: list[str]) -> int:
    """How many tokens number a rule in its document ("6.1", "(b)", "3)", "Section 4.2:"),
    with the mark after them; 0 when it is not numbered or nothing follows."""
    if not written or not (written[0][0].isdigit() or written[0] == "(" or written[0] in _SECTION_WORDS
                           or written[1:2] == [")"]):
        return 0  # most rules are not numbered
    n = 1 if written[0] in _SECTION_WORDS else 0
    if n < len(written) and _NUMBER.fullmatch(written[n]):
        n += 1
        if n < len(written) and written[n] == ")":
            n += 1
    elif n + 2 < len(written) and written[n] == "(" and written[n + 2] == ")" and _LIST_MARK.fullmatch(written[n + 1]):
        n += 3
    elif n + 1 < len(written) and written[n + 1] == ")" and _LIST_MARK.fullmatch(written[n]):
        n += 2
    else:
        return 0
    if n < len(written) and written[n] in (":", ".", "-", "--", "\u2014", "\u2013"):
        n += 1
    return n if n < len(written) else 0


_SECTION_WORDS = frozenset({"section", "clause", "article", "art", "rule", "item", "\u00a7"})
_NUMBER = re.compile(r"\d+(?:\.\d+)*\.?")
_LIST_MARK = re.compile(r"\d+|[a-z]|[ivx]{1,4}")


def _prohibition(clause: list[str]) -> list[str]:
    """"It is forbidden to quote …", "Agents are prohibited from quoting …": a directive
    said with a verb of forbidding, read as "Never quote …" and "Agents must not quote …";
    "Under no circumstance is the agent to accept …", "At no time should staff ask …": a
    negative adverbial and the inverted subject after it, read as "Never accept …"."""
    if len(clause) > 3 and clause[0] == "no":
        # "NO AGENT MAY recommend …", "no staff member should …", "no one may …": the party
        # denied the act, then the act, read as "Never recommend …"
        i = 1
        while i < len(clause) - 1 and i <= 3 and (in_list("actor", clause[i]) or clause[i] in ("one", "member")
                                                   or i < 3 and in_list("actor", clause[i + 1]) and _modifier(clause[i])):
            i += 1
        if i > 1 and clause[i] in MODALS and i + 1 < len(clause):
            return ["never", *clause[i + 1 :]]
    n = phrase_at(clause, 0, "directive") if clause and clause[0] in ("under", "at", "in", "on") else 0
    if n and n + 2 < len(clause) and clause[n] in _INVERTED:
        i = n + 1
        while i < len(clause) - 1 and i - n <= 4 and (clause[i] in WORDS["closed"] or in_list("actor", clause[i])) \
                and clause[i] != "to":
            i += 1  # "is THE AGENT to", "should STAFF"
        if clause[i] == "to":
            i += 1
        return ["never", *clause[i:]] if i < len(clause) else clause
    if len(clause) > 4 and clause[0] == "it" and clause[1] in ("is", "'s"):
        n = phrase_at(clause, 2, "forbidden")
        if n and clause[2 + n] == "to" and 3 + n < len(clause):
            return ["never", *clause[3 + n :]]
        return clause
    if _BE.isdisjoint(clause[1:6]):
        return clause  # no "is"/"are" near the start: nothing forbidden by a participle
    for i in range(1, min(6, len(clause) - 2)):
        if clause[i] in _BE:
            at = i + 2 if clause[i] in ("shall", "will", "may") and clause[i + 1] == "be" else i + 1
            n = phrase_at(clause, at, "forbidden")
            if n and at + n + 1 < len(clause) and clause[at + n] in ("to", "from"):
                return [*clause[:i], "must", "not", *clause[at + n + 1 :]]
            return clause
    return clause


def _passive(clause: list[str]) -> list[str]:
    """"Waivers of the fee are not permitted", "Credits for outages are not to be offered",
    "Any statement that … must be avoided", "No assurance of approval may be given": the
    subject is what the rule forbids, said before the verb that forbids it (a participle
    of forbidding, or a verb of saying or giving under a negation), read as "Never offer
    credits for outages". What follows the participle ("… by counter staff", "… without
    approval") says who or when, not what. A clause that opens with its directive or
    with the party it binds ("Agents are not permitted to …": `_prohibition`) is left."""
    if len(clause) < 4 or not _PASSIVE_AUX.intersection(clause) or clause[0] in _CLAUSE_SUBJECTS:
        return clause
    start = 1 if clause[0] == "no" else 0  # "NO assurance of approval may be given"
    if not start and (phrase_at(clause, 0, "directive") or in_list("actor", clause[0])):
        return clause
    for i in range(start + 1, len(clause) - 1):
        if clause[i] not in _PASSIVE_AUX:
            continue
        if clause[i - 1] in WORDS["closed"] or not any(_content(t) for t in clause[start:i]):
            continue  # "… that it IS …": no noun phrase before the verb
        j, negative = i, bool(start)
        while j < len(clause) and (clause[j] in _PASSIVE_AUX or clause[j] in _PASSIVE_LINKS):
            negative = negative or clause[j] in _NEGATIVE_WORDS or clause[j].endswith("n't")
            n = phrase_at(clause, j, "forbidden")  # "is NOT PERMITTED", "is STRICTLY PROHIBITED"
            if n:
                break
            j += 1
        if j >= len(clause):
            break
        n = phrase_at(clause, j, "forbidden")
        if n and j + n < len(clause) and clause[j + n] in ("to", "from"):
            return clause  # "Agents are PROHIBITED FROM quoting …": `_prohibition`'s
        verb = clause[j]
        framing = [lemma for lemma in lemmas(verb) if lemma != verb and lemma in WORDS["framing"]]
        if not n and not (negative and framing):
            continue
        rest = clause[j + (n or 1) :]
        if rest and (rest[0] == "by" or rest[0] == "," and rest[1:2] != ["e.g."] and not phrase_at(rest, 1, "split")
                     or rest[0] == "for" and len(rest) > 1 and in_list("actor", rest[-1])):
            # "… BY COUNTER STAFF", "… FOR SUPPORT AGENTS": who may not, not what; "…, the
            # water company decides": a clause of its own
            rest = []
        # "Customers who are minors must not be OFFERED ALCOHOL": the subject is who is told
        # or given, and what follows the participle is what; "Pets are not accepted IN
        # CARGO" goes on with its topic; a condition after it is cut as after any rule
        return ["never", framing[0] if framing else "mention", *clause[start:i], *rest]
    return clause


# the auxiliaries of a passive ("are NOT TO BE offered", "MUST NEVER BE given") and what
# may stand among them
_PASSIVE_AUX = frozenset(
    "is are was were be been being must shall should may can will would cannot can't mustn't shan't isn't aren't "
    "won't shouldn't mayn't".split()
)
_PASSIVE_LINKS = frozenset({"not", "never", "to", "ever", "strictly", "expressly", "absolutely", "in", "no", "way"})
_NEGATIVE_WORDS = frozenset({"not", "never", "cannot", "no"})


def _age_classes(tokens_: list[str]) -> list[str]:
    """The people a rule names by an age limit ("book CLIENTS UNDER 18", "guests under 21
    years old", "anyone under 16"): "under" and the number (and "years old" after it) as one word,
    "under-18s", whose topic matches an age in years below it as well. Read where the
    rule would otherwise guard nothing (`topics._derive`): the word for the people
    serves only to say who (an addressee: "clients", "guests"). A number with a unit after
    it is a limit ("customers under 50 kg"), not an age."""
    out: list[str] = []
    i = 0
    while i < len(tokens_):
        token = tokens_[i]
        if out and token in ("under", "below") and i + 1 < len(tokens_) and tokens_[i + 1].isdigit() \
                and 1 < int(tokens_[i + 1]) <= OLDEST_UNDER and _people(out[-1]):
            after = i + 2
            if tokens_[after : after + 1] in (["years"], ["yrs"], ["year"]):
                after += 2 if tokens_[after + 1 : after + 2] == ["old"] else 1
            if after >= len(tokens_) or not tokens_[after][:1].isalnum() or tokens_[after] in WORDS["closed"]:
                out.append(f"under-{tokens_[i + 1]}s")
                i = after
                continue
        out.append(token)
        i += 1
    return out


def _people(token: str) -> bool:
    """Who an age limit after it picks out: a noun of people ("CLIENTS under 18", "a new
    PATIENT under 16") or a pronoun of anyone at all ("ANYONE under 18", "someone under 21")."""
    return token in _ANY_ONE or _someone(token)


_ANY_ONE = frozenset("anyone anybody someone somebody everyone everybody".split())

# the oldest age an "under-N" names a group of people by: below it, an age in years
# names one of them (the matcher's keys for "under-18s": "your 14-year-old")
OLDEST_UNDER = 25


def _needs_approval(clause: list[str], first: bool) -> list[str]:
    """"Refunds over $100 require manager approval", "Any change to a delivery address
    needs a supervisor's sign-off": what needs someone's leave is what the rule guards,
    read as "Never mention refunds over $100"; whose leave it needs is no topic. In the
    sentence that states the rule (`first`), so is what needs anything first ("Drilling
    quotes REQUIRE a site visit" guards the quotes, not the visit)."""
    if len(clause) < 3 or phrase_at(clause, 0, "directive"):
        return clause
    for i in range(1, len(clause) - 1):
        if not any(lemma in ("require", "need") for lemma in lemmas(clause[i])):
            continue
        rest = clause[i + 1 : i + 6]
        if clause[i - 1] in WORDS["closed"]:
            return clause  # "… sit with the manager AND need …": no noun phrase right before it
        if not any(_content(t) for t in clause[:i]):
            return clause
        if any(in_list("permission", t) for t in rest):
            return ["never", "mention", *clause[:i]]
        if first and clause[i] in _REQUIRES and rest[0] != "to" \
                and not any(phrase_at(clause, j, "directive") or t in MODALS for j, t in enumerate(clause[:i])):
            return ["never", "mention", *clause[:i]]  # not "the time REQUIRED to …", "… NEEDS TO know"
        return clause
    return clause


_REQUIRES = frozenset({"require", "requires", "need", "needs"})


def _kept_secret(clause: list[str]) -> list[str]:
    """"Keep the seller's identity confidential", "Keep pricing under wraps": a directive
    that wraps what it guards, read as "Never disclose the seller's identity"."""
    opens = 0
    while opens < min(len(clause), 5) and clause[opens] not in ("keep", "keeps") and (
            clause[opens] in WORDS["closed"] or clause[opens] in MODALS or in_list("actor", clause[opens])):
        opens += 1  # "AGENTS MUST keep …", "THE ASSISTANT SHOULD ALWAYS keep …"
    if len(clause) - opens < 3 or clause[opens] not in ("keep", "keeps"):
        return clause
    for ending in SECRET:
        n = len(ending)
        if clause[-n:] == list(ending) and len(clause) - opens - n > 1:
            return ["never", "disclose", *clause[opens + 1 : -n]]  # the party it binds is no topic
    return clause


SECRET = (("confidential",), ("private",), ("secret",), ("internal",), ("quiet",), ("under", "wraps"),
           ("to", "yourself"), ("to", "ourselves"), ("in", "house"), ("in-house",))


_BE = frozenset({"is", "are", "shall", "will", "may"})
_INVERTED = frozenset({"is", "are", "should", "shall", "must", "may", "can", "will", "would", "do", "does"})


def _only_party(clause: list[str]) -> list[str]:
    """"Only the store manager may approve a return …": whoever else acts may not, so the
    rule reads "Never approve a return …"; the party named is who may, not the topic."""
    if len(clause) < 4 or clause[0] != "only":
        return clause
    for i in range(2, min(7, len(clause) - 1)):
        if clause[i] in _PERMISSIVE_MODALS:
            allowed = clause[i + 1 : i + 3] in (["allowed", "to"], ["permitted", "to"])
            if clause[i] in ("is", "are") and not allowed:
                return clause  # "only the manager IS responsible for …": no permission given
            n = 3 if allowed else 1
            return ["never", *clause[i + n :]] if i + n < len(clause) else clause
        token = clause[i]
        if token.endswith("s") and "VERB" in part_of_speech(token) and token not in lemmas(token) \
                and clause[i - 1] not in WORDS["closed"] and i + 1 < len(clause) and clause[i + 1] not in _CLAUSE_END \
                and not _PERMISSIVE_MODALS.intersection(clause[i + 1 : i + 4]):  # not "the credit DISPUTES team may"
            # "Only the supervisor AUTHORISES confined space entry": the act alone, as "may" gives it
            verb = next((lemma for lemma in lemmas(token) if lemma != token), token)
            return ["never", verb, *clause[i + 1 :]]
        if not _modifier(clause[i]) and clause[i] not in OBJECT_OPENERS:
            return clause
    return clause


_PERMISSIVE_MODALS = frozenset({"may", "can", "should", "shall", "is", "are"})


def _checked_first(clause: list[str]) -> list[str]:
    """"Always confirm the door weight before recommending an opener", "Make sure the
    permit is pulled before you schedule": what must wait for the check is what the rule
    guards, read as "Never recommend an opener"; the check is its condition, no topic."""
    opens = bound_party(clause)
    if opens < len(clause) - 1 and clause[opens] in _PLEASE:
        opens += 1
    n = phrase_at(clause, opens, "directive")
    if not n or " ".join(clause[opens : opens + n]) not in _CHECKING_DIRECTIVES:
        return clause
    rest = clause[opens + n + 1 :]  # the check names something before its "before"
    if "before" not in rest:
        return clause
    waiting = rest[rest.index("before") + 1 :]
    return ["never", *waiting] if any(_content(t) for t in waiting) else clause


_CHECKING_DIRECTIVES = frozenset({"always", "ensure", "make sure"})


def _opener(written: list[str]) -> int:
    """How many tokens open a rule as a note to a team: greetings or calls for attention,
    the words that address the team, and the mark after them ("heads up team -",
    "hey all,", "FYI:", "ok so …"). A discourse word alone with no mark after it opens the
    note only before a directive ("so pls never promise …"; "so the team …" keeps its
    "so", "ok to share …" its "ok"). 0 when the rule does not open so, or nothing follows."""
    n = chained = 0
    while m := phrase_at(written, n, "opener"):
        n, chained = n + m, chained + 1
        while n < len(written) and phrase_at(written, n, "opener_vocative"):
            n += phrase_at(written, n, "opener_vocative")
        if n < len(written) and written[n] in _OPENER_MARKS:
            n += 1
    if not n or n >= len(written):
        return 0
    if written[n - 1] not in _OPENER_MARKS and written[0] in ("so", "also", "ok", "okay") and chained == 1:
        rest = written[n:]
        at = 1 if rest[0] in _PLEASE else 0
        if not phrase_at(rest, at + bound_party(rest[at:]), "directive"):
            return 0  # "so the team …", "also …": an opener only before a mark or a directive
    return n


_OPENER_MARKS = frozenset({",", ":", ";", "-", "--", "\u2014", "\u2013", "!", "."})


def _asked(clause: list[str]) -> list[str]:
    """"If someone asks about the service fee, don't tell them it'll be waived": the
    condition names what is asked, the rule's clause refers to it ("it"): read as "don't
    tell them the service fee will be waived". Any other clause as it is."""
    if len(clause) < 4 or clause[0] not in _TRIGGERS or "," not in clause:
        return clause
    # the comma after which the rule's directive stands (commas of a list come before it)
    comma = next((i for i, t in enumerate(clause) if t == "," and phrase_at(clause, i + 1 + bound_party(clause[i + 1 :]), "directive")), None)
    if comma is None:
        return clause
    rule = clause[comma + 1 :]
    condition = clause[1:comma]
    ask = next((i for i, t in enumerate(condition) if in_list("framing", t) and i > 0), None)
    if ask is None:
        return clause
    asked = condition[ask + 1 :]
    while asked and asked[0] in _ASKED_OPENERS:
        asked = asked[1:]
    if not asked:
        return clause
    if "it" in rule:  # what the rule says of "it" is said of what was asked
        at = rule.index("it")
        return [*rule[:at], *asked, *rule[at + 1 :]]
    return [*rule, ",", *asked]


def _exception_first(clause: list[str]) -> list[str]:
    """"Except during an advertised promotion, never waive the joining fee": an exception
    before the rule names when it does not apply, not what it guards; the rule is what
    follows the comma. Any other clause as it is."""
    if len(clause) < 4 or "," not in clause or not (clause[0] in _EXCEPTIONS or _cites(clause[: clause.index(",")])):
        return clause
    for i, token in enumerate(clause):
        if token == "," and (_forbids(clause[i + 1 :]) or phrase(clause, i + 1, "escalate")):
            return clause[i + 1 :]  # "…, never waive …", "…, flag any offer …"
    return clause


def _cites(opening: list[str]) -> bool:
    """Whether the words before a rule cite what it conforms to ("IN ACCORDANCE WITH the
    Office's policy, …", "PER our privacy policy, …", "UNDER state law, …"): the citation
    says why, the rule after it says what."""
    if not opening:
        return False
    n = phrase_at(opening, 0, "cut")
    if n and " ".join(opening[:n]) in _CONFORMING:
        return True
    if opening[0] in ("per", "under") and any(in_list("authority", t) or t in _SECTION_WORDS for t in opening[1:]):
        return True
    # a heading that names the rule's source ("Compliance rule KYC-9:", "Confidentiality
    # (policy 2.8):", "TBML red flag (AML-2.3):"): a code, or an authority with its number
    return not any(phrase_at(opening, i, "directive") for i in range(len(opening))) and any(
        _CODE.fullmatch(t) or (in_list("authority", t) or t in _SECTION_WORDS)
        and i + 1 < len(opening) and opening[i + 1][0].isdigit() for i, t in enumerate(opening))


# a section's code: letters, a hyphen and a number ("kyc-9", "ec-2.1", "itp-2")
_CODE = re.compile(r"[a-z]{1,6}-\d+(?:\.\d+)*[a-z]?")


# the cut phrases that cite what a rule conforms to (not "in case", "as long as": conditions)
_CONFORMING = frozenset({"in accordance with", "pursuant to", "in compliance with", "in line with", "consistent with",
                         "as required by", "as per"})


def _routed_condition(clause: list[str]) -> list[str]:
    """"If a guest mentions chest pain, hand it to a human right away": the condition is
    the case routed, read as "hand it off if a guest mentions chest pain"; the destination
    after the routing verb says where it goes, not what. Any other clause as it is."""
    if len(clause) < 4 or clause[0] not in _TRIGGERS:
        return clause
    for i, token in enumerate(clause):
        if token == ",":
            n = phrase(clause, i + 1, "escalate")
            if n and i > 1:
                return [*clause[i + 1 : i + 1 + n], "it", *clause[:i]]
            if n or phrase_at(clause, i + 1, "directive"):
                return clause
    return clause


_ASKED_OPENERS = frozenset({"about", "whether", "if", "for", "how", "what", "when", "where", "to", "us", "me", "you"})


def _dash_after_first(written: list[str]) -> bool:
    """Whether a dash ends the rule's first clause ("grief counseling - dont counsel"); a
    colon there makes a label of it ("Damage claims: agents must not …"), and the rule
    that follows states itself in full."""
    end = next((t for t in written if t in _CLAUSE_END or t in _DASHES), None)
    return end in _DASHES


def _routed_passive(clause: list[str]) -> bool:
    """"Feeder rodents: ANY MENTION OF LIVE FEEDING GETS FLAGGED": a later clause that
    routes its own subject with a passive routing verb states the rule too."""
    if clause[0] in WORDS["closed"] and clause[0] not in CONTAINER_DETS:
        return False  # "IT gets flagged": no subject of its own
    return any(clause[i] in _PASSIVE_ROUTING_AUX and clause[i - 1] not in _PERMITTING
               and any(lemma in _ROUTING_PARTICIPLES for lemma in lemmas(clause[i + 1]))
               for i in range(1, len(clause) - 1))


_PASSIVE_ROUTING_AUX = frozenset({"get", "gets", "got", "be", "is", "are", "been"})
# the routing verbs that send a case on (not "the load is REJECTED", a consequence), and
# the modals that permit ("… CAN be escalated": an exception, no rule)
_ROUTING_PARTICIPLES = frozenset({"flag", "escalate", "route", "refer", "forward"})
_PERMITTING = frozenset({"can", "may", "could", "might"})


# routing verbs whose object is the reply the gate holds, not the customer's case
_HOLDS_REPLIES = frozenset({"flag", "escalate"})


def _refers_back(rest: list[str]) -> bool:
    """After a later clause's directive, a verb whose object points back at what the rule
    said ("we don't decide THAT, ED does"): a remark on the rule, not more of it."""
    head = rest[: rest.index(",")] if "," in rest else rest
    # "… - we don't make THAT CALL": a demonstrative with a noun points back as well
    return 1 <= len(head) <= 3 and (head[-1] in _POINTING_BACK or len(head) > 1 and head[-2] in ("that", "this"))


_STANDS_FOR = frozenset({"it", "them", "they", "one"})
# prepositions whose pronoun is a thing ("a brand OF it", "a discount ON one"; not "TO them", "wait FOR them")
_OF_A_THING = frozenset({"of", "on", "about", "from", "in"})
# what opens a clause said to someone ("tell them THAT …", "tell them THE ship …")
_TOLD_OPENERS = frozenset("that to the a an your their our this it they we you he she there".split())
# a demonstrative for what the rule said (not "it", which names a thing: "agent can't raise IT")
_POINTING_BACK = frozenset({"that", "this", "so"})


def _names_its_own(clause: list[str]) -> bool:
    """Whether an instruction names a thing of its own past its directive and first verb
    ("don't tell anyone A SIZE will fit"), rather than pointing back ("dont spec IT",
    "don't tell them it'll be RETURNED", "don't say YES")."""
    opens, n = _directive(clause)
    if not n:
        return False  # "escalate to ops": a routing sends the heading's case on
    rest = clause[opens + n + 1 :]  # past the directive and the verb it governs, up to a comma
    # "Never quote THEM as final", "don't share or sell THEM", "never say THEY meet on
    # weekends", "don't tell them IT's okay", "Don't recommend a brand OF IT": what it names
    # is before (not "never tell PATIENTS they can eat …", "tell THEM THE ship will wait")
    if any(rest[k] in _OF_A_THING and rest[k + 1] in _STANDS_FOR for k in range(len(rest) - 1)):
        return False
    for k, token in enumerate(rest):
        told = k == 0 and token == "them" and rest[1:2] and rest[1] in _TOLD_OPENERS
        if token in _STANDS_FOR and not told:
            return False
        if _content(token) and "NOUN" in part_of_speech(token) and (
                "VERB" not in part_of_speech(token) or k and rest[k - 1] in OBJECT_OPENERS):
            break  # the first thing it names (not "don't share or SELL them")
    rest = rest[: rest.index(",")] if "," in rest else rest
    return any(_content(t) and t not in _POINTING_BACK and t not in ("yes", "no") and "NOUN" in part_of_speech(t)
               for t in rest)


def _until_clause_end(tokens_: list[str], start: int) -> list[str]:
    end = next((j for j in range(start, len(tokens_)) if tokens_[j] in _CLAUSE_END), len(tokens_))
    return tokens_[start:end]


def _repeats_head(heading: list[str], clause: list[str]) -> bool:
    """Whether `clause` names the head of `heading` (by lemma): its last word before any
    preposition ("hot TUBS on decking", "riding HATS")."""
    words_ = []
    for t in heading:
        if t in _HEADING_PREPOSITIONS:
            break
        if t[:1].isalnum():
            words_.append(t)
    if not words_:
        return False
    head = set(lemmas(words_[-1])) | {words_[-1]}
    return any(head & ({t} | set(lemmas(t))) for t in clause if t[:1].isalnum())


# a rule that opens with a heading and a colon ("Riding hats: never …")
_COLON_HEADING = re.compile(r"\s*[^:.;!?\n]{1,60}:\s")
_HEADING_PREPOSITIONS = frozenset("on of for in at with to about from by over under after before during".split())


def _heading(clause: list[str]) -> bool:
    """A first clause that only names a topic ("grief counseling", "medical oxygen onboard
    requests"): no directive, no routing verb, no auxiliary or modal, and no pronoun
    subject ("NOBODY goes back in before clearance", "WE don't …" are sentences)."""
    return len(clause) <= 12 and not any(
        phrase_at(clause, i, "directive") or phrase(clause, i, "escalate")
        or clause[i] in WORDS["aux"] or clause[i] in MODALS or clause[i] in _SUBJECT_PRONOUNS
        for i in range(len(clause))
    )


# pronouns that are subjects of a sentence ("it" is left out: "IT support" is a heading)
_SUBJECT_PRONOUNS = frozenset("nobody everyone everybody someone somebody anyone anybody we they you he she i".split())


def participle(token: str) -> bool:
    """Whether `token` is the past participle of a verb ("set", "quoted", "issued"; the
    dictionary lists a regular one once, as the past), its own lemma or not (unlike
    `reading._irregular_participle`, which asks for another verb's form)."""
    return any(token in forms for lemma in lemmas(token)
               for tag, forms in table_forms(lemma).items() if tag in ("VBN", "VBD"))


def _forbids_passively(clause: list[str]) -> bool:
    """A clause that forbids in the passive, of a thing it names first: "the collection
    charge MUST NOT BE WAIVED", "deposits ARE NOT TO BE REFUNDED", "samples CAN'T BE
    shipped" (a noun phrase, a modal or "is"/"are" under a negation, "be" and a participle)."""
    for i in range(1, min(len(clause) - 2, 8)):
        if clause[i] not in _PASSIVE_AUX or not any(_content(t) for t in clause[:i]) \
                or any(t in _SUBJECT_PRONOUNS or t == "it" or t in WORDS["aux"] for t in clause[:i]):
            continue
        j = i + 1 if clause[i].endswith(("n't", "cannot")) else i
        if j == i:
            if clause[i + 1] not in ("not", "never"):
                return False
            j = i + 2
        if clause[j : j + 2] == ["to", "be"]:
            j += 1
        return j + 1 < len(clause) and clause[j] == "be" and participle(clause[j + 1])
    return False


def _instructs(clause: list[str]) -> bool:
    """A clause that tells what to do: it opens with a directive, after the party it binds
    or not ("dont spec it", "sales cant promise it"), or with a routing verb ("escalate to ops")."""
    opens = bound_party(clause) or (1 if len(clause) > 1 and clause[1] in _NEGATIVE_AUX else 0)
    return bool(phrase_at(clause, opens, "directive") or phrase(clause, opens, "escalate"))


_NEGATIVE_AUX = frozenset({"don't", "can't", "won't", "doesn't", "shouldn't", "mustn't", "never"})


def _sends_on(rest: list[str]) -> bool:
    """After a routing verb, a definite object and a destination ("refer THE FAMILY to the
    VA", "send THEM to billing"): someone already named is sent on, not a new case."""
    if not rest or rest[0] not in _DEFINITE:
        return False
    return "to" in rest[1:6]


_DEFINITE = frozenset("the them him her this that these those their his your".split())


MODALS = frozenset({"must", "should", "shall", "may", "will", "can", "would"})
# the words that open a noun phrase (and so an act's object): "a", "the", "your", "any" …
OBJECT_OPENERS = frozenset("a an the your their his her its our my any every this that these those".split())


def bound_party(clause: list[str]) -> int:
    """How many tokens name the party the rule binds before its directive ("THE AGENT
    must not …", "WE never …", "SUPPORT AGENTS should never …"): they open the rule as
    "Never …" does. A subject that is no actor ("Refunds must not …") stays: it is the topic."""
    start = 1 if clause and clause[0] in OBJECT_OPENERS else 0
    i = start
    # "CLAIMS representatives", "SERVICE DESK staff": an actor with the words that say which
    while i < len(clause) and i - start < 2 and not in_list("actor", clause[i]) and _modifier(clause[i]) \
            and any(in_list("actor", t) for t in clause[i + 1 : start + 4]):
        i += 1
    head = i
    while i < len(clause) and i - head < 3 and in_list("actor", clause[i]):
        i += 1
    if i == head:
        return _speaker(clause, start)
    i = _past_qualifier(clause, i) or i  # "AGENTS ON THE NIGHT SHIFT must not …"
    if phrase_at(clause, i, "directive"):
        return i
    if i < len(clause) and clause[i] in MODALS and phrase_at(clause, i + 1, "directive"):
        return i + 1  # "must NEVER", "should NEVER"
    if i + 2 < len(clause) and clause[i] in _NEEDING and clause[i + 1] == "to" and phrase_at(clause, i + 2, "directive"):
        return i + 2  # "Reps NEED TO stay away from …", "Staff HAVE TO avoid …": a modal said with a verb
    return 0


_NEEDING = frozenset({"need", "needs", "have", "has", "ought"})


def _modifier(token: str) -> bool:
    return token[0].isalpha() and token not in WORDS["closed"] and not phrase_at([token], 0, "directive")


# directives that negate a subject's act on their own, with no modal before them
_NEGATING_DIRECTIVES = frozenset({"cannot", "can't", "can", "do", "does", "don't", "doesn't", "will", "won't", "never"})


def _speaker(clause: list[str], start: int) -> int:
    """"DISPATCH must not promise …", "THE FRONT DESK should never confirm …": a subject
    whose act the rule forbids is a verb of saying or giving, and such a verb's subject is
    someone who speaks, so it is the party the rule binds (whatever the noun), not its
    topic; "Refunds must not exceed …" keeps its subject. A noun that names a person by
    its suffix ("Our HELPER must not add …", "ADJUSTERS may not settle …") is a party
    whatever its act, where that act is its own (not "… must not be told"). The index of
    the directive, or 0."""
    for i in range(start + 1, min(start + 4, len(clause) - 2)):
        modal = clause[i] in MODALS and phrase_at(clause, i + 1, "directive")
        negation = not modal and clause[i] in _NEGATING_DIRECTIVES and phrase_at(clause, i, "directive")
        if modal or negation:  # "… MUST NOT give", "Our advocates CANNOT give …"
            at = i + 1 if modal else i
            n = phrase_at(clause, at, "directive")
            verb = clause[at + n] if at + n < len(clause) else ""
            subject = clause[start:i]
            if verb and all(_modifier(t) for t in subject) and (
                    in_list("framing", verb) or (is_person(subject[-1]) or is_agent(subject[-1]))
                    and verb not in WORDS["aux"] and verb != "be"):
                return at
            return 0
        after = _past_qualifier(clause, i) if i > start else None
        if after is not None:  # "OFFICERS ON THE ENQUIRY LINE must not tell …": the party, placed
            at = _speaker(clause[:i] + clause[after:], start)
            return at + after - i if at else 0
        if not _modifier(clause[i]):
            return 0
    return 0


# prepositions that place or group a party ("staff AT the front desk", "agents ON the
# night shift", "reps IN the sales team"): the phrase says which party, not what is guarded
_PARTY_PREPOSITIONS = frozenset({"at", "on", "in", "from", "within"})


def _past_qualifier(clause: list[str], i: int) -> int | None:
    """Where a prepositional phrase that places a party (`_PARTY_PREPOSITIONS`, at
    clause[i]) ends in its modal or negated directive, within five words ("AT THE FRONT
    DESK must not", "ON THE NIGHT SHIFT cannot"); None where clause[i] opens no such phrase."""
    if i >= len(clause) or clause[i] not in _PARTY_PREPOSITIONS:
        return None
    for j in range(i + 1, min(i + 7, len(clause) - 1)):
        if clause[j] in MODALS and phrase_at(clause, j + 1, "directive") \
                or clause[j] in _NEGATING_DIRECTIVES and phrase_at(clause, j, "directive"):
            return j if j > i + 1 else None
        if clause[j] not in OBJECT_OPENERS and not _modifier(clause[j]):
            return None
    return None


# Words a policy author puts before a rule as its label ("BLOCK:", "Flag -", "Red line:"):
# the routing ones stand for "escalate", the rest for "never"
_LABELS = frozenset({"block", "refuse", "deny", "forbidden", "prohibited", "never", "rule", "hard rule", "red line",
                     "redline", "policy", "important", "note", "must not", "do not", "don't", "not allowed",
                     "never allowed", "not permitted", "banned", "off limits", "off-limits", "no go", "no-go"})
_ROUTING_LABELS = frozenset({"flag", "escalate", "review", "hold", "route", "routing", "escalation", "red flag", "warning"})


def _label(clause: list[str]) -> str | None:
    """What a first clause that is only a label stands for ("escalate" or "never"); None
    when it is not one. "" for a label that adds nothing ("Note:")."""
    text = " ".join(clause)
    if text in _ROUTING_LABELS:
        return "escalate"
    if text in _LABELS:
        return "never" if text not in ("rule", "policy", "important", "note") else ""
    if phrase_at(clause, 0, "directive") == len(clause) and text not in POSITIVE_DIRECTIVES:
        return "never"  # "AVOID:", "NO:", "DON'T:": a directive alone, said of what follows
    return None


# a preposition joined to its opposite modifies the noun after them, as no preposition does
_OPPOSITES = {"before": "after", "after": "before", "inside": "outside", "outside": "inside"}


def _paired_adjective(tokens_: list[str], i: int) -> bool:
    """Whether tokens_[i] is one of a pair of opposite prepositions joined by "/" or "and"
    ("BEFORE/after photos", "before and AFTER shots"): a modifier, no condition."""
    opposite = _OPPOSITES.get(tokens_[i])
    joined = ("/", "and")
    if opposite is None:
        return False
    if tokens_[i + 1 : i + 2] and tokens_[i + 1] in joined and tokens_[i + 2 : i + 3] == [opposite]:
        after = i + 3
    elif i >= 2 and tokens_[i - 1] in joined and tokens_[i - 2] == opposite:
        after = i + 1
    else:
        return False
    # a bare noun follows ("before/after PHOTOS"); a determiner opens their object ("before
    # or after A survey": a condition)
    return after < len(tokens_) and tokens_[after][0].isalpha() and tokens_[after] not in WORDS["closed"]


def _threshold(tokens_: list[str], i: int) -> bool:
    """Whether tokens_[i] is the "than" of a comparative before an amount ("OLDER THAN
    1995", "MORE THAN a year", "LONGER THAN 30 days"); not a claim that compares two
    things ("cheaper than Acme")."""
    if tokens_[i] != "than" or i == 0 or i + 1 >= len(tokens_):
        return False
    amount = tokens_[i + 1]
    if not (amount[0].isdigit() or amount[0] in "$£€" or amount in _AMOUNT_WORDS):
        return False
    comparative = tokens_[i - 1]
    return any(comparative in written
               for lemma in lemmas(comparative) for tag, written in table_forms(lemma).items() if tag in ("JJR", "RBR"))


def _without_threshold(tokens_: list[str], i: int) -> list[str]:
    """The tokens without the comparison whose "than" is tokens_[i]: a threshold says
    when, not what. Before what it counts, a quantifier goes with its amount only ("book
    MORE THAN THREE scans" guards booking scans); after a noun, a comparison goes with its
    unit too ("shifts LONGER THAN 16 HOURS", "back issues OLDER THAN 1995")."""
    start = i - 1 - (i > 1 and tokens_[i - 2] in ("no", "not"))  # "NO more than"
    end = i + 2
    counting = tokens_[i - 1] in _QUANTIFIERS and not (i > 1 and _content(tokens_[i - 2])
                                                        and "NOUN" in part_of_speech(tokens_[i - 2]))
    if not counting and end < len(tokens_) and tokens_[end][0].isalpha() and tokens_[end] not in WORDS["closed"] \
            and tokens_[end] not in MODALS and tokens_[end] not in WORDS["aux"] \
            and part_of_speech(tokens_[end]) <= {"NOUN", "VERB", "ADJ"}:
        end += 1  # the unit: "16 HOURS", "90 DAYS" (not "… than £10 CAN'T be reissued")
    return tokens_[:start] + tokens_[end:]


_QUANTIFIERS = frozenset({"more", "fewer", "less"})
# the words that open an amount after "than" ("more than A year", "fewer than TEN")
_AMOUNT_WORDS = frozenset("a an one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty "
                          "forty fifty sixty ninety hundred thousand million half".split())


# "…, BUT WE CAN send the form": what a rule allows after "but" is no part of what it guards
_ALLOWED_SUBJECTS = frozenset("we you i they".split())
_ALLOWING_MODALS = frozenset("can may will could".split())


def cut_at(tokens_: list[str], i: int) -> int:
    """Length of the word or phrase at tokens_[i] that ends what a rule guards: a condition
    or exception from the "cut" list ("unless", "without", "except for"), "but" with a
    subject and a modal of permission ("but we can", "but you may"), or "but" after a
    pronoun for all of a kind ("anyone but", "all but")."""
    if tokens_[i] == "but" and tokens_[i + 1 : i + 2] and tokens_[i + 1] in _ALLOWED_SUBJECTS \
            and tokens_[i + 2 : i + 3] and tokens_[i + 2] in _ALLOWING_MODALS:
        return 3
    if tokens_[i] == "but" and i and tokens_[i - 1] in _UNIVERSAL:
        return 1  # "shared with ANYONE BUT the assigned lawyer": an exception, as "except" is
    return phrase_at(tokens_, i, "cut")


# a pronoun for all of a kind, which "but" after it excepts from ("anyone but", "all but")
_UNIVERSAL = frozenset("anyone anybody everyone everybody anything everything all nobody none".split())


def cut(tokens_: list[str], escalating: bool) -> list[str]:
    """Drop conditions, exceptions and (after a routing verb) the destination."""
    for i in range(0, len(tokens_)):
        if i == 0 and tokens_[0] not in ("to", "for"):
            continue
        if tokens_[i] == "," and _only_this(tokens_[i + 1 :]):
            return tokens_[:i]  # "don't give out staff names, MAIN LINE ONLY": what is allowed instead
        if tokens_[i] == "," and tokens_[i + 1 : i + 2] in (["that"], ["this"], ["which"]) \
                and tokens_[i + 2 : i + 3] == ["is"] and tokens_[i + 3 : i + 4] != [","]:
            return tokens_[:i]  # "…, THAT IS the pharmacist's job": a remark on the rule, not more of it
        if tokens_[i] == "so" and i + 1 < len(tokens_) and tokens_[i + 1] in _CLAUSE_SUBJECTS:
            return tokens_[:i]  # "… SO THE safety team can review it": a purpose, not the topic
        if _threshold(tokens_, i):
            return cut(_without_threshold(tokens_, i), escalating)
        if cut_at(tokens_, i):
            if tokens_[i] == "because" and i + 1 < len(tokens_) and tokens_[i + 1] == "of":
                continue  # "reject a candidate BECAUSE OF a disability": the ground is the topic
            if tokens_[i - 1] in (",", "or", "and") and tokens_[i] in ("without", "no", "otherwise") \
                    and not any(in_list("permission", t) for t in tokens_[i + 1 : i + 6]):
                # "homeless, facing eviction or without food", "drunk OR OTHERWISE impaired": an
                # item; not "…, WITHOUT the client's written authorisation", a condition
                continue
            if tokens_[i] in _ALSO_ADJECTIVES and (tokens_[i - 1] in OBJECT_OPENERS or tokens_[i - 1] in WORDS["light_adj"]
                                                  and i > 1 and tokens_[i - 2] in OBJECT_OPENERS):
                continue  # "a specific OUTSIDE agent": after a determiner, a modifier, no preposition
            if _paired_adjective(tokens_, i):
                continue  # "BEFORE/AFTER photos", "before and after shots": the pair modifies a noun
            if tokens_[i] in ("without", "outside") and i + 1 < len(tokens_) and not tokens_[i + 1].endswith("ing") \
                    and not any(_content(t) for t in tokens_[:i]):
                # "no letting people in WITHOUT a boarding pass", "never book a traveler OUTSIDE
                # the travel policy": the act is bare, how or where it is done is the case
                continue
            if tokens_[i] == "during" and i + 1 < len(tokens_) and _content(tokens_[i + 1]) \
                    and tokens_[i + 1] not in OBJECT_OPENERS:
                continue  # "… for use DURING PREGNANCY": a state or an activity, not a period
            if tokens_[i] == "where" and tokens_[i - 1] not in WORDS["closed"] and tokens_[i - 1][0].isalpha():
                continue  # "any conversation WHERE …", "predict WHERE rates go": no condition
            if tokens_[i] in ("when", "where", "whether") and (tokens_[i - 1] in _ABOUT or (
                    i > 1 and tokens_[i - 1] in ("/", "or", "and") and tokens_[i - 2] in _WH)
                    or i > 2 and tokens_[i - 1] in ("or", "and")
                    and not _ABOUT.isdisjoint(tokens_[max(0, i - 5) : i - 2])
                    or in_list("framing", tokens_[i - 1]) or in_list("judge", tokens_[i - 1])
                    or in_list("attribute_of_time", tokens_[i - 1])
                    or i > 1 and in_list("tell", tokens_[i - 2]) and in_list("addressee", tokens_[i - 1])):
                # "promises ABOUT WHEN a withdrawal will arrive", "on where/WHEN …", "advise on
                # disputes OR WHERE a boundary is" (a second thing advised on), "say WHEN
                # albums come back", "ESTIMATING WHEN an outage will be fixed", "tell callers
                # WHEN a guest checks out": a question, the object of the telling, so the
                # topic; "a DATE WHEN contents will be auctioned": what is to happen then
                continue
            if escalating and tokens_[i] in _TRIGGERS and all(t in _PLACEHOLDERS for t in tokens_[:i]):
                return cut(tokens_[i + 1 :], escalating)  # "Flag IT WHENEVER someone asks …": the case
            if tokens_[i] in _EXCEPTED or " ".join(tokens_[i : i + 2]) in _EXCEPTED:
                # "confirm to anyone OTHER THAN the patient WHETHER someone is …": an
                # exception names a party; the clause the verb governs goes on after it
                opener = next((j for j in range(i + 2, min(i + 8, len(tokens_))) if tokens_[j] in _OBJECT_CLAUSES), None)
                if opener is not None:
                    return tokens_[:i] + cut(tokens_[opener:], escalating)
            predicate = _predicate_after_subject(tokens_, i)
            if predicate:
                # "say that produce grown DURING the transition period MAY BE SOLD as organic":
                # the phrase sits in the subject of what is said, whose verb comes after it
                return tokens_[:i] + cut(tokens_[predicate:], escalating)
            close = next((j for j in range(i + 1, min(i + 5, len(tokens_))) if tokens_[j] == ","), None)
            if tokens_[i - 1] == "," and close is not None and close + 1 < len(tokens_):
                # "Escalate, WHERE POSSIBLE, any refund …": an aside between commas
                return tokens_[: i - 1] + cut(tokens_[close + 1 :], escalating)
            return tokens_[:i]
        framing_verb = i and in_list("framing", tokens_[i - 1]) \
            and not (i > 1 and tokens_[i - 2] not in WORDS["closed"] and tokens_[i - 2][0].isalpha())
        # "flag FOR the archive desk", "flag FOR adviser review": right after the routing
        # verb, "for" names where the case goes as "to" does (not "requests FOR a refund")
        routed_for = i == 0 and tokens_[i] == "for"
        if escalating and (tokens_[i] == "to" or routed_for) and i + 1 < len(tokens_) and not framing_verb:
            # ("… anything that IMPLIES TO a host": the person told, not where the case goes;
            # "route empty leg REQUESTS TO the desk": after a noun phrase, a noun)
            following = tokens_[i + 1]
            # "route TO TRIAGE NURSE", "escalate TO BILLING": right after the routing verb,
            # a bare noun is where the case goes, as "to the …" is
            # (the routing verb is read before: the clause opens with "to"; "threats TO STAFF"
            # after a noun phrase names the case)
            routed_to = i == 0 and following[0].isalpha() and following not in WORDS["closed"] \
                and part_of_speech(following) != {"VERB"}
            # "escalate refunds TO BILLING": a bare noun that ends the routing is where it goes,
            # where no other verb comes first ("… that mention SENDING an account to
            # collections", "which way a currency IS GOING to move")
            routed_to = routed_to or i + 2 == len(tokens_) and following[0].isalpha() \
                and following not in WORDS["closed"] \
                and not (part_of_speech(following) == {"VERB"} and following in lemmas(following)) \
                and not any(t.endswith("ing") or t in WORDS["aux"] or t in ("that", "which", "who") for t in tokens_[:i])
            # ("flag FOR A refund" names the case, "flag FOR A human" where it goes)
            named = following in _DESTINATION_OPENERS and not (routed_for and following in ("a", "an"))
            if named or in_list("addressee", following) or following in ("human", "humans") or routed_to \
                    or routed_for and i + 2 < len(tokens_) and _someone(tokens_[i + 2]):
                # "… to a human adjuster" ends the rule; "hand off TO A HUMAN any customer
                # who …" names the destination first: only that phrase goes
                resume = next((j for j in range(i + 1, len(tokens_)) if tokens_[j] in CONTAINER_DETS
                               or (i == 0 and tokens_[j] in _TRIGGERS)), None)
                if resume is None:
                    return tokens_[:i]
                return tokens_[:i] + cut(tokens_[resume:], escalating)
    return tokens_


# conditions that may be a preposition before a noun phrase ("DURING the transition period")
_PREPOSITIONAL_CUTS = frozenset({"during", "before", "after", "without", "until", "till", "outside"})


def _predicate_after_subject(tokens_: list[str], i: int) -> int:
    """Where the verb of a clause that "that" opens resumes after a prepositional phrase
    in its subject ("that produce grown DURING the transition period MAY be sold"), or 0
    where the phrase at `i` is no such thing: the clause's verb came before it ("that we
    ship orders before payment"), or no modal or auxiliary follows the phrase's noun."""
    if tokens_[i] not in _PREPOSITIONAL_CUTS or "that" not in tokens_[:i]:
        return 0
    start = i - tokens_[:i][::-1].index("that")  # the token after the last "that" before it
    subject, said = tokens_[start:i], tokens_[start - 2] if start > 1 else ""
    if not (_someone(said) or (in_list("framing", said) or in_list("tell", said)) and said in lemmas(said)):
        return 0  # "flag REPLIES THAT refund tickets after …": a relative clause, no clause said
    if not subject or any(t in MODALS or t in WORDS["aux"] or t in (",", "and", "or") for t in subject) \
            or part_of_speech(subject[0]) == {"VERB"} or subject[0] in _PRONOUN_SUBJECTS \
            or any(t in OBJECT_OPENERS for t in subject[1:]):
        return 0  # "that product PASSED THE test before …": the clause's verb came before
    for j in range(i + 1, min(i + 8, len(tokens_))):
        if tokens_[j] in MODALS or tokens_[j] in WORDS["aux"]:
            return j if j > i + 1 else 0
        if tokens_[j] == "," or tokens_[j] in _PRONOUN_SUBJECTS:
            return 0
    return 0


def _routes_only_to(clause: list[str]) -> bool:
    """A routing verb and its destination, and nothing else ("Escalate to billing", "Route
    to the facility manager")."""
    n = phrase(clause, 0, "escalate")
    if not n or n + 1 >= len(clause) or clause[n] != "to":
        return False
    # "to THE facility manager" (cut as a destination), or a name of a few words ("to billing")
    return not cut(clause[n:], True) or len(clause) - n <= 4 and clause[n + 1] not in WORDS["closed"]


def _someone(token: str) -> bool:
    """A noun for a person ("a HUMAN", "a SUPERVISOR", "a PHARMACIST")."""
    return token in ("human", "humans") or in_list("addressee", token) or is_person(token) or is_agent(token)


def _content(token: str) -> bool:
    """A word that may name a topic: no function word, directive, verb of saying or doing, or addressee."""
    return token[0].isalpha() and token not in WORDS["closed"] and not phrase_at([token], 0, "directive") \
        and not in_list("framing", token) and not in_list("addressee", token)


def items(tokens_: list[str]) -> list[tuple[str, list[str]]]:
    """The list items of a clause, each with the word that introduced it."""
    items: list[tuple[str, list[str]]] = [("", [])]
    i = 0
    while i < len(tokens_):
        n = phrase_at(tokens_, i, "split")
        if n or tokens_[i] in _ITEM_MARKS:
            if items[-1][1]:
                items.append((" ".join(tokens_[i : i + (n or 1)]), []))
            elif n and items[-1][0] == "(":
                items[-1] = (" ".join(tokens_[i : i + n]), [])  # "(SUCH AS …", "(E.G. …": examples, as without the bracket
            i += n or 1
            continue
        items[-1][1].append(tokens_[i])
        i += 1
    return [item for item in items if item[1]]


def after_frame(item: list[str]) -> list[str]:
    """'any mention of self-harm' -> 'self-harm': a frame noun and its preposition frame the
    topic that follows them ("service for non-payment" is no frame: "service" is no frame noun)."""
    for i in range(len(item) - 3, -1, -1):  # a frame and its preposition, then at least a word
        # "any STATEMENT THAT a lien is released": a clause with its own subject (not "any
        # request THAT exceeds …", a relative clause)
        that = item[i + 1] == "that" and in_list("frame", item[i]) and item[i + 2] in WORDS["closed"] \
            and (i == 0 or item[i - 1] in WORDS["closed"])  # a noun ("ANY statement"), not "a renter REPORTS that"
        opens = all(t in WORDS["closed"] or in_list("framing", t) for t in item[:i])
        # (a frame noun may have one word that qualifies it before it, "HARASSMENT complaints
        # about …"; not the act and its object: "book pregnant guests onto sessions because of
        # the RISK OF infection")
        act = 1 if item and "VERB" in part_of_speech(item[0]) else 0  # "EMAIL a copy of …": the act itself
        opens_qualified = not CONTAINER_DETS.isdisjoint(item[:i]) or all(  # "any CLAIM showing signs of"
            t in WORDS["closed"] or in_list("framing", t) or phrase_at([t], 0, "escalate") or _someone(t)
            for t in item[act : max(i - 1, 0)])  # ("give a CLIENT an opinion on …": the person told)
        if (that or item[i + 1] in _FRAME_PREPOSITIONS) and (in_list("frame", item[i]) and opens_qualified or _act_of_saying(
                item[i]) and opens):  # not "waive the vaccination REQUIREMENT for"
            following = item[i + 2]
            if item[i + 1] in ("for", "to", "on") and following not in _WH \
                    and (following in WORDS["closed"] or in_list("addressee", following)):
                continue  # "questions for the team", "advice to retail customers"; not "info on WHERE …"
            if item[i + 1] == "to" and (part_of_speech(following) & {"NOUN", "ADJ"}
                                        or not part_of_speech(following) and following.endswith("s")):
                # "requests TO WITHDRAW" frames an act; "advice to X", "copies to BLOGGERS" (a
                # plural the dictionary lacks) name a recipient
                continue
            # "HARASSMENT complaints about another member", "ODOR-FREE claims for occupied
            # buildings": a noun or a compound that qualifies the frame noun names the topic too
            before = item[i - 1] if i > 0 else ""
            named = [before] if before and before not in WORDS["closed"] and not in_list("addressee", before) \
                and (part_of_speech(before) == {"NOUN"} or "-" in before.strip("-")) else []
            return named + item[i + 2 :]
    return item


@lru_cache(maxsize=1 << 12)
def _act_of_saying(token: str) -> bool:
    """A noun made from a verb of saying or giving ("DISCLOSURE of", "DISCUSSION of",
    "ACCEPTANCE of", "PROVISION of"): like a frame noun, what follows it is the topic."""
    if not token.endswith(_NOMINAL_SUFFIXES) or "NOUN" not in part_of_speech(token):
        return False
    own = lemmas(token)
    return any(form in WORDS["framing"] and form not in own for form in family(token))


_NOMINAL_SUFFIXES = ("ion", "ions", "ure", "ures", "al", "als", "ance", "ances", "ence", "ences", "ment", "ments")


def disclosure_verbs(rule: str) -> list[str]:
    """The verbs of telling and handing over a rule forbids ("never SHARE …", "ASK FOR …"),
    as lemmas: with a phrase delegated to a detector they name the act itself."""
    found: list[str] = []
    for clause in rule_clauses(rule)[0]:
        for token in clause:
            for lemma in sorted(lemmas(token)):
                if lemma in WORDS["disclose"] and lemma not in found:
                    found.append(lemma)
    return found
