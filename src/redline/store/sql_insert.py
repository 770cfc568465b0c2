"""Whole-row INSERTs compiled once, with their values turned into driver parameters here.

A Core `insert(table)` of a list of rows re-applies every column's bind processing for
every row inside SQLAlchemy (the JSON columns' `json.dumps`, the datetime conversion),
which was a third of the audit writer's time per row. `RowInsert` compiles the statement
once for the engine's dialect, takes each column's bind processor from its type once, and
hands the rows to the driver's `executemany` through `Connection.exec_driver_sql`, so
SQLAlchemy still owns the schema, the connection, the transaction and the error wrapping
(an `IntegrityError` is the same error as before). The values stored are byte for byte
those SQLAlchemy would have bound: the same processors, and for JSON the same
serializer (empty lists and objects, most of them, skip the call).

On a driver with positional parameters (SQLite) the rows go as ONE multi-row
`INSERT … VALUES (…), (…)`, which SQLAlchemy compiles per row count: sqlite3's
`executemany` steps the statement once per row and lets go of the GIL around each step,
and in a server whose event loop holds the GIL most of the time, each step's wait to get
it back delayed the whole batch (up to the interpreter's switch interval, 5 ms, a step).
"""

from __future__ import annotations

import json
from operator import itemgetter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import JSON, Connection, Dialect, Table, insert

_Convert = Callable[[Any], Any]
_EMPTY_JSON: dict[type, str] = {list: "[]", dict: "{}"}
# parameters in one statement: SQLite's limit before 3.32 (later ones allow 32,766)
MAX_PARAMETERS = 999


def _json_bind(column_type: JSON, dialect: Dialect) -> _Convert:
    dumps: Callable[[Any], str] = getattr(dialect, "_json_serializer", None) or json.dumps
    none_as_null = column_type.none_as_null

    def convert(value: Any) -> Any:
        if value is None:
            return None if none_as_null else dumps(None)
        if not value:
            empty = _EMPTY_JSON.get(type(value))
            if empty is not None:
                return empty
        return dumps(value)

    return convert


class RowInsert:
    """`INSERT INTO table (columns) VALUES (…)` for many rows given as column dicts."""

    def __init__(self, table: Table, dialect: Dialect, columns: Sequence[str] | None = None) -> None:
        keys = list(columns) if columns is not None else [c.key for c in table.columns]
        self._table, self._dialect, self._keys = table, dialect, keys
        self._multi: dict[int, str | None] = {}  # rows -> multi-row statement (None: none)
        self._group: tuple[str, str] | None = None  # (INSERT … VALUES , one row's group): `_repeated`
        compiled = insert(table).compile(dialect=dialect, column_keys=keys)
        self.sql = compiled.string
        self._positional = bool(compiled.positional)
        # the driver's parameter names in the order the statement binds them (each column once)
        names = list(compiled.positiontup or ()) if self._positional else keys
        unknown = set(names) - set(keys)
        if unknown:  # a bind the rows cannot fill: a column default rendered as a parameter
            raise ValueError(f"cannot insert {table.name}: unexpected parameters {sorted(unknown)}")
        self._names = names
        self._values = itemgetter(*names) if len(names) > 1 else lambda row: (row[names[0]],)
        convert: list[tuple[int, _Convert]] = []  # (position, processor) of the columns that have one
        for position, key in enumerate(names):
            column_type = table.columns[key].type
            if isinstance(column_type, JSON):
                convert.append((position, _json_bind(column_type, dialect)))
            else:
                processor = column_type.dialect_impl(dialect).bind_processor(dialect)
                if processor is not None:
                    convert.append((position, processor))
        self._convert = tuple(convert)
        if self._positional:
            self._repeated(2)  # the one compile `_repeated` checks against, here rather than under load

    def values(self, row: Mapping[str, Any]) -> list[Any]:
        """One row's values as the driver takes them, in the statement's order (JSON
        columns as JSON text); the row holds every column named (None: NULL)."""
        values = list(self._values(row))
        for position, processor in self._convert:
            values[position] = processor(values[position])
        return values

    def _parameters(self, values: list[Any]) -> tuple[Any, ...] | dict[str, Any]:
        return tuple(values) if self._positional else dict(zip(self._names, values))

    def execute(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert `rows` on `conn` (its transaction)."""
        self.execute_values(conn, [self.values(row) for row in rows])

    def execute_values(self, conn: Connection, rows: Sequence[list[Any]]) -> None:
        """Insert rows given as `values(row)` on `conn` (its transaction): one multi-row
        statement per chunk where the driver's parameters are positional, else one `executemany`."""
        if not rows:
            return
        if not self._positional:
            conn.exec_driver_sql(self.sql, [self._parameters(values) for values in rows])
            return
        chunk = max(1, MAX_PARAMETERS // len(self._names))
        for start in range(0, len(rows), chunk):
            part = rows[start : start + chunk]
            sql = self._multi_row(len(part)) if len(part) > 1 else self.sql
            if sql is None:  # a dialect that does not compile it as expected
                conn.exec_driver_sql(self.sql, [self._parameters(values) for values in part])
                continue
            flat: list[Any] = []
            for values in part:
                flat.extend(values)
            conn.exec_driver_sql(sql, tuple(flat))

    def _multi_row(self, count: int) -> str | None:
        if count not in self._multi:
            repeated = self._repeated(count)
            self._multi[count] = repeated if repeated is not None else self._compiled_multi_row(count)
        return self._multi[count]

    def _compiled_multi_row(self, count: int) -> str | None:
        """SQLAlchemy's own multi-row INSERT for `count` rows; None where its parameters
        do not come row by row in our order."""
        stmt = insert(self._table).values([dict.fromkeys(self._keys)] * count)
        compiled = stmt.compile(dialect=self._dialect)
        # parameters row by row, each row's in our order: `key_m0, …, key_m1, …`
        expected = [f"{name}_m{i}" for i in range(count) for name in self._names]
        return compiled.string if list(compiled.positiontup or ()) == expected else None

    def _repeated(self, count: int) -> str | None:
        """The multi-row INSERT for `count` rows as the single-row one with its VALUES group
        repeated, where that is what SQLAlchemy compiles for two rows (checked once).

        Compiling a multi-row statement costs SQLAlchemy about a millisecond per row on
        this machine (88 ms for 64 rows), and the audit writer met each new batch size
        under load: the compile held the GIL, the requests waiting for that commit waited
        with it, the next batch was larger still, and a fresh server stalled for 40-100 ms
        every second or two until it had seen every size."""
        if self._group is None:
            head, sep, group = self.sql.partition(" VALUES ")
            same = bool(sep) and self._compiled_multi_row(2) == f"{head}{sep}{group}, {group}"
            self._group = (head + sep, group) if same else ("", "")
        head, group = self._group
        return head + ", ".join([group] * count) if group else None
