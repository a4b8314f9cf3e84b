"""Queries whose SQL is compiled once per process (:class:`Prepared`).

Django builds and compiles a query's SQL on every run: for the judge's page, whose
queries are small and indexed, that is milliseconds of a click's CPU, more than the
database spends answering them (``bench/judge_cpu.py --profile``). A :class:`Prepared`
query has the ORM build it once per *shape* (what changes its SQL: a corpus's setting,
a lead's view rather than a judge's) with stand-ins for its values (ids), keeps the SQL
the ORM wrote, and runs it again with each call's values. Its rows are the ORM's own:
named tuples (``values_list(named=True)``), tuples, single values (``flat=True``),
dicts (``values()``) or model instances (``select_related`` and annotations included),
through the same converters. The query stays written with the ORM, in one place.

Only whole numbers (ids) and texts may be values: the builder must pass each one to the
ORM as it is (no arithmetic on it, no list of a varying length, which changes the SQL:
make that part of the shape); a shape may leave a value unused. A value the ORM did not keep as a
parameter of its own is refused when the query is first compiled, so the first run of
each shape in a test catches a builder that changes one.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    NamedValuesListIterable,
    ValuesIterable,
    ValuesListIterable,
    get_related_populators,
)
from django.db.models.sql.compiler import SQLCompiler
from django.db.models.utils import create_namedtuple_class

#: The stand-in of a query's first value; the next ones follow (within a signed 64-bit
#: integer, which SQLite and PostgreSQL take as any id; no real id comes near). A text
#: value's stand-in is its number's digits after a private-use character.
STAND_IN = 7_000_000_000_000_000_001
TEXT_STAND_IN = "\ue000"
#: What any stand-in, or a number computed from one, still shows of it.
_STAND_IN_DIGITS = str(STAND_IN)[:12]


@dataclass(frozen=True)
class _Compiled:
    """One shape's SQL, which parameter takes which call value (None: the ORM's own),
    the compiler that converts the rows, and how a row becomes a result."""

    sql: str
    params: tuple[Any, ...]
    slots: tuple[int | None, ...]
    compiler: SQLCompiler
    make: Callable[[Any], Any]


class Prepared:
    """A query built by ``build(*values, shape=shape)`` (a ``QuerySet``), compiled once
    per shape and database, run with new values by calling it: ``query(*values,
    shape=...)`` returns the list of rows the queryset would."""

    def __init__(self, build: Callable[..., QuerySet[Any]]) -> None:
        self._build = build
        self._compiled: dict[tuple[str, tuple[bool, ...], Hashable], _Compiled] = {}

    def __call__(self, *values: int | str, shape: Hashable = ()) -> list[Any]:
        texts = tuple(isinstance(v, str) for v in values)
        key = (DEFAULT_DB_ALIAS, texts, shape)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = self._compile(texts, shape)
        slots = zip(compiled.params, compiled.slots, strict=True)
        params = [p if k is None else values[k] for p, k in slots]
        connection = connections[key[0]]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            fetched = cursor.fetchall()
        rows = compiled.compiler.results_iter([fetched], tuple_expected=True)
        return [compiled.make(row) for row in rows]

    def _compile(self, texts: tuple[bool, ...], shape: Hashable) -> _Compiled:
        stand_ins: list[int | str] = [
            f"{TEXT_STAND_IN}{STAND_IN + k}" if text else STAND_IN + k
            for k, text in enumerate(texts)
        ]
        queryset = self._build(*stand_ins, shape=shape)
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        slots = tuple(
            stand_ins.index(p) if type(p) in (int, str) and p in stand_ins else None for p in params
        )
        kept = [str(p) for p, k in zip(params, slots, strict=True) if k is None]
        if any(_STAND_IN_DIGITS in text for text in (sql, *kept)):
            raise ValueError(
                f"The query of {self._build.__qualname__} did not keep each value as a "
                "parameter of its own (a stand-in was changed, or written into its SQL)."
            )
        return _Compiled(sql, tuple(params), slots, compiler, _maker(queryset, compiler))


def _maker(queryset: QuerySet[Any], compiler: SQLCompiler) -> Callable[[Any], Any]:
    """How one converted row becomes what iterating ``queryset`` yields."""
    query, kind = queryset.query, queryset._iterable_class
    fields = getattr(queryset, "_fields", None)  # what values_list() named
    if kind is NamedValuesListIterable and fields:
        names = list(fields)
    elif query.selected:
        names = list(query.selected)
    else:
        names = [*query.extra_select, *query.values_select, *query.annotation_select]
    if kind is NamedValuesListIterable:
        row_class = create_namedtuple_class(*names)
        return lambda row: row_class(*row)
    if kind is FlatValuesListIterable:
        return lambda row: row[0]
    if kind is ValuesListIterable:
        return lambda row: row
    if kind is ValuesIterable:
        return lambda row: dict(zip(names, row, strict=True))
    if kind is not ModelIterable or getattr(queryset, "_known_related_objects", None):
        raise ValueError(f"A prepared query yields rows or model instances, not {kind}.")
    return _model_maker(queryset, compiler)


def _model_maker(queryset: QuerySet[Any], compiler: SQLCompiler) -> Callable[[Any], Any]:
    """:class:`~django.db.models.query.ModelIterable`'s making of one instance, its
    related objects (``select_related``) and annotations, from one row."""
    db, select, info = queryset.db, compiler.select, compiler.klass_info
    if info is None:
        raise ValueError("A model query without its model's columns cannot be prepared.")
    fields = info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    init_list = [f[0].target.attname for f in select[start:end]]
    # django-stubs describe a later Django's signature (its fetch modes).
    populators = get_related_populators(info, select, db)  # type: ignore[call-arg]
    annotations = dict(compiler.annotation_col_map or {})
    model = info["model"]

    def make(row: Any) -> Any:
        obj = model.from_db(db, init_list, row[start:end])
        for populator in populators:
            populator.populate(row, obj)
        for name, at in annotations.items():
            setattr(obj, name, row[at])
        return obj

    return make
