"""`check_storable`: its quick first pass and the field-by-field walk refuse the same rows."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redline.store.errors import StoreError
from redline.store.sql_rows import _is_clean, _walk_storable, check_row_storable, check_storable

# text that favours the characters at issue: NUL, lone surrogates, backslashes, `u0000`
_chars = st.lists(st.sampled_from(["a", "\x00", "\ud800", "\udfff", "\\", "u0000", "é", "\u200b"]), max_size=6).map("".join)
_values: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | _chars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_chars, inner, max_size=4),
    max_leaves=12,
)


def _verdict(check: Any, value: Any) -> str | None:
    try:
        check("decision 'x'", value, "")
    except StoreError as exc:
        return str(exc)
    return None


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(_chars, _values, max_size=5))
def test_the_first_pass_refuses_exactly_what_the_walk_refuses(row: dict[str, Any]) -> None:
    walked = _verdict(_walk_storable, row)
    assert _verdict(check_storable, row) == walked
    assert _is_clean(row) is (walked is None)


@settings(max_examples=300, deadline=None)
@given(_chars, st.dictionaries(st.sampled_from(["id", "reason", "findings", "layers", "context"]), _values, max_size=5))
def test_a_decisions_row_is_refused_exactly_as_the_whole_walk_refuses_it(text: str, row: dict[str, Any]) -> None:
    """check_row_storable looks at the values only (the keys are column names): same verdict, same message."""
    assert _verdict(lambda what, value, _: check_row_storable(what, text, row), None) == _verdict(
        check_storable, {"text": text, **row}
    )


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"text": "a\x00b"}, "text holds a NUL character at offset 1"),
        ({"layers": {"screen": ["ok", "\udc80"]}}, "layers.screen[1] holds a lone surrogate at offset 0"),
        ({"context": {"k\ud800": 1}}, "context holds a lone surrogate"),
    ],
)
def test_a_refused_row_names_the_field(row: dict[str, Any], message: str) -> None:
    with pytest.raises(StoreError, match="cannot record decision 'x': " + message.replace("[", r"\[").replace("]", r"\]")):
        check_storable("decision 'x'", row)


def test_clean_rows_and_an_escaped_backslash_are_stored() -> None:
    check_storable("decision 'x'", {"text": "a literal \\u0000 is four characters", "n": [1, 2.5, None, {"a": "é"}]})


@settings(max_examples=400, deadline=None)
@given(_chars | st.text(max_size=8))
def test_a_request_text_is_refused_exactly_when_it_holds_a_nul_or_a_lone_surrogate(text: str) -> None:
    from redline.service.models import _UNSTORABLE, storable

    found = _UNSTORABLE.search(text)
    if found is None:
        assert storable(text) is text
    else:
        with pytest.raises(ValueError, match=f"at offset {found.start()};"):
            storable(text)


def _decision_insert() -> Any:
    from sqlalchemy import create_engine

    from redline.store.models import DecisionRecord
    from redline.store.sql_insert import RowInsert

    return RowInsert(DecisionRecord.__table__, create_engine("sqlite://").dialect)  # type: ignore[arg-type]


_INSERT = _decision_insert()
_JSON_COLUMNS = ("rules_fired", "suppressed", "findings", "layers", "context", "timings_ms", "action", "omitted")


@settings(max_examples=400, deadline=None)
@given(_chars, _chars, st.fixed_dictionaries({}, optional={c: _values for c in _JSON_COLUMNS}))
def test_the_look_at_driver_values_passes_only_rows_the_walk_would_store(
    text: str, reason: str, json_columns: dict[str, Any]
) -> None:
    """`storable_values` (the writer's first look, at JSON text) may suspect a clean row
    (an escaped backslash, an emoji's pair) but never passes one that the walk refuses."""
    from datetime import UTC, datetime

    from redline.store.sql_rows import storable_values

    row: dict[str, Any] = {c.key: None for c in _INSERT._table.columns}
    row.update(id="d1", created_at=datetime.now(UTC), policy_name="p", policy_hash="h", outcome="execute",
               reason=reason, risk_level="low", total_ms=1.0, licensed_by_context=False, text_excerpt=reason[:200])  # fmt: skip
    row.update(json_columns)
    try:
        values = _INSERT.values(row)
    except ValueError:  # NaN in a key position and the like: json.dumps refuses it, as the insert would
        return
    refused = _verdict(lambda what, value, _: check_row_storable(what, text, row), None)
    if storable_values(text, values):
        assert refused is None


def test_the_look_at_driver_values_suspects_each_kind_of_fault() -> None:
    from redline.store.sql_rows import storable_values

    clean = ["d1", "a reason", '{"k": ["v", 1.5]}', '["\\u00e9"]', None, 2.0]
    assert storable_values("a draft", clean)
    assert not storable_values("a\x00draft", clean)
    assert not storable_values("a \ud800 draft", clean)
    for value in ("re\x00ason", "re\udc80ason", '["\\u0000"]', '{"k\\ud800": 1}', '["\\uDFFF"]'):
        assert not storable_values("a draft", [*clean, value]), value
