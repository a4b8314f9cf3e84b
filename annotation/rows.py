"""Rows written straight to their table, for an import's bulk of targets and a
campaign's bulk of batches.

``bulk_create`` builds a model instance per row and prepares every value of every row
through its field; a corpus of real size has tens of thousands of targets whose values
are plain numbers, texts and (nearly always empty) lists. :class:`RowWriter` hands tuples
of those values to the database the fastest way it takes them: PostgreSQL's ``COPY``
(one statement for every row, where an ``executemany`` is a statement per row), SQLite's
``executemany`` (one prepared statement). The columns come from the model's own fields,
so the SQL follows the schema; a JSON value is written as its JSON text, as the field
would write it (the empty list's once). No signal is sent (nor does ``bulk_create``
send one), and Django's query log does not see the rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, models


class RowWriter:
    """Inserts rows of ``model`` given as tuples of the values of ``fields`` (in that
    order), on the default database."""

    def __init__(self, model: type[models.Model], fields: Sequence[str]) -> None:
        meta = model._meta
        found = [_field_and_column(model, name) for name in fields]
        self.fields = [field for field, _ in found]
        quote = connection.ops.quote_name
        table = quote(meta.db_table)
        columns = ", ".join(quote(column) for _, column in found)
        marks = ", ".join(["%s"] * len(self.fields))
        self.insert_sql = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
        self.copy_sql = f"COPY {table} ({columns}) FROM STDIN"
        #: The JSON columns: their position, their encoder, the empty list's text.
        self.json = [
            (i, field.encoder, json.dumps([], cls=field.encoder))
            for i, field in enumerate(self.fields)
            if isinstance(field, models.JSONField)
        ]

    def insert(self, rows: Iterable[Sequence[Any]]) -> None:
        """Insert ``rows`` (inside the caller's transaction, if any)."""
        prepared = [self._prepared(row) for row in rows] if self.json else list(rows)
        if not prepared:
            return
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                with cursor.cursor.copy(self.copy_sql) as copy:
                    for row in prepared:
                        copy.write_row(row)
            else:
                cursor.executemany(self.insert_sql, prepared)

    def _prepared(self, row: Sequence[Any]) -> Sequence[Any]:
        values = list(row)
        for i, encoder, empty in self.json:
            value = values[i]
            values[i] = json.dumps(value, cls=encoder) if value else empty
        return values


@dataclass(slots=True)
class TargetRow:
    """A target to be inserted (:data:`TARGET_COLUMNS`, in that order): plain values, not
    a model instance, as a corpus has tens of thousands of them (see the module's doc)."""

    sentence_id: int
    translator_id: int
    ordinal: int
    position: int
    text: str
    extra_attrs: list[list[str]]
    extra_xml: list[str]

    def values(self) -> tuple[object, ...]:
        return (
            self.sentence_id,
            self.translator_id,
            self.ordinal,
            self.position,
            self.text,
            0,  # text_stamp: the text as imported
            self.extra_attrs,
            self.extra_xml,
        )


#: The columns a :class:`TargetRow` fills.
TARGET_COLUMNS = (
    "sentence",
    "translator",
    "ordinal",
    "position",
    "text",
    "text_stamp",
    "extra_attrs",
    "extra_xml",
)


def _field_and_column(model: type[models.Model], name: str) -> tuple[models.Field[Any, Any], str]:
    """The field ``name`` of ``model`` and its column, which its table must have."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field) or field.column is None:
        raise ValueError(f"{model.__name__}.{name} is not a column")
    return field, field.column
