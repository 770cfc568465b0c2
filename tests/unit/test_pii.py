"""The PII detector: what each recognizer takes, what it refuses, and that it is total."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from phonenumbers import Leniency

from redline.screen.detectors.base import Detection, Detector
from redline.screen.detectors.pii import ENTITIES, PiiDetector
from redline.screen.detectors.pii_recognizers.credit_card import luhn_valid
from redline.screen.detectors.pii_recognizers.iban import mod97_valid

DETECTOR = PiiDetector()


def found(text: str, detector: PiiDetector = DETECTOR) -> list[tuple[str, str]]:
    """(entity, the text of its span) for every detection that fires (weak ones left out)."""
    return [(d.entity, text[d.start : d.end]) for d in detector.detect(text) if not d.weak]


def weak(text: str) -> list[tuple[str, str]]:
    """(entity, span text) of the weak detections: reported, never firing."""
    return [(d.entity, text[d.start : d.end]) for d in DETECTOR.detect(text) if d.weak]


def only(text: str) -> Detection:
    detections = DETECTOR.detect(text)
    assert len(detections) == 1, detections
    return detections[0]


def with_luhn_digit(prefix: str) -> str:
    """`prefix` plus the check digit that makes it pass Luhn."""
    return next(prefix + d for d in "0123456789" if luhn_valid(prefix + d))


# --- the detector as the gate sees it -------------------------------------------------


def test_pii_detector_is_a_detector_named_pii() -> None:
    detector: Detector = PiiDetector()
    assert detector.name == "pii"
    assert detector.detect("") == []


def test_phone_number_of_a_third_party_fires() -> None:
    text = (
        "The other account on this address belongs to Maria Lopez, "
        "her phone is 415-555-0134."
    )
    hit = only(text)
    assert (hit.entity, text[hit.start : hit.end]) == ("PHONE_NUMBER", "415-555-0134")
    assert hit.explanation == "phonenumbers: valid US number"


def test_email_address_of_the_legal_team_fires_without_the_full_stop() -> None:
    text = "your attorney can reach our legal team at legal@acme.example."
    assert found(text) == [("EMAIL_ADDRESS", "legal@acme.example")]


@pytest.mark.parametrize(
    "text",
    [
        "I've escalated the sync bug to engineering; the ticket number is ENG-4821.",
        "Our status page shows the incident was resolved at 14:05 UTC.",
        "Your invoice for November is attached.",
        "You'll be refunded within 5 business days.",
        "Our discount floor for annual plans is 32%",
        "I've added a $50 account credit",
        "version 2.4.1 is out",
        "order #123456789",
        "Your order 1234567 shipped on 2024-11-05 at 10:30.",
        "It happened on 05.11.2024; the total was 1,234,567.89.",
        "We now serve 2 345 678 901 requests a day.",
        "Invoice INV-2024-000123 and ticket ENG-4821-5550134 are linked.",
        "The netmask is 255.255.255.0 and the build is 10.0.19045.2965.",
        "UUID 123e4567-e89b-12d3-a456-426614174000, MAC 00:1A:2B:3C:4D:5E.",
        "std::vector<int> and Foo::Bar are C++, 12:30:45 is a time.",
        "The retina image is icon@2x.png.",
    ],
)
def test_ordinary_support_text_does_not_fire(text: str) -> None:
    assert found(text) == []


def test_a_house_number_before_a_street_is_an_address_not_a_phone_number() -> None:
    assert found("Send it to the office at 370 3911 Fourth Avenue.") == [("STREET_ADDRESS", "3911 Fourth Avenue")]


# --- phone numbers --------------------------------------------------------------------


@pytest.mark.parametrize(
    "number",
    ["(415) 555-0134", "415.555.0134", "1-800-555-0199", "+1 (415) 555-0134", "(579)888-3058"],
)
def test_us_numbers_in_the_usual_formats_fire(number: str) -> None:
    assert found(f"You can call {number} today.") == [("PHONE_NUMBER", number)]


def test_international_number_with_plus_fires_with_its_country_code() -> None:
    hit = only("Her UK number is +44 20 7946 0958.")
    assert hit.explanation == "phonenumbers: valid international number (+44)"


def test_international_number_with_00_dialling_prefix_fires() -> None:
    assert found("Fax 001-518-640-0854 please") == [("PHONE_NUMBER", "001-518-640-0854")]


def test_national_number_with_trunk_prefix_fires_for_a_configured_region() -> None:
    hit = only("Her London number is 020 7946 0958.")
    assert "trunk prefix 0" in hit.explanation


def test_extension_belongs_to_the_number() -> None:
    assert found("Desk: 345-899-3560x4587") == [("PHONE_NUMBER", "345-899-3560x4587")]


def test_short_number_fires_only_beside_a_phone_word() -> None:
    assert found("Call me on 9472 7916?") == [("PHONE_NUMBER", "9472 7916")]
    assert found("The parcel weighs 9472 7916 grams.") == []


def test_label_on_the_line_above_counts_as_context() -> None:
    assert found("Personal Info:\nPhone:\n467 3395\n") == [("PHONE_NUMBER", "467 3395")]


def test_number_labelled_as_something_else_does_not_fire() -> None:
    assert found("Your ticket 415-555-0134 is closed.") == []
    assert found("Suite 415 555 0134") == []


def test_phone_word_outweighs_another_label_nearby() -> None:
    text = "The phone number on your account is 415-555-0134."
    assert found(text) == [("PHONE_NUMBER", "415-555-0134")]


def test_two_numbers_with_different_separators_are_split() -> None:
    text = "call 415-555-0134 2025-12-22 04:30"
    assert found(text) == [("PHONE_NUMBER", "415-555-0134")]


def test_valid_leniency_drops_a_possible_but_invalid_number_without_context() -> None:
    text = "It was +1-984-182-0190 all along"  # NANP exchange 182 does not exist
    strict = PiiDetector(phone_leniency=Leniency.VALID)
    assert found(text) == [("PHONE_NUMBER", "+1-984-182-0190")]
    assert found(text, strict) == []
    assert found("mobile +1-984-182-0190", strict) == [("PHONE_NUMBER", "+1-984-182-0190")]


def test_an_unknown_phone_region_is_refused_at_construction_with_the_fix() -> None:
    with pytest.raises(ValueError, match="phone region|'XX' is not a region"):
        PiiDetector(phone_region="XX")


# --- payment cards --------------------------------------------------------------------


@pytest.mark.parametrize(
    "number",
    ["4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111111", "3782 822463 10005"],
)
def test_luhn_valid_card_with_a_network_prefix_fires(number: str) -> None:
    hit = only(f"My card {number} was declined")
    assert hit.entity == "CREDIT_CARD"
    assert hit.explanation.startswith("luhn checksum valid")


def test_card_with_a_wrong_check_digit_does_not_fire() -> None:
    assert found("My card 4111 1111 1111 1112 was declined") == []


def test_luhn_valid_number_outside_every_card_network_does_not_fire() -> None:
    number = with_luhn_digit("990012345678901")
    assert found(f"Reference {number}") == []


def test_card_span_stops_before_a_trailing_number() -> None:
    assert found("card 4111 1111 1111 1111 2025") == [("CREDIT_CARD", "4111 1111 1111 1111")]


# --- US social security numbers -------------------------------------------------------


@pytest.mark.parametrize("ssn", ["123-45-6789", "123 45 6789", "772-01-4410"])
def test_ssn_in_its_formats_fires(ssn: str) -> None:
    assert found(f"The number on file is {ssn}.") == [("US_SSN", ssn)]


@pytest.mark.parametrize(
    "ssn",
    ["000-12-3456", "666-12-3456", "912-34-5678", "123-00-4567", "123-45-0000", "078-05-1120"],
)
def test_ssn_the_ssa_never_issues_does_not_fire(ssn: str) -> None:
    assert found(f"The number on file is {ssn}.") == []


def test_nine_plain_digits_are_an_ssn_only_beside_a_word_that_says_so() -> None:
    assert found("order 123456789") == []
    assert found("SSN: 123456789") == [("US_SSN", "123456789")]


# --- IBANs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "iban",
    [
        "GB82 WEST 1234 5698 7654 32",
        "GB82WEST12345698765432",
        "gb82west12345698765432",
        "DE89 3704 0044 0532 0130 00",
        "ES91 2100 0418 4502 0005 1332",
    ],
)
def test_iban_with_valid_mod97_and_country_length_fires(iban: str) -> None:
    hit = only(f"Please wire it to {iban} today")
    assert hit.entity == "IBAN_CODE"
    assert hit.explanation.startswith("iban mod-97 valid")


def test_iban_with_wrong_check_digits_does_not_fire() -> None:
    assert not mod97_valid("GB83WEST12345698765432")
    assert found("Please wire it to GB83 WEST 1234 5698 7654 32") == []


def test_iban_of_the_wrong_length_for_its_country_does_not_fire() -> None:
    assert found("IBAN DE89370400440532013") == []  # DE is 22 characters


# --- IP addresses ---------------------------------------------------------------------


def test_public_ipv4_fires() -> None:
    hit = only("keep getting address 41.173.96.26 blocked")
    assert hit.explanation == "ipaddress: valid IPv4 (public)"


def test_ipv6_fires() -> None:
    text = "from 6e40:4041:c617:e898:c11:40d2:c669:2eb4 and 2001:db8::1"
    assert [e for e, _ in found(text)] == ["IP_ADDRESS", "IP_ADDRESS"]


@pytest.mark.parametrize(
    "text",
    [
        "256.1.1.1",
        "version 1.2.3.4",
        "1.2.3.4.5",
        "127.0.0.1",
        "0.0.0.0",
        "169.254.169.254",
        "01.02.03.04",
        "::1",
        "at 12:30:45",
    ],
)
def test_dotted_numbers_that_are_no_ones_address_do_not_fire(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize("address", ["127.0.0.1", "0.0.0.0", "169.254.169.254", "::1", "fe80::1", "ff02::1",
                                     "255.255.255.255", "::ffff:127.0.0.1"])
def test_addresses_that_reach_no_one_are_reported_weak_for_redaction(address: str) -> None:
    assert weak(f"it listens on {address} only") == [("IP_ADDRESS", address)]


# --- email ----------------------------------------------------------------------------


def test_email_with_plus_and_subdomains_fires_without_surrounding_quotes() -> None:
    assert found("'a.b+c@sub.example.co.uk'") == [("EMAIL_ADDRESS", "a.b+c@sub.example.co.uk")]


def test_address_without_a_dotted_domain_does_not_fire() -> None:
    assert found("ping user@localhost") == []


def test_email_is_cut_from_a_code_assignment_at_the_quote() -> None:
    assert found("-F to='joe@example.com'") == [("EMAIL_ADDRESS", "joe@example.com")]


def test_login_inside_a_url_is_not_an_email_but_mailto_is() -> None:
    assert found("https://user:secret@yelp.com/x") == []
    assert found("mailto:bob@example.com") == [("EMAIL_ADDRESS", "bob@example.com")]


# --- overlaps, offsets, totality --------------------------------------------------------


def test_checksum_entity_wins_over_a_phone_reading_of_the_same_digits() -> None:
    assert found("SSN 123-45-6789, card 4111 1111 1111 1111") == [
        ("US_SSN", "123-45-6789"),
        ("CREDIT_CARD", "4111 1111 1111 1111"),
    ]


def test_spans_are_offsets_of_the_original_text_after_non_ascii_and_surrogates() -> None:
    text = "Ünïcødé 🙂 \ud800 prefix: mail bob@example.com or call 415-555-0134 \udfff"
    assert found(text) == [
        ("EMAIL_ADDRESS", "bob@example.com"),
        ("PHONE_NUMBER", "415-555-0134"),
    ]


_PIECES = st.sampled_from(
    ["415-555-0134", "+44 20 7946 0958", "4111 1111 1111 1111", "123-45-6789", "a@b.co",
     "GB82 WEST 1234 5698 7654 32", "10.1.2.3", "2001:db8::1", "phone:", "\n", " ", "-", ".",
     "(", ")", "+", "#", ":", "x", "@", "\ud800", "é", "0", "00", "7"]
)  # fmt: skip
_TEXTS = st.lists(
    st.one_of(_PIECES, st.text(alphabet=st.characters(exclude_categories=()), max_size=20)),
    max_size=30,
).map("".join)


@given(_TEXTS)
def test_detect_is_total_and_its_spans_are_ordered_and_disjoint(text: str) -> None:
    detections = DETECTOR.detect(text)
    previous_end = 0
    for d in detections:
        assert previous_end <= d.start < d.end <= len(text)
        assert d.entity in ENTITIES and d.explanation
        previous_end = d.end


def test_a_one_megabyte_text_is_scanned_to_the_end() -> None:
    paragraph = "Hi, thanks for the note of 2024-11-05; it cost $1,249.00. " * 8
    text = (paragraph + "Reach Maria at 415-555-0134 or maria@example.com.\n") * 2000
    assert len(text) > 1_000_000
    entities = [d.entity for d in DETECTOR.detect(text)]
    assert entities.count("PHONE_NUMBER") == entities.count("EMAIL_ADDRESS") == 2000


# --- benchmark-like rows ----------------------------------------------------------------


def test_benchmark_sample_is_found_with_precision_and_recall_over_ninety_percent(
    fixtures: Path,
) -> None:
    rows = json.loads((fixtures / "pii_sample.json").read_text(encoding="utf-8"))["rows"]
    gold_total = gold_hit = pred_total = pred_hit = 0
    for row in rows:
        text = row["full_text"]
        # STREET_ADDRESS is labelled in pieces there (a bare ZIP, `Suite 464`): it has its
        # own benchmark (benchmarks/address_bench.py)
        gold = [
            (s["start_position"], s["end_position"], s["entity_type"])
            for s in row["spans"]
            if s["entity_type"] in ENTITIES and s["entity_type"] != "STREET_ADDRESS"
        ]
        pred = [(d.start, d.end, d.entity) for d in DETECTOR.detect(text) if not d.weak and d.entity != "STREET_ADDRESS"]
        for start, end, entity in pred:
            assert text[start:end] == text[start:end].strip()
        gold_total += len(gold)
        pred_total += len(pred)
        gold_hit += sum(any(e == g[2] and s < g[1] and g[0] < t for s, t, e in pred) for g in gold)
        pred_hit += sum(any(e == p[2] and s < p[1] and p[0] < t for s, t, e in gold) for p in pred)
    assert gold_total >= 30
    assert gold_hit / gold_total >= 0.9
    assert pred_hit / pred_total >= 0.9
