"""Characters that hide a secret or a term: the screen, the detectors and the scrubber
read the same view, and every span maps back to the whole original span."""

from __future__ import annotations

import json

import pytest

from redline import Gate, Outcome, parse_policy
from redline.policy.topics import derive_topics
from redline.screen.engine import about_other_people
from redline.screen.normalize import has_symbols_in_words, normalize, strip_invisible
from redline.store.decision_event import event_from_decision
from redline.store.scrub import scrub

KEY = "AKIAIOSFODNN7EXAMPLE"
EMAIL = "maria.lopez@example.com"
# one of each class a renderer does not show, or shows as part of the letter before it
HIDING = {
    "zero-width space": "\u200b",
    "soft hyphen": "\u00ad",
    "byte-order mark": "\ufeff",
    "word joiner": "\u2060",
    "variation selector 16": "\ufe0f",
    "variation selector supplement": "\U000e0100",
    "combining grapheme joiner": "\u034f",
    "tag letter A": "\U000e0041",
    "language tag": "\U000e0001",
    "combining acute": "\u0301",
    "combining enclosing circle": "\u20dd",
    "hangul filler": "\u3164",
    "mongolian vowel separator": "\u180e",
    "musical symbol begin beam": "\U0001d173",
}
GATE = Gate(parse_policy("""
version: 1
name: hidden
auto_send: {min_confidence: 0}
skills:
  - slug: billing
    red_lines:
      - id: no-refund
        rule: Never promise a refund.
        severity: block
"""))


def _inside(value: str, char: str, at: int = 4) -> str:
    return value[:at] + char + value[at:]


@pytest.mark.parametrize("name", HIDING)
def test_a_key_with_a_hidden_character_inside_is_refused(name: str) -> None:
    text = f"Use {_inside(KEY, HIDING[name])} for the demo."
    decision = GATE.check(text)
    assert decision.outcome is Outcome.REFUSE, name
    [finding] = decision.findings
    assert finding.text == _inside(KEY, HIDING[name])


@pytest.mark.parametrize("name", HIDING)
def test_an_email_with_a_hidden_character_inside_is_found(name: str) -> None:
    decision = GATE.check(f"Write to {_inside(EMAIL, HIDING[name], 5)} today.")
    assert decision.outcome is Outcome.ESCALATE, name
    assert "detector:pii" in decision.rules_fired


@pytest.mark.parametrize("name", HIDING)
def test_a_term_with_a_hidden_character_inside_fires(name: str) -> None:
    assert GATE.check(f"Your {_inside('refund', HIDING[name], 2)} is approved.").outcome is Outcome.ESCALATE, name


@pytest.mark.parametrize("name", HIDING)
def test_the_scrubber_masks_the_whole_original_span_and_records_it(name: str) -> None:
    hidden = _inside(KEY, HIDING[name])
    text = f"key {hidden} and mail {_inside(EMAIL, HIDING[name], 5)} end"
    result = scrub(text)
    assert result.text == "key [AWS_ACCESS_KEY] and mail [EMAIL_ADDRESS] end"
    assert [e.type for e in result.erased] == ["AWS_ACCESS_KEY", "EMAIL_ADDRESS"]
    assert text[result.erased[0].start : result.erased[0].end] == hidden


def test_the_decision_log_line_keeps_no_fragment_of_a_hidden_secret() -> None:
    text = f"Here you go: {_inside(KEY, chr(0x200B))} and {_inside(EMAIL, chr(0xAD), 5)}"
    line = event_from_decision(GATE.check(text), text).to_json_line()
    event = json.loads(line)
    assert "IOSFODNN7EXAMPLE" not in line and "example.com" not in line and "lopez" not in line
    assert {e["type"] for e in event["erased"]} == {"AWS_ACCESS_KEY", "EMAIL_ADDRESS"}


