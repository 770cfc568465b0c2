"""PII formats and readings beyond the first six recognizers' basics: SSN and IBAN
layouts, internationalised and spelled-out e-mail addresses, whole IP spans (CIDR,
zone, mapped IPv4), weak spans, no re-reading of a failed candidate as another type,
and street addresses. Every string here is written for these tests."""

from __future__ import annotations

import pytest

from redline.screen.detectors.pii import PiiDetector
from redline.screen.detectors.pii_recognizers.iban import mod97_valid

DETECTOR = PiiDetector()


def all_found(text: str) -> list[tuple[str, str, bool]]:
    """(entity, span text, weak) of every detection."""
    return [(d.entity, text[d.start : d.end], d.weak) for d in DETECTOR.detect(text)]


def firing(text: str) -> list[tuple[str, str]]:
    return [(d.entity, text[d.start : d.end]) for d in DETECTOR.detect(text) if not d.weak]


def iban_with_check_digits(country: str, bban: str) -> str:
    """`country`, the check digits that make `bban` valid, and `bban`."""
    return next(f"{country}{cd:02d}{bban}" for cd in range(100) if mod97_valid(f"{country}{cd:02d}{bban}"))


# --- US SSN -------------------------------------------------------------------------


@pytest.mark.parametrize("ssn", ["219.45.6671", "219 45 6671", "219-45-6671"])
def test_an_ssn_fires_with_dashes_spaces_or_dots(ssn: str) -> None:
    assert firing(f"her number is {ssn} on the form") == [("US_SSN", ssn)]


def test_ssn_digits_with_the_groups_run_together_are_a_weak_ssn_and_never_a_phone_number() -> None:
    # 049-812267 alone is a valid New Zealand number in national format: the SSN reading wins
    text = "values 049-812267 and 04981-2267 in the export"
    assert all_found(text) == [("US_SSN", "049-812267", True), ("US_SSN", "04981-2267", True)]
    assert firing(text) == []


def test_nine_bare_digits_are_a_weak_ssn_unless_a_label_names_them() -> None:
    assert all_found("value 219456671") == [("US_SSN", "219456671", True)]
    assert all_found("invoice 219456671") == []
    assert firing("SSN 219456671") == [("US_SSN", "219456671")]


def test_a_zip_plus_four_is_neither_an_ssn_nor_a_phone_number() -> None:
    assert all_found("Trenton, NJ 08608-1121") == []


def test_an_ssn_written_with_two_separators_is_no_ones_number() -> None:
    assert all_found("ref 219-45.6671") == []


# --- IBAN -----------------------------------------------------------------------------


def test_a_dash_grouped_iban_fires_on_the_whole_number() -> None:
    iban = iban_with_check_digits("DE", "500105175407324931")
    dashed = "-".join(iban[i : i + 4] for i in range(0, len(iban), 4))
    assert firing(f"wire to {dashed} please") == [("IBAN_CODE", dashed)]


def test_the_tail_of_a_bad_checksum_iban_is_not_read_as_a_phone_number() -> None:
    good = iban_with_check_digits("NL", "RABO0301234567")
    bad = good[:2] + f"{(int(good[2:4]) + 1) % 100:02d}" + good[4:]
    spaced = " ".join(bad[i : i + 4] for i in range(0, len(bad), 4))
    assert all_found(f"IBAN {spaced}") == []


def test_part_of_a_bad_iban_is_not_read_as_a_card_even_when_it_passes_luhn() -> None:
    # a 16-digit run inside a Serbian IBAN with a wrong check digit: Luhn-valid, Mastercard-shaped
    bban = "260005601001611379"
    good = iban_with_check_digits("RS", bban)
    bad = good[:2] + f"{(int(good[2:4]) + 1) % 100:02d}" + good[4:]
    spaced = " ".join(bad[i : i + 4] for i in range(0, len(bad), 4))
    assert all_found(spaced) == []


def test_a_phone_word_is_the_evidence_that_lets_a_number_stand_beside_a_broken_iban() -> None:
    text = "bad IBAN NL92 RABO 0301 2345 67 0412 345 678, call 0412 345 678"
    assert ("PHONE_NUMBER", "0412 345 678") in firing(text)


