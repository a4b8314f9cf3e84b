"""ESA and MQM corpora through evalTrans (issue 41, point 5): the protocol, the MQM
taxonomy, each judgment's ESA score, its error spans (the judge's and the suggested
ones, what became of each suggestion, the seconds on each) and its effort go out and
come back whole; import → export → import → export gives the same bytes; and an aWER
corpus's file is what it always was."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from annotation.corpora.evaltrans.error_spans import SOURCES
from annotation.corpora.imports import corpus_import
from annotation.judging.changes import judgment_finish
from annotation.judging.esa import judgment_mark_span, judgment_set_esa_score
from annotation.judging.start import judgment_open, judgment_seen
from annotation.models import Corpus, Judgment, Protocol, Span, User
from annotation.tests.factories import DEMO_XML, JUDGED, SEED_XML, exported, target_of
from metrics.error_spans import EDITED, KEPT, REMOVED, MarkedSpan, suggestion_outcome
from metrics.mqm import WMT_TAXONOMY, taxonomy_from_json

pytestmark = pytest.mark.django_db

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
SENTENCE = """<sentence id="s1" doc="d1">
  <source>La figura muestra el método.</source>
  <eval translator="first reference">
    <target>This figure shows the procedure.</target>
  </eval>
"""
# "Chart represent the method.": Chart 0–5, represent 6–15, the 16–19, method 20–26, . 26–27
CANDIDATE = "Chart represent the method."

#: An ESA corpus as the export writes it: two judges' scores and spans, one judgment
#: still in progress, one candidate without judgment.
ESA_FILE = (
    HEAD
    + '<evalTrans name="esa" judgingProtocol="esa">\n'
    + SENTENCE
    + f"""  <eval translator="Statistical" evaluator="JM" judgeNote="unsure of \
&quot;represent&quot;" activeSeconds="41.5" firstSeen="2026-03-02T09:15:04.120000Z" \
lastChanged="2026-03-02T09:15:45.620000Z" esaScore="62">
    <target>{CANDIDATE}</target>
    <errorSpans>
      <span start="6" end="15" severity="major" seconds="3.25"/>
      <span start="27" end="27" missing="true" severity="minor" seconds="1.5"/>
    </errorSpans>
  </eval>
  <eval translator="Statistical" evaluator="AB" activeSeconds="9.0" \
firstSeen="2026-03-02T10:00:00.000000Z" lastChanged="2026-03-02T10:00:09.000000Z" esaScore="100">
    <target>{CANDIDATE}</target>
  </eval>
  <eval translator="Rules" evaluator="JM" state="pending">
    <target>The figure shows the method.</target>
    <errorSpans>
      <span start="4" end="10" severity="minor"/>
    </errorSpans>
  </eval>
  <eval translator="Neural">
    <target>The figure shows the procedure.</target>
  </eval>
</sentence>
</evalTrans>
"""
)

#: ESA with pre-filled spans: three suggestions, the first kept, the second edited
#: (widened), the third removed, and a [MISSING] marker of the judge's own.
PREFILL_FILE = (
    HEAD
    + '<evalTrans name="prefill" judgingProtocol="esa_prefill">\n'
    + SENTENCE
    + f"""  <eval translator="Statistical" evaluator="JM" activeSeconds="30.25" \
firstSeen="2026-03-02T09:15:04.000000Z" lastChanged="2026-03-02T09:15:34.250000Z" esaScore="40">
    <target>{CANDIDATE}</target>
    <errorSpans>
      <span start="0" end="5" severity="minor" origin="suggested" source="imported"/>
      <span start="6" end="15" severity="major" origin="suggested" source="imported"/>
      <span start="20" end="26" severity="minor" origin="suggested" source="imported"/>
      <span start="0" end="5" severity="minor" suggestion="1" seconds="0.5"/>
      <span start="6" end="19" severity="major" suggestion="2" seconds="2.75"/>
      <span start="27" end="27" missing="true" severity="major" seconds="4.0"/>
    </errorSpans>
  </eval>
