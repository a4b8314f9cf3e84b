"""Exporting corpora as evalTrans XML: lossless round trips through import and export."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone
from lxml import etree

from annotation.corpora.exports import corpus_export
from annotation.corpora.imports import corpus_import
from annotation.dashboard.panels import effort
from annotation.judging.changes import judgment_finish, judgment_set_sser
from annotation.judging.header import judge_header
from annotation.judging.items import judgment_ier_split
from annotation.judging.stack import judgment_for
from annotation.judging.start import judgment_open, judgment_seen, next_judgment_for
from annotation.models import Corpus, Judgment, Sentence, Target, User
from annotation.tests.boards import view_of
from annotation.tests.factories import (
    DEMO_XML,
    HTMX,
    JUDGED,
    SEED_XML,
    exported,
    fresh,
    target_of,
)

pytestmark = pytest.mark.django_db


def snapshot(corpus: Corpus) -> dict[str, object]:
    """Everything a corpus holds, without database ids or timestamps."""
    return {
        "corpus": (corpus.extra_attrs, corpus.extra_xml),
        "translators": sorted(corpus.translators.values_list("name", "role", "position")),
        "sentences": list(
            Sentence.objects.filter(corpus=corpus)
            .order_by("position")
            .values_list(
                "position", "xml_id", "doc", "source", "extra_attrs", "extra_xml", "after_xml"
            )
        ),
        "targets": sorted(
            Target.objects.filter(sentence__corpus=corpus).values_list(
                "sentence__position",
                "translator__name",
                "ordinal",
                "position",
                "text",
                "extra_attrs",
                "extra_xml",
            )
        ),
        "judgments": sorted(
            Judgment.objects.filter(target__sentence__corpus=corpus).values_list(
                "target__sentence__position",
                "target__translator__name",
                "evaluator__username",
                "sser",
                "new_ref",
                "edits",
                "ref_length",
                "state",
                "extra_attrs",
                "extra_xml",
            )
        ),
    }


def export_bytes(corpus: Corpus) -> bytes:
    out = io.BytesIO()
    corpus_export(corpus=corpus, out=out)
    return out.getvalue()


def canonical(xml: bytes, *, drop_root_name: bool = False) -> list[tuple[object, ...]]:
    """Elements in document order with whitespace-normalised text, for comparing files."""
    root = etree.fromstring(xml)
    if drop_root_name:
        root.attrib.pop("name", None)
    return [
        (el.tag, sorted(el.attrib.items()), " ".join((el.text or "").split())) for el in root.iter()
    ]


@pytest.mark.parametrize("path", [DEMO_XML, SEED_XML], ids=["demo", "seed"])
def test_export_of_an_unjudged_file_equals_the_input_after_whitespace_normalisation(
    path: Path,
) -> None:
    corpus = corpus_import(source=path, name="c").corpus

    exported = export_bytes(corpus)

    assert exported.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    assert canonical(exported, drop_root_name=True) == canonical(
        path.read_bytes(), drop_root_name=True
    )


@pytest.mark.parametrize(
    "content",
    [DEMO_XML.read_bytes(), SEED_XML.read_bytes(), JUDGED],
    ids=["demo", "seed", "judged"],
)
def test_import_export_import_gives_identical_database_content(content: bytes) -> None:
    first = corpus_import(source=io.BytesIO(content), name="first", filename="a.xml").corpus
    second = corpus_import(
        source=io.BytesIO(export_bytes(first)), name="second", filename="b.xml"
    ).corpus

    assert snapshot(second) == snapshot(first)


def test_judgments_survive_the_round_trip_with_recomputed_awer() -> None:
    summary = corpus_import(source=io.BytesIO(JUDGED), filename="judged.xml")

    assert summary.corpus.name == "judged"
    assert summary.judgments == 2
    jm = Judgment.objects.get(evaluator__username="JM")
    assert (jm.sser, jm.new_ref, jm.edits, jm.ref_length) == (
        8,
        "Chart represents the method.",
        1,
        5,
    )
    assert jm.state == Judgment.State.DONE
    # AB's awer="3/4" does not match its new reference: a warning, and 1/5 wins.
    assert summary.warnings == (
        "judged.xml line 11: awer 3/4 of 'Statistical' recomputed from its new reference as 1/5",
    )
    ab = Judgment.objects.get(evaluator__username="AB")
    assert (ab.edits, ab.ref_length) == (1, 5)
    # HTER's counts are computed by the import as by a click ("represent" → "represents")
    assert (jm.ter_edits, jm.ter_length) == (ab.ter_edits, ab.ter_length) == (1, 5)

    exported = export_bytes(summary.corpus)
    root = etree.fromstring(exported)
    judged = root.findall(".//eval[@evaluator]")
    assert [(e.get("evaluator"), e.get("sser"), e.get("awer")) for e in judged] == [
        ("JM", "8", "1/5"),
        ("AB", "6", "1/5"),
    ]
    assert judged[0].get("checked") == "yes"
    assert judged[1].findtext("note") == "second opinion"
    assert judged[0].findtext("newRef") == "Chart represents the method."
    assert root.find("sentence").get("topic") == "figures"


def test_a_judgment_in_progress_stays_pending_through_export_and_import() -> None:
    content = JUDGED.replace(b'evaluator="AB" sser="6"', b'evaluator="AB" sser="6" state="pending"')
    first = corpus_import(source=io.BytesIO(content), name="first", filename="a.xml").corpus
    ab = Judgment.objects.get(target__sentence__corpus=first, evaluator__username="AB")
    assert ab.state == Judgment.State.PENDING
    assert ab.extra_attrs == []

    exported = export_bytes(first)
    second = corpus_import(source=io.BytesIO(exported), name="second", filename="b.xml").corpus

    assert b'evaluator="AB" sser="6" awer="1/5" state="pending"' in exported
    assert snapshot(second) == snapshot(first)
    assert not Judgment.objects.done().filter(
        target__sentence__corpus=second, evaluator__username="AB"
    )


MARKED = b"""<evalTrans name="marked">
<sentence>
  <source>el gato</source>
  <eval translator="first reference"><target>the cat</target></eval>
  <eval translator="sys" checked="yes"><target>a cat</target><note>post-edited</note></eval>
