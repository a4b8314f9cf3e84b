"""Binary values stored and read back in the database's cheapest way (on PostgreSQL a
binary-format cursor): every byte comes back, a second row for the same key is not
stored, and each statement is counted like the ORM's own."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.models import Corpus, CorpusStatistics
from annotation.statistics.blobs import first_blob, insert_ignoring_conflicts

pytestmark = pytest.mark.django_db

DATA = bytes(range(256)) * 4096 + b"\x00"  # every byte value, a megabyte


def row(corpus: Corpus, data: bytes) -> CorpusStatistics:
    return CorpusStatistics(corpus=corpus, choice="tok:13a", engine="test", data=data)


def test_a_stored_value_comes_back_byte_for_byte_and_the_first_row_stays() -> None:
    corpus = Corpus.objects.create(name="c")
    with CaptureQueriesContext(connection) as written:
        insert_ignoring_conflicts(row(corpus, DATA))
    insert_ignoring_conflicts(row(corpus, b"second"))  # same corpus, choice and engine

    values = CorpusStatistics.objects.filter(corpus=corpus).values_list("data", flat=True)
    with CaptureQueriesContext(connection) as read:
        found = first_blob(values)

    assert found == DATA
    assert CorpusStatistics.objects.filter(corpus=corpus).count() == 1
    assert CorpusStatistics.objects.get(corpus=corpus).created_at is not None
    assert (len(written), len(read)) == (1, 1)


def test_no_row_reads_as_none() -> None:
    assert first_blob(CorpusStatistics.objects.values_list("data", flat=True)) is None