</sentence>
</evalTrans>
"""
)

#: MQM with a taxonomy of the lead's own (weights, a category with weights of its own,
#: a name that needs escaping), and two spans over one word in different categories.
MQM_FILE = (
    HEAD
    + """<evalTrans name="mqm" judgingProtocol="mqm">
<mqmTaxonomy>
  <weight severity="minor" points="1"/>
  <weight severity="major" points="10"/>
  <category name="Accuracy"/>
  <category name="Fluency">
    <weight severity="minor" points="0.5"/>
  </category>
  <category name="Names &amp; &quot;places&quot;"/>
</mqmTaxonomy>
"""
    + SENTENCE
    + f"""  <eval translator="Statistical" evaluator="JM" activeSeconds="12.5" \
firstSeen="2026-03-02T09:15:04.000000Z" lastChanged="2026-03-02T09:15:16.500000Z">
    <target>{CANDIDATE}</target>
    <errorSpans>
      <span start="6" end="15" severity="major" category="Accuracy" seconds="2.0"/>
      <span start="6" end="15" severity="minor" category="Fluency"/>
      <span start="27" end="27" missing="true" severity="minor" category="Names &amp; \
&quot;places&quot;"/>
    </errorSpans>
  </eval>
</sentence>
</evalTrans>
"""
)

FILES = [ESA_FILE, PREFILL_FILE, MQM_FILE]
IDS = ["esa", "esa_prefill", "mqm"]


def imported(content: bytes, name: str | None = None) -> Corpus:
    return corpus_import(source=io.BytesIO(content), name=name, filename="f.xml").corpus


def spans_of(corpus: Corpus) -> list[tuple[object, ...]]:
    """Every span of the corpus, with the suggestion it names as the suggestion's own place."""
    return sorted(
        Span.objects.filter(judgment__target__sentence__corpus=corpus).values_list(
            "judgment__evaluator__username",
            "judgment__target__translator__name",
            "origin",
            "source",
            "start",
            "end",
            "missing",
            "severity",
            "category",
            "seconds",
            "suggestion__start",
            "suggestion__end",
            "suggestion__severity",
        )
    )


def judgments_of(corpus: Corpus) -> list[tuple[object, ...]]:
    return sorted(
        Judgment.objects.filter(target__sentence__corpus=corpus).values_list(
            "evaluator__username",
            "target__translator__name",
            "state",
            "esa_score",
            "sser",
            "note",
            "active_seconds",
        ),
        key=str,
    )


@pytest.mark.parametrize("text", FILES, ids=IDS)
def test_the_export_of_an_imported_file_is_that_file_byte_for_byte(text: str) -> None:
    corpus = imported(text.encode())

    assert exported(corpus).decode() == text


@pytest.mark.parametrize("text", FILES, ids=IDS)
def test_import_export_import_export_gives_the_same_bytes_and_rows(text: str) -> None:
    first = imported(text.encode(), "first")
    once = exported(first)
    second = imported(once, "second")
    twice = exported(second)

    assert twice.replace(b'name="second"', b'name="first"') == once
    assert (second.protocol, second.mqm_taxonomy) == (first.protocol, first.mqm_taxonomy)
    assert judgments_of(second) == judgments_of(first)
    assert spans_of(second) == spans_of(first)


def test_an_esa_file_gives_the_protocol_scores_spans_effort_and_states() -> None:
    corpus = imported(ESA_FILE.encode())

    assert corpus.protocol == Protocol.ESA
    jm = Judgment.objects.get(evaluator__username="JM", target__translator__name="Statistical")
    assert (jm.state, jm.esa_score, jm.active_seconds) == ("done", 62, 41.5)
    assert jm.note == 'unsure of "represent"'
    assert jm.created_at == datetime(2026, 3, 2, 9, 15, 4, 120000, tzinfo=UTC)
    assert sorted(
        Span.objects.filter(judgment=jm).values_list("start", "end", "missing", "seconds")
    ) == [(6, 15, False, 3.25), (27, 27, True, 1.5)]
    pending = Judgment.objects.get(target__translator__name="Rules")
    assert (pending.state, pending.esa_score) == ("pending", None)
    assert Judgment.objects.get(evaluator__username="AB").esa_score == 100