</sentence>
</evalTrans>
"""


def test_what_the_file_said_about_a_candidate_survives_its_judgment(user_factory) -> None:
    corpus = corpus_import(source=io.BytesIO(MARKED), name="marked").corpus
    ana = user_factory("ana")
    corpus.judges.add(ana)
    j = next_judgment_for(user=ana, corpus=corpus)
    j = judgment_set_sser(judgment=j, user=ana, version=j.version, sser=6)
    judgment_finish(judgment=j, user=ana, version=j.version)

    first = exported(corpus)
    evals = etree.fromstring(first).findall("sentence/eval[@translator='sys']")

    assert [e.get("checked") for e in evals] == ["yes", None]
    assert evals[0].findtext("note") == "post-edited"
    assert evals[1].get("evaluator") == "ana"
    assert evals[1].get("sser") == "6"
    again = corpus_import(source=io.BytesIO(first), name="again").corpus
    assert exported(again).replace(b'"again"', b'"marked"') == first


def test_a_bare_eval_after_a_judged_one_keeps_what_it_carries() -> None:
    data = MARKED.replace(
        b'  <eval translator="sys" checked="yes">',
        b'  <eval translator="sys" evaluator="jm" sser="7"><target>a cat</target></eval>\n'
        b'  <eval translator="sys" checked="yes">',
    )
    corpus = corpus_import(source=io.BytesIO(data), name="late").corpus

    text = exported(corpus)

    assert b'checked="yes"' in text
    assert b"<note>post-edited</note>" in text
    assert b'evaluator="jm"' in text


def effort_panel(client: Client, corpus: Corpus) -> str:
    """The dashboard's effort panel (seed 001 Table 3) of ``corpus``, its own URLs aside."""
    html = client.get(f"/dashboard/{corpus.pk}/panel/effort/", **HTMX).content.decode()
    return html.replace(f"/dashboard/{corpus.pk}/", "/dashboard/<corpus>/")


def test_effort_travels_export_import_export_byte_identical(
    seed: Corpus, judge: User, lead: User, client: Client
) -> None:
    """Issue 24, point 3: a judgment's active time, IER's part of it and its first and
    last times go out with it and come back, so the copy's seed 001 Table 3 (the effort
    panel), the judge's pace and time to finish are the original's."""
    seed.ier_enabled = True
    seed.save()
    t = timezone.now()
    opened = judgment_open(user=judge, target=target_of(seed, "a translator"))
    judgment_seen(judgment=opened, user=judge, at=t)
    j = judgment_for(pk=opened.pk, user=judge)
    judgment_ier_split(
        judgment=j, user=judge, version=j.version, gap=5, at=t + timedelta(seconds=5.123457)
    )
    judgment_set_sser(
        judgment=j, user=judge, version=j.version, sser=7, at=t + timedelta(seconds=20.5)
    )
    judgment_finish(judgment=j, user=judge, version=j.version, at=t + timedelta(seconds=31.7))
    original = exported(seed)
    seed.name = "the original"  # the copy takes the name the file gives
    seed.save()

    copy = corpus_import(source=io.BytesIO(original), filename="seed.xml").corpus

    assert exported(copy) == original
    assert b'activeSeconds="31.7" ierSeconds="5.123457" ierClicks="1"' in original
    assert view_of(copy).get(effort.effort_panel) == view_of(seed).get(effort.effort_panel)
    assert view_of(copy).get(effort.effort_panel).total_minutes == pytest.approx(31.7 / 60)
    client.force_login(lead)
    assert effort_panel(client, copy) == effort_panel(client, seed)
    panel = effort_panel(client, copy)
    assert 'data-col="per-sentence">31.7<' in panel
    assert 'data-per-hour="113.6">31.7<' in panel
    theirs = Judgment.objects.get(target__sentence__corpus=copy, evaluator=judge)
    assert (theirs.created_at, theirs.updated_at) == (fresh(j).created_at, fresh(j).updated_at)
    pace, copied_pace = judge_header(fresh(j)).pace, judge_header(theirs).pace
    assert copied_pace == pace
    assert (copied_pace.pace_text, copied_pace.left_text) == (
        "32 s per candidate",
        "about 32 s left",
    )


def test_a_file_without_effort_imports_with_none() -> None:
    corpus = corpus_import(source=io.BytesIO(JUDGED), filename="judged.xml").corpus

    efforts = Judgment.objects.filter(target__sentence__corpus=corpus).values_list(
        "active_seconds", "ier_seconds", "ier_clicks"
    )
    assert set(efforts) == {(0.0, 0.0, 0)}
    assert b"activeSeconds" not in exported(corpus)
    assert b"firstSeen" not in exported(corpus)
