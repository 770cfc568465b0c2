"""Text for human eyes: hidden characters revealed, HTML escaped, spans highlighted."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from redline.display import char_name, hidden_token, reveal, reveal_pieces
from redline.service.workspace.render import age, marked, marks, shown

HIDDEN = ["\x1b", "\x00", "\r", "\x7f", "\x9b", "\u202e", "\u2066", "\u200b", "\u200d", "\ufeff", "\u00ad",
          "\u2028", "\u2029", "\ue000", "\U000e0041", "\ufe0f", "\u3164", "\u115f"]  # fmt: skip


def test_each_hidden_character_gets_a_visible_token() -> None:
    for char in HIDDEN:
        token = hidden_token(char)
        assert token is not None and char not in token, repr(char)
    assert hidden_token("\x1b") == "\\x1b" and hidden_token("\u202e") == "\u27e8U+202E\u27e9"


def test_letters_spaces_and_line_breaks_are_left_alone() -> None:
    for char in ["a", " ", "\n", "\t", "é", "ß", "日", "\u05d0", "😀", "\u00a0"]:
        assert hidden_token(char) is None, repr(char)


def test_reveal_shows_a_terminal_attack_for_what_it_is() -> None:
    assert reveal("ok\x1b[8mrefund approved\x1b[0m\u202eevil") == "ok\\x1b[8mrefund approved\\x1b[0m\u27e8U+202E\u27e9evil"


def test_char_names_say_what_the_character_is() -> None:
    assert char_name("\x1b") == "U+001B ESCAPE" and char_name("\u202e") == "U+202E RIGHT-TO-LEFT OVERRIDE"


@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(HIDDEN)))
def test_pieces_join_back_to_the_text_and_leave_nothing_hidden(text: str) -> None:
    pieces = list(reveal_pieces(text))
    assert "".join(p.text for p in pieces) == text
    for p in pieces:
        if not p.hidden:
            assert all(hidden_token(c) is None for c in p.text)
    out = reveal(text)
    assert all(unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp") or c in "\n\t" for c in out)


@given(st.text())
def test_shown_html_never_carries_markup_or_hidden_characters_from_the_text(text: str) -> None:
    html = str(shown(text))
    plain = html.replace('<span class="hidden-char" title="', "").replace('">', "").replace("</span>", "")
    assert "<" not in plain and ">" not in plain
    assert "\u202e" not in html and "\x1b" not in html


def test_marked_highlights_fired_and_suppressed_spans_and_escapes_them() -> None:
    text = "<b>refund</b> and no lawsuit"
    found = marks(
        [{"rule": "billing:r", "severity": "block", "start": 3, "end": 9, "status": "affirmed", "explanation": "term"}],
        [{"rule": "soul:escalate:0", "start": 21, "end": 28, "status": "negated", "cue": "no"}],
        len(text),
    )
    html = str(marked(text, found))
    assert html.startswith("&lt;b&gt;")
    assert 'class="hit fired"' in html and 'data-label="F1"' in html
    assert 'class="hit suppressed"' in html and 'data-label="S1"' in html
    assert "&lt;/b&gt;" in html and "<b>" not in html


def test_overlapping_spans_are_cut_at_every_edge() -> None:
    text = "abcdefgh"
    found = marks([{"rule": "r1", "start": 0, "end": 5}], [{"rule": "r2", "start": 3, "end": 8}], len(text))
    html = str(marked(text, found))
    assert html.count("<mark") == 3  # abc (fired), de (both), fgh (suppressed)
    assert 'class="hit fired suppressed"' in html


def test_a_span_outside_the_text_is_listed_but_not_placed() -> None:
    (m,) = marks([{"rule": "judge:x", "start": 5, "end": 50, "layer": "judge"}], [], 10)
    assert m.start is None and str(marked("0123456789", [m])) == "0123456789"


def test_a_detector_match_is_listed_by_its_type_never_its_text() -> None:
    (m,) = marks([{"rule": "detector:credentials", "start": 0, "end": 4, "text": "AKIA", "entity": "AWS_KEY"}], [], 4)
    assert m.text == "[AWS_KEY]"


def test_age_says_how_long_in_two_units() -> None:
    from datetime import UTC, datetime, timedelta

    now = datetime(2026, 12, 1, tzinfo=UTC)
    assert age(now - timedelta(seconds=45), now) == "45 s"
    assert age(now - timedelta(minutes=12, seconds=5), now) == "12 min"
    assert age(now - timedelta(hours=3, minutes=5), now) == "3 h 5 min"
    assert age(now - timedelta(days=2, hours=4), now) == "2 d 4 h"