def test_an_iban_with_mixed_letter_case_is_not_an_iban() -> None:
    iban = iban_with_check_digits("GB", "WEST12345698765432")
    assert firing(iban.replace("WEST", "wEST")) == []
    assert firing(iban.lower()) == [("IBAN_CODE", iban.lower())]


# --- e-mail ---------------------------------------------------------------------------


@pytest.mark.parametrize("address", ["ops@xn--bcher-kva.example", "a@xn--80akhbyknj4f.xn--p1ai"])
def test_an_address_at_a_punycode_domain_fires(address: str) -> None:
    assert firing(f"write to {address} today") == [("EMAIL_ADDRESS", address)]


@pytest.mark.parametrize(
    "address",
    [
        "maria.lopez[at]example[dot]org",
        "maria (at) example (dot) co (dot) uk",
        "maria{at}example.org",
        "maria.lopez[DOT]home[AT]mail[DOT]com",
        "MARIA AT EXAMPLE DOT ORG",
    ],
)
def test_an_address_with_its_at_or_dots_spelled_out_fires(address: str) -> None:
    assert firing(f"reach her at {address} tonight") == [("EMAIL_ADDRESS", address)]


@pytest.mark.parametrize("text", ["look at this dot com bubble", "array[at] index.html", "foo(at)bar"])
def test_prose_and_code_with_at_and_dot_are_not_addresses(text: str) -> None:
    assert firing(text) == []


# --- IP addresses ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("route 10.20.0.0/16 to the VPN", "10.20.0.0/16"),
        ("route 203.0.113.7/32 now", "203.0.113.7/32"),
        ("prefix 2001:db8:4::/48 is ours", "2001:db8:4::/48"),
        ("Use 2001:db8:4::/48.", "2001:db8:4::/48"),
        ("bad prefix 10.20.0.0/99 here", "10.20.0.0"),
        ("mapped ::ffff:198.51.100.23 here", "::ffff:198.51.100.23"),
        ("compatible ::198.51.100.23 here", "::198.51.100.23"),
        ("nat64 64:ff9b::198.51.100.23 here", "64:ff9b::198.51.100.23"),
        ("[::ffff:198.51.100.23]:443", "::ffff:198.51.100.23"),
        ("peer 2001:db8::7%wlan0 up", "2001:db8::7%wlan0"),
    ],
)
def test_an_ip_span_takes_its_prefix_length_zone_and_mapped_ipv4(text: str, span: str) -> None:
    assert firing(text) == [("IP_ADDRESS", span)]


def test_a_truncated_mapped_ipv4_is_not_an_address() -> None:
    assert all_found("got ::ffff:198.51.100 from the parser") == []


def test_the_ipv4_tail_of_a_glued_ipv6_candidate_is_judged_alone() -> None:
    assert firing("value text::ffff:198.51.100.23") == [("IP_ADDRESS", "198.51.100.23")]


@pytest.mark.parametrize("address", ["169.254.10.20", "fe80::1c2d:3e4f", "fe80::1%eth0", "::ffff:169.254.10.20"])
def test_link_local_is_weak_for_ipv4_and_ipv6_alike(address: str) -> None:
    assert all_found(f"the host took {address} itself") == [("IP_ADDRESS", address, True)]


# --- street addresses -----------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "4821 Juniper Hollow Road, Tulsa, OK 74105",
        "77 Larkspur Ave, Apt 5C, Reno, NV 89501-2210",
        "1200 W Marigold Blvd NE",
        "19 Quarry Lane, Ipswich IP4 2BS",
        "Flat 2, 48 Thornbury Crescent, Leeds LS6 3JR",
        "PO Box 6623, Boise, ID 83707",
        "560 Harbor View Drive\nMonterey, CA 93940",
    ],
)
def test_us_and_uk_street_addresses_fire_on_the_whole_address(address: str) -> None:
    assert firing(f"Please send the forms to {address} by Friday.") == [("STREET_ADDRESS", address)]


@pytest.mark.parametrize(
    "text",
    [
        "I drove 4 miles down the old road to the depot.",
        "The depot on Juniper Hollow Road is closed.",
        "Version 3 Way forward is the plan.",
        "In 2021 Harbor View Drive was repaved.",
        "Ticket 4821 Juniper Road migration is done.",
        "at 5 We Are Open Drive",
    ],
)
def test_streets_numbers_and_prose_without_an_address_do_not_fire(text: str) -> None:
    assert [e for e, _ in firing(text)] == []
