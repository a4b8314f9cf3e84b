"""Targets written straight to their table read back as the ORM would have stored them."""

from __future__ import annotations

import pytest

from annotation.models import Corpus, Sentence, Target, Translator
from annotation.rows import TARGET_COLUMNS, RowWriter, TargetRow

pytestmark = pytest.mark.django_db


def test_a_written_target_reads_back_with_every_value_it_was_given() -> None:
    corpus = Corpus.objects.create(name="rows")
    sentence = Sentence.objects.create(corpus=corpus, position=0, source="源")
    system = Translator.objects.create(
        corpus=corpus, name="S1", role=Translator.Role.SYSTEM, position=0
    )
    kept = TargetRow(
        sentence_id=sentence.pk,
        translator_id=system.pk,
        ordinal=0,
        position=1,
        text="Ein Satz mit \"Zeichen\" & 'Apostrophen',\tTab,\nZeile, \\N und 漢字.",
        extra_attrs=[["score", "0.5"], ["note", 'a "quoted" \\ back\tslash']],
        extra_xml=["<note>n</note>"],
    )
    bare = TargetRow(sentence.pk, system.pk, 1, 2, "zweiter", [], [])

    RowWriter(Target, TARGET_COLUMNS).insert([kept.values(), bare.values()])

    rows = Target.objects.filter(sentence=sentence).order_by("position")
    assert [
        (t.translator_id, t.ordinal, t.position, t.text, t.text_stamp, t.extra_attrs, t.extra_xml)
        for t in rows
    ] == [
        (system.pk, 0, 1, kept.text, 0, kept.extra_attrs, ["<note>n</note>"]),
        (system.pk, 1, 2, "zweiter", 0, [], []),
    ]


def test_writing_no_rows_asks_nothing_of_the_database(django_assert_num_queries) -> None:
    writer = RowWriter(Target, TARGET_COLUMNS)

    with django_assert_num_queries(0):
        writer.insert([])
