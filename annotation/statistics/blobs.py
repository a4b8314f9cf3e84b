"""Reading and writing a stored binary value (a corpus's statistics, megabytes for a corpus
of real size) in the database's cheapest way, in one place.

Django talks to PostgreSQL through a client-side cursor, which receives ``bytea`` as hex
text: twice the bytes over the wire, decoded in Python, on every dashboard view (it reads
its statistics back each time). Read in binary format instead (a plain psycopg cursor on
the same connection, in the same transaction), the same value takes a third of the time
and half the transient memory. Written, the client-side cursor spells the value into the
statement as a hex literal, many times the value's size in transient memory, where a
binary parameter sends the bytes themselves (``docs/performance.md`` has the figures).
Other databases go through the ORM as usual.

The statements go through the connection's execute wrappers and query log as Django's
own would, so query counts (tests, ``bench/``) see them.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

from django.db import connection
from django.db.models import Model, QuerySet


def first_blob(values: QuerySet[Any, Any]) -> bytes | None:
    """The first value of ``values`` (a ``values_list(field, flat=True)`` of a binary
    field), or None when it has no row."""
    if connection.vendor != "postgresql":
        found = values.first()
        return None if found is None else bytes(found)
    sql, params = values[:1].query.sql_with_params()
    row = _postgres_binary(sql, params, fetch=True)
    return None if row is None else bytes(row[0])


def insert_ignoring_conflicts(row: Model) -> None:
    """Insert ``row`` (its primary key left to the database); a row that would break a
    unique constraint is not inserted (two requests storing the same thing at once: the
    first one stays)."""
    model = type(row)
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create([row], ignore_conflicts=True)
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    values = [f.get_db_prep_save(f.pre_save(row, add=True), connection) for f in fields]
    q = connection.ops.quote_name
    columns = ", ".join(q(f.column) for f in fields if f.column)  # concrete: all have one
    sql = (
        f"INSERT INTO {q(model._meta.db_table)} ({columns}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) ON CONFLICT DO NOTHING"
    )
    _postgres_binary(sql, values, fetch=False)


def _postgres_binary(sql: str, params: Any, *, fetch: bool) -> Any:
    """Run ``sql`` on Django's PostgreSQL connection with a plain psycopg cursor (binary
    parameters and results), through the execute wrappers and the query log; the first
    row when ``fetch``."""
    import psycopg  # PostgreSQL's driver: installed wherever PostgreSQL is used

    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as raw:

        def execute(sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
            return raw.execute(sql, params, binary=True)

        run = execute
        for wrapper in reversed(connection.execute_wrappers):
            run = partial(wrapper, run)
        start = time.monotonic()
        run(sql, params, False, {"connection": connection, "cursor": raw})
        if connection.queries_logged:
            duration = time.monotonic() - start
            connection.queries_log.append({"sql": sql, "time": f"{duration:.3f}"})
        return raw.fetchone() if fetch else None
