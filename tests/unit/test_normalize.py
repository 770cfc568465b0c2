from __future__ import annotations

import pytest

from redline.screen.normalize import normalize


@pytest.mark.parametrize(
    ("original", "shadow"),
    [
        ("Your REFUND has been approved!", "your refund has been approved!"),
        ("Your re\u200bfund", "your refund"),
        ("soft\u00adhyphen", "softhyphen"),
        ("bidi\u202eevil\u202c", "bidievil"),
        ("Your r\u0435fund", "your refund"),  # Cyrillic ie
        ("\uff52\uff45\uff46\uff55\uff4e\uff44", "refund"),  # fullwidth
        ("caf\u00e9 cafe\u0301", "cafe cafe"),
        ("CHEST  PAIN\t\tagain", "chest pain again"),
        ("line one\r\n\r\nline two", "line one\nline two"),
        ("the r e f u n d is ok", "the refund is ok"),
        ("can\u2019t breathe", "can't breathe"),
        ("Stra\u00dfe", "strasse"),
        ("\u0130stanbul", "istanbul"),
    ],
)
def test_shadow_folds_evasions_to_plain_lower_case(original: str, shadow: str) -> None:
    assert normalize(original).text == shadow


def test_plain_ascii_without_runs_keeps_offsets_one_for_one() -> None:
    shadow = normalize("No refund owed.")
    assert shadow.identity
    assert shadow.span(3, 9) == (3, 9)


@pytest.mark.parametrize(
    ("original", "word", "expected"),
    [
        ("Your re\u200bfund now", "refund", "re\u200bfund"),
        ("CHEST  PAIN again", "chest pain", "CHEST  PAIN"),
        ("the r e f u n d is", "refund", "r e f u n d"),
        ("x \uff52\uff45\uff46\uff55\uff4e\uff44 y", "refund", "\uff52\uff45\uff46\uff55\uff4e\uff44"),
        ("ﬁne \u0130stanbul", "istanbul", "\u0130stanbul"),
        ("Stra\u00dfe", "ss", "\u00df"),
        ("a\u200b\u200b\u200bb  refund\t\tok", "refund", "refund"),
    ],
)
def test_spans_map_back_to_the_original_characters(original: str, word: str, expected: str) -> None:
    shadow = normalize(original)
    start = shadow.text.index(word)
    o_start, o_end = shadow.span(start, start + len(word))
    assert original[o_start:o_end] == expected


def test_four_single_letters_are_needed_to_join() -> None:
    assert normalize("plan a b c").text == "plan a b c"
    assert normalize("plan a b c d").text == "plan abcd"


def test_a_run_of_newlines_alone_is_kept_so_paragraphs_stay_apart() -> None:
    assert normalize("money\n\nback").text == "money\n\nback"
    assert normalize("money \n\n back").text == "money\nback"


def test_letter_spacing_hidden_by_doubled_spaces_is_still_joined() -> None:
    assert normalize("the r  e f u n d").text == "the refund"


def test_two_single_letter_words_inside_prose_are_not_joined() -> None:
    assert normalize("plan a b test").text == "plan a b test"
