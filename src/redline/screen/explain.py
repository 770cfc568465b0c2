"""What every rule of a policy matches, for the people who write policies.

`explain(policy)` is the data behind `redline explain` and `GET /v1/policies/{name}`: per
rule, its id and severity, the operator's terms or the topics derived from its text
(with why each was derived and a sample of the forms it matches), patterns, delegated
detectors, the suppress set in force, and warnings. Pure: it reads the policy only.
"""

from __future__ import annotations

import re
from typing import Any

from redline.policy.lexicon import family, part_of_speech, share_of_drafts
from redline.policy.schema import Policy
from redline.policy.terms import term_variants
from redline.policy.topics import derive_topics
from redline.screen.engine import about_other_people, detector_rules, rule_specs
from redline.screen.matcher import WINDOW, term_words, topic_keys
from redline.types import Status

__all__ = ["GENERIC_SHARE", "explain"]

# A topic word whose family appears in at least this share of 100-word English texts
# (by wordfreq's frequencies) fires on many drafts that do not touch the rule: warn.
GENERIC_SHARE = 0.02
_SAMPLE = 8


def _sample(forms: set[str]) -> list[str]:
    return sorted(forms, key=lambda f: (len(f), f))[:_SAMPLE]


def _share(word: str) -> float:
    """The share of drafts a topic word would turn up in: by its family's frequencies, or,
    for a phrase ("out the door", "under 18s"), by wordfreq's estimate for the phrase,
    which is no more frequent than its rarest word (its first word alone, "out",
    "under", would warn on nearly every phrase)."""
    return share_of_drafts({word}) if " " in word else share_of_drafts(family(word))


def _topic(
    words: tuple[str, ...], why: str, negative: bool, money: tuple[str, ...] = (), privative: tuple[str, ...] = (),
) -> tuple[dict[str, Any], list[str]]:
    forms = [_sample({k.strip() for k in topic_keys(w)}) for w in words]
    shares = [_share(w) for w in words]
    share = shares[0] if len(words) == 1 else shares[0] * min(1.0, shares[1] * 2 * WINDOW / 100)
    entry = {
        "label": " + ".join(words),
        "words": list(words),
        "why": why,
        "forms": forms,
        "matches": (
            "any of its forms" if len(words) == 1
            else f"a form of each word in one sentence, at most {WINDOW} words apart, in either order"
        ),
        "share_of_drafts": round(share, 4),
        # stated in the negative by the rule ("say it can't LOSE MONEY"): a negation in the
        # draft does not set its hits aside
        "negative": negative,
        # its words that an amount of money in a draft counts as ("quote a PRICE": "$650")
        "money": list(money),
        # the rule's own words of absence ("WITHOUT a helmet", "gluten-FREE"): in a draft
        # they state the topic, they do not set its hits aside
        "privative": list(privative),
    }
    warnings = []
    if share >= GENERIC_SHARE:
        warnings.append(
            f"topic {entry['label']!r} is so common in English that it would appear in about "
            f"{share:.0%} of 100-word drafts that have nothing to do with the rule. Fix: give the "
            "rule `terms` with the words a violation would use"
        )
    return entry, warnings


_VOWELS = frozenset("aeiouy")


def _shortened(rule: str, words: list[str]) -> list[str]:
    """Warnings for the topic words that are shortened by leaving out their vowels ("bldgs",
    "mgr", "hrs", "sq", "ft"), which no English word is, unless the rule writes them in
    capitals (an acronym a draft writes as the rule does: "DMV", "CPR"). A draft that
    writes such a word out ("buildings") does not match it, and no table here knows what
    each stands for (a clipping that keeps its vowels, "meds", "info", is written in
    drafts as often as in rules, and a word the dictionary lacks, "halal", is a word)."""
    found = []
    for word in dict.fromkeys(words):
        stem = word[:-1] if word.endswith("s") else word
        if word.isalpha() and not _VOWELS.intersection(stem) and not part_of_speech(word) \
                and not re.search(rf"\b{re.escape(stem.upper())}S?\b", rule):
            found.append(
                f"topic word {word!r} is not a word the dictionary knows; if it is short for one, a draft "
                "that writes it out will not match it. Fix: give the rule `terms` with the words in full")
    return found


def explain(policy: Policy) -> dict[str, Any]:
    """The explain view of a validated policy (JSON-ready)."""
    default = frozenset(policy.screen.suppress)
    rules: list[dict[str, Any]] = []
    texts = {f"{s.slug}:{r.id}": (r.rule, r.terms, r.suppress) for s in policy.skills for r in s.red_lines}
    for kind in ("never", "escalate"):
        for i, text in enumerate(getattr(policy.soul.boundaries, kind)):
            texts[f"soul:{kind}:{i}"] = (text, None, None)
    for spec in rule_specs(policy):
        text, own_terms, own_suppress = texts[spec.id]
        warnings: list[str] = []
        topics = []
        if own_terms is None:
            derived = derive_topics(text)
            for topic in derived.topics:
                entry, warned = _topic(topic.words, topic.why, topic.negative, topic.money, topic.privative)
                topics.append(entry)
                warnings.extend(warned)
            warnings.extend(_shortened(text, [w for topic in derived.topics for w in topic.words]))
        else:
            derived = None
        suppress_note = None
        if derived is not None and about_other_people(text) and own_suppress is None and Status.OTHER_EXPERIENCER in default:
            suppress_note = ("the rule is about other people's information, so other-experiencer cues "
                             "do not set its hits aside")
        elif own_suppress is not None and Status.OTHER_EXPERIENCER in spec.suppress and about_other_people(text):
            warnings.append("the rule is about other people's information but its `suppress` sets "
                            "other-experiencer hits aside: 'your husband has …' will not fire")
        rules.append({
            "id": spec.id,
            "source": spec.source,
            "severity": spec.severity.value,
            "rule": text,
            "guards": "terms" if own_terms is not None else "derived",
            "terms": [
                {"term": t, "forms": _sample({" ".join(v) for v in term_variants(term_words(t))})}
                for t in (own_terms or ())
            ],
            "topics": topics,
            "patterns": list(spec.patterns),
            "detectors": list(spec.detectors),
            "suppress": sorted(s.value for s in spec.suppress),
            "suppress_note": suppress_note,
            "warnings": warnings,
        })
    return {
        "policy": {"name": policy.name, "hash": policy.hash},
        "rules": rules,
        "detectors": [
            {"id": rule_id, "detector": name, "severity": severity.value}
            for name, rule_id, severity in detector_rules(policy)
        ],
        "auto_send": {"min_confidence": policy.auto_send.min_confidence},
    }