def test_what_became_of_each_suggestion_survives_the_round_trip() -> None:
    again = imported(exported(imported(PREFILL_FILE.encode(), "first")), "second")

    judgment = Judgment.objects.get(target__sentence__corpus=again)
    suggestions = Span.objects.filter(judgment=judgment, origin=Span.Origin.SUGGESTED)
    outcomes = [
        suggestion_outcome(s.marked, [k.marked for k in s.kept_as.all()])
        for s in suggestions.order_by("start")
    ]
    assert again.protocol == Protocol.ESA_PREFILL
    assert outcomes == [KEPT, EDITED, REMOVED]
    own = Span.objects.get(judgment=judgment, origin=Span.Origin.JUDGE, missing=True)
    assert (own.suggestion, own.severity, own.seconds) == (None, "major", 4.0)


def test_an_mqm_file_gives_its_own_taxonomy_and_categories() -> None:
    corpus = imported(MQM_FILE.encode())

    taxonomy = taxonomy_from_json(corpus.mqm_taxonomy)
    assert corpus.protocol == Protocol.MQM
    assert taxonomy.names == ("Accuracy", "Fluency", 'Names & "places"')
    assert (taxonomy.points("major", "Accuracy"), taxonomy.points("minor", "Fluency")) == (10, 0.5)
    assert corpus.mqm_taxonomy["weights"] == {"minor": 1, "major": 10}
    categories = Span.objects.filter(judgment__target__sentence__corpus=corpus).values_list(
        "category", flat=True
    )
    assert sorted(categories) == ["Accuracy", "Fluency", 'Names & "places"']


def test_an_mqm_corpus_with_wmts_taxonomy_writes_it_and_reads_it_back() -> None:
    corpus = corpus_import(source=SEED_XML, name="seed", protocol="mqm").corpus

    text = exported(corpus)

    assert b'judgingProtocol="mqm"' in text
    assert b'<category name="Fluency/Punctuation">' in text
    assert b'<weight severity="minor" points="0.1"/>' in text
    assert imported(text, "copy").taxonomy == WMT_TAXONOMY


def test_an_esa_corpus_judged_on_its_page_goes_out_and_comes_back_byte_identical(
    judge: User,
) -> None:
    """Judged through the ESA page's services: two spans marked, a score, accept; the
    copy's export is the original's."""
    corpus = corpus_import(source=SEED_XML, name="seed", protocol="esa").corpus
    corpus.judges.add(judge)
    t = timezone.now()
    j = judgment_open(user=judge, target=target_of(corpus, "a translator"))
    judgment_seen(judgment=j, user=judge, at=t)
    text = j.target.text
    word = text.index(text.split()[1])
    j = judgment_mark_span(
        judgment=j,
        user=judge,
        version=j.version,
        span=MarkedSpan(word, word + len(text.split()[1]), "major"),
        at=t + timedelta(seconds=4),
    )
    j = judgment_mark_span(
        judgment=j,
        user=judge,
        version=j.version,
        span=MarkedSpan(len(text), len(text), "minor", missing=True),
        at=t + timedelta(seconds=9),
    )
    j = judgment_set_esa_score(
        judgment=j, user=judge, version=j.version, score=55, at=t + timedelta(seconds=15)
    )
    judgment_finish(judgment=j, user=judge, version=j.version, at=t + timedelta(seconds=20))
    original = exported(corpus)
    corpus.name = "the original"
    corpus.save()

    copy = imported(original)

    assert exported(copy) == original
    assert b'esaScore="55"' in original
    assert b'missing="true" severity="minor"' in original
    assert judgments_of(copy) == judgments_of(corpus)
    assert spans_of(copy) == spans_of(corpus)


