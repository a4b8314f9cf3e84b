"""Rows written straight to their table, for an import's bulk of targets.

``bulk_create`` builds a model instance per row and prepares every value of every row
through its field; a corpus of real size has tens of thousands of targets whose values
are plain numbers, texts and (nearly always empty) lists. :class:`RowWriter` inserts
tuples of those values in one ``executemany`` per call: the columns come from the
model's own fields (so the SQL follows the schema), JSON values are prepared by their
field as ``bulk_create`` would (an empty one once), and no signal is sent (nor does
``bulk_create`` send one).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, models


class RowWriter:
    """Inserts rows of ``model`` given as tuples of the values of ``fields`` (in that
    order), on the default database."""

    def __init__(self, model: type[models.Model], fields: Sequence[str]) -> None:
        meta = model._meta
        self.fields = [meta.get_field(name) for name in fields]
        quote = connection.ops.quote_name
        columns = ", ".join(quote(f.column) for f in self.fields)  # type: ignore[union-attr]
        marks = ", ".join(["%s"] * len(self.fields))
        self.sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})"
        #: Per JSON column, its position and its empty list as the database takes it.
        self.json = [
            (i, field.get_db_prep_save([], connection))  # type: ignore[union-attr]
            for i, field in enumerate(self.fields)
            if isinstance(field, models.JSONField)
        ]

    def insert(self, rows: Iterable[Sequence[Any]]) -> None:
        """Insert ``rows`` (inside the caller's transaction, if any)."""
        prepared = [self._prepared(row) for row in rows] if self.json else list(rows)
        if prepared:
            with connection.cursor() as cursor:
                cursor.executemany(self.sql, prepared)

    def _prepared(self, row: Sequence[Any]) -> list[Any]:
        values = list(row)
        for i, empty in self.json:
            value = values[i]
            values[i] = (
                self.fields[i].get_db_prep_save(value, connection)  # type: ignore[union-attr]
                if value
                else empty
            )
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
