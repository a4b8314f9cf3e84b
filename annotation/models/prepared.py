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

Only whole numbers (ids, positions) and texts may be values: the builder must pass each
one to the ORM as it is (no arithmetic on it, no list, which PostgreSQL's ``IN`` takes as
one array: make a varying part of the SQL part of the shape); a shape may leave a value
unused. The query is compiled twice, with two sets of stand-ins, and the parameters that
differ are the values' places: a builder that changed a value, or a value written into
the SQL, is refused on the first run of its shape (which a test of it makes).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

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

#: The stand-ins of a query's values, two sets: the query is compiled with each, and the
#: parameters that differ between the two are the values' places. Small numbers, within
#: every integer column's range (Django drops or empties a condition on a value out of
#: its column's range); a text value's stand-in is a private-use character and a number.
STAND_INS = (30_001, 31_001)
TEXT_STAND_IN = "\ue000"


@dataclass(frozen=True)
class _Compiled:
    """One shape's SQL, which parameter takes which call value (None: the ORM's own),
    the compiler that converts the rows, and how a row becomes a result."""

    sql: str
    params: tuple[Any, ...]
    slots: tuple[int | None, ...]
    compiler: SQLCompiler
    converters: dict[int, Any]
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
        rows: Iterable[Any] = fetched
        if compiled.converters:
            rows = compiled.compiler.apply_converters(fetched, compiled.converters)
        return [compiled.make(tuple(row)) for row in rows]

    def _compile(self, texts: tuple[bool, ...], shape: Hashable) -> _Compiled:
        one, two = (self._compiled_with(start, texts, shape) for start in STAND_INS)
        if one.sql != two.sql or len(one.params) != len(two.params):
            slots: tuple[int | None, ...] = (-1,)
        else:
            pairs = zip(one.params, two.params, strict=True)
            slots = tuple(_slot(p, q, one.stand_ins, two.stand_ins) for p, q in pairs)
        if -1 in slots:
            raise ValueError(
                f"The query of {self._build.__qualname__} did not keep each value as a "
                "parameter of its own (a stand-in was changed, or written into its SQL)."
            )
        compiler = one.compiler
        # What results_iter() would work out again on every run: the columns' converters.
        columns = [s[0] for s in compiler.select[: compiler.col_count]]
        if compiler.has_composite_fields(columns):
            raise ValueError("A query of a composite primary key cannot be prepared.")
        converters = compiler.get_converters(columns)
        make = _maker(one.queryset, compiler)
        return _Compiled(one.sql, tuple(one.params), slots, compiler, converters, make)

    def _compiled_with(self, start: int, texts: tuple[bool, ...], shape: Hashable) -> _Build:
        """The query built with the stand-ins from ``start``, and compiled."""
        stand_ins: list[int | str] = [
            f"{TEXT_STAND_IN}{start + k}" if text else start + k for k, text in enumerate(texts)
        ]
        queryset = self._build(*stand_ins, shape=shape)
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        return _Build(queryset, compiler, sql, list(params), stand_ins)


class _Build(NamedTuple):
    """One compilation of a query with one set of stand-ins."""

    queryset: QuerySet[Any]
    compiler: SQLCompiler
    sql: str
    params: list[Any]
    stand_ins: list[int | str]


def _slot(
    first: Any, second: Any, stand_ins: list[int | str], others: list[int | str]
) -> int | None:
    """Which value a parameter is (its stand-ins in the two compilations), None for the
    query's own constant (the same in both), -1 for anything else (a changed value)."""
    if first == second and type(first) is type(second):
        return None
    if first in stand_ins and second in others:
        k = stand_ins.index(first)
        return k if others.index(second) == k else -1
    return -1


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