def test_an_esa_prefill_corpus_keeps_where_each_suggestion_came_from(judge: User) -> None:
    """Suggestions the page wrote from the aWER alignment go out as source="awer",
    those of a span file as source="imported", and come back as the rows they were."""
    corpus = corpus_import(source=SEED_XML, name="seed", protocol="esa_prefill").corpus
    corpus.judges.add(judge)
    j = judgment_open(user=judge, target=target_of(corpus, "a translator"))
    j = judgment_set_esa_score(judgment=j, user=judge, version=j.version, score=70)
    judgment_finish(judgment=j, user=judge, version=j.version)
    original = exported(corpus)
    corpus.name = "the original"
    corpus.save()

    copy = imported(original)
    prefilled = imported(PREFILL_FILE.encode(), "prefilled")

    assert exported(copy) == original
    assert b'origin="suggested" source="awer"' in original
    assert spans_of(copy) == spans_of(corpus)
    assert {s[3] for s in spans_of(copy) if s[2] == "suggested"} == {"awer"}
    assert {s[3] for s in spans_of(prefilled) if s[2] == "suggested"} == {"imported"}
    assert {s[3] for s in spans_of(copy) if s[2] == "judge"} == {""}


def test_the_files_sources_are_the_databases() -> None:
    assert tuple(Span.Source.values) == SOURCES


@pytest.mark.parametrize("content", [DEMO_XML.read_bytes(), SEED_XML.read_bytes(), JUDGED])
def test_an_awer_corpus_file_says_nothing_of_protocols(content: bytes) -> None:
    text = exported(imported(content, "c"))

    assert b"judgingProtocol" not in text
    assert b"mqmTaxonomy" not in text
    assert b"esaScore" not in text
    assert b"errorSpans" not in text


def test_a_taxonomy_of_the_leads_own_is_kept_in_any_corpus() -> None:
    corpus = imported(JUDGED, "awer")
    corpus.mqm_taxonomy = {"weights": {"minor": 2, "major": 6}, "categories": [{"name": "X"}]}
    corpus.save()

    text = exported(corpus)

    assert b"judgingProtocol" not in text
    assert imported(text, "copy").mqm_taxonomy == corpus.mqm_taxonomy


def test_an_export_asks_as_many_queries_for_one_judgment_as_for_many() -> None:
    """No query per judgment or span: a batch's spans come in one query."""
    block = PREFILL_FILE.split(SENTENCE)[1].split("</sentence>")[0]
    judges = "".join(block.replace('"JM"', f'"J{k}"') for k in range(5))
    many = PREFILL_FILE.replace(block, judges).split(SENTENCE)
    larger = many[0] + (SENTENCE + many[1].split("</evalTrans>")[0]) * 4 + "</evalTrans>\n"
    small, large = imported(PREFILL_FILE.encode(), "small"), imported(larger.encode(), "large")
    assert Span.objects.filter(judgment__target__sentence__corpus=large).count() == 6 * 5 * 4

    with CaptureQueriesContext(connection) as one:
        exported(small)
    with CaptureQueriesContext(connection) as twenty:
        exported(large)

    assert len(twenty) == len(one)
    assert sum("annotation_span" in q["sql"] for q in twenty.captured_queries) == 1


def test_import_evaltrans_takes_the_files_protocol_unless_told_another(tmp_path: Path) -> None:
    path = tmp_path / "prefill.xml"
    path.write_text(PREFILL_FILE, encoding="utf-8")

    call_command("import_evaltrans", str(path), stdout=io.StringIO())
    with pytest.raises(CommandError, match="a corpus judged by MQM cannot hold"):
        call_command(
            "import_evaltrans", str(path), "--name", "x", "--protocol", "mqm", stdout=io.StringIO()
        )

    assert Corpus.objects.get(name="prefill").protocol == Protocol.ESA_PREFILL
    assert not Corpus.all_objects.filter(name="x").exists()