def test_the_detector_view_drops_exactly_what_the_shadow_drops_and_maps_back() -> None:
    text = "A\u200bB\u0301C\U000e0041D\u00e9"  # precomposed é is a letter: kept
    visible, offsets = strip_invisible(text)
    assert visible == "ABCD\u00e9"
    assert offsets is not None and [text[i] for i in offsets] == list(visible)
    assert strip_invisible("plain ascii") == ("plain ascii", None)
    assert strip_invisible("caf\u00e9") == ("caf\u00e9", None)


@pytest.mark.parametrize("symbol", ["\U0001f389", "\u2605", "\U0001f44d\U0001f3fd", "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\u2022", "\u20ac"])
def test_a_symbol_or_emoji_inside_a_word_does_not_hide_a_term(symbol: str) -> None:
    text = f"Good news: your re{symbol}fund is approved."
    decision = GATE.check(text)
    assert decision.outcome is Outcome.ESCALATE, repr(symbol)
    [finding] = decision.findings
    assert finding.text == f"re{symbol}fund"
    assert text[finding.start : finding.end] == finding.text


def test_an_emoji_that_glues_a_term_to_the_next_word_does_not_hide_it_either() -> None:
    assert GATE.check("Your refund\U0001f389is approved.").outcome is Outcome.ESCALATE
    assert GATE.check("Great\U0001f389your refund is approved.").outcome is Outcome.ESCALATE


def test_a_negated_term_with_an_emoji_inside_stays_negated() -> None:
    decision = GATE.check("There is no re\U0001f389fund owed.")
    assert decision.outcome is Outcome.EXECUTE
    [hit] = decision.suppressed
    assert hit.status.value == "negated"


def test_dashes_and_ascii_punctuation_between_letters_are_not_joined() -> None:
    assert not has_symbols_in_words(normalize("well\u2014known").text)
    assert not has_symbols_in_words(normalize("a+b and c^d").text)
    assert has_symbols_in_words(normalize("re\U0001f389fund").text)
    joined = normalize("so re\U0001f389\U0001f389fund", join_symbols=True)
    assert joined.text == "so refund"
    assert joined.span(3, 9) == (3, 11)


def test_a_key_in_fullwidth_letters_is_still_a_key() -> None:
    text = "key \uff21\uff2b\uff29\uff21IOSFODNN7EXAMPLE ok"
    decision = GATE.check(text)
    assert decision.outcome is Outcome.REFUSE
    assert decision.findings[0].text == "\uff21\uff2b\uff29\uff21IOSFODNN7EXAMPLE"
    assert scrub(text).text == "key [AWS_ACCESS_KEY] ok"


def _labels(rule: str) -> set[str]:
    return {t.label for t in derive_topics(rule).topics}


@pytest.mark.parametrize("name", HIDING)
def test_a_rule_pasted_with_a_hidden_character_inside_a_word_guards_that_word(name: str) -> None:
    # text copied from a document or a web page carries soft hyphens and zero-width
    # characters unseen: the rule still reads "answer keys", not "an" and "swer"
    pasted = f"Never disclose exam an{HIDING[name]}swer keys to students."
    assert _labels(pasted) == _labels("Never disclose exam answer keys to students.")
    gate = Gate(parse_policy(f"""
version: 1
name: pasted
auto_send: {{min_confidence: 0}}
detectors: {{credentials: "off", pii: "off", technical_content: "off"}}
skills:
  - slug: exams
    red_lines:
      - id: no-keys
        rule: "{pasted}"
        severity: block
"""))
    assert gate.check("Here are the answer keys for Friday's exam.").outcome is Outcome.ESCALATE, name
    assert gate.check("The exam starts at nine on Friday.").outcome is Outcome.EXECUTE, name


def test_a_rule_in_fullwidth_letters_or_ligatures_reads_as_its_words() -> None:
    assert _labels("Never promise a ｒｅｆｕｎｄ.") == _labels("Never promise a refund.") == {"refund"}
    assert _labels("Never give \ufb01nancial advice.") == _labels("Never give financial advice.")
    # the other-people reading sees the same words ("another patient\u200b's")
    assert about_other_people("Never confirm another pa\u200btient's prescriptions.")
