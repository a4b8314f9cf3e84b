"""Importing WMT's MQM TSV with WMT's plain-text files, and exporting it back: a campaign
built by hand, its MQM figures computed by hand, the round trip, and every refusal with
its line and reason."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from annotation.corpora.import_state import ImportRefused
from annotation.corpora.mqm_import import corpus_import_mqm
from annotation.models import Corpus, Judgment, Protocol, Span, User
from annotation.tests.corpora.test_appraise import SOURCES, wmt_texts
from metrics.mqm import WMT_TAXONOMY, segment_points
from metrics.protocols import mqm
from metrics.ratings import ratings

pytestmark = pytest.mark.django_db

HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
PLACES = {1: ("doc1", 1), 2: ("doc1", 2), 3: ("doc2", 1), 4: ("doc2", 2)}


def tsv_row(system: str, seg: int, rater: str, target: str, category: str, severity: str) -> str:
    doc, doc_id = PLACES[seg]
    fields = (system, doc, doc_id, seg, rater, SOURCES[seg - 1], target, category, severity)
    return "\t".join(str(f) for f in fields)


#: The campaign, in the export's order (segment, system, judgment, span).
CAMPAIGN = [
    HEADER,
    tsv_row("sysA", 1, "r1", "Der Hund bellt <v>laut</v>.", "Accuracy/Addition", "Minor"),
    tsv_row("sysA", 1, "r2", "Der Hund bellt laut.", "No-error", "No-error"),
    tsv_row("sysB", 1, "r1", "<v>Die</v> Hund bellen.", "Fluency/Grammar", "Major"),
    tsv_row("sysB", 1, "r1", "Die Hund bellen<v>.</v>", "Fluency/Punctuation", "Minor"),
    tsv_row("sysB", 1, "r2", "Die Hund <v>bellen</v>.", "Fluency/Grammar", "Minor"),
    tsv_row("sysA", 2, "r1", "Es ist spät.", "No-error", "No-error"),
    tsv_row("sysB", 2, "r1", "<v>Er</v> ist spät.", "Accuracy/Mistranslation", "Major"),
    tsv_row("sysA", 3, "r1", "Gute Nacht.", "No-error", "No-error"),
    tsv_row("sysB", 3, "r1", "<v>Gut Nacht.</v>", "Non-translation!", "Major"),
    tsv_row("sysA", 4, "r1", "Bis dann.<v></v>", "Accuracy/Omission", "Minor"),
]


def tsv(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def imported(tmp_path: Path, lines: list[str]) -> Corpus:
    corpus_import_mqm(
        data=tsv(lines), filename="mqm.tsv", pair="en-de", texts=wmt_texts(tmp_path), name="mqm"
    )
    return Corpus.objects.get(name="mqm")


def system_mqm(corpus: Corpus) -> dict[str, float]:
    """The figure as metrics.protocols computes it from the stored spans."""
    points = {
        j.pk: segment_points(((s.severity, s.category) for s in j.spans.all()), WMT_TAXONOMY)
        for j in Judgment.objects.in_figures(corpus.pk).prefetch_related("spans")
    }
    rows = Judgment.objects.in_figures(corpus.pk).values_list(
        "pk", "target__translator__name", "target__sentence__position", "evaluator__username"
    )
    pks, systems, segments, raters = zip(*rows, strict=True)
    values = [points[pk] for pk in pks]
    figures = mqm(ratings(systems, segments, raters, values, corpus.n_sentences))
    return {s: round(v, 6) for s, v in zip(figures.systems, figures.values, strict=True)}


def test_a_campaign_in_wmts_mqm_tsv_gives_the_system_scores_computed_by_hand(
    tmp_path: Path,
) -> None:
    corpus = imported(tmp_path, CAMPAIGN)

    assert corpus.protocol == Protocol.MQM
    # per candidate the raters' mean penalty points (Freitag et al.'s weights), then the
    # mean over the candidates rated
    assert system_mqm(corpus) == {
        "sysA": round((1 / 2 + 0 + 0 + 1) / 4, 6),
        "sysB": round(((5 + 0.1 + 1) / 2 + 5 + 25) / 3, 6),
    }


def test_each_error_is_a_span_of_the_candidates_characters(tmp_path: Path) -> None:
    imported(tmp_path, CAMPAIGN)

    got = {
        (s.judgment.target.translator.name, s.judgment.target.sentence.position + 1,
         s.judgment.evaluator.username, s.judgment.target.text[s.start : s.end], s.category,
         s.severity, s.missing)
        for s in Span.objects.select_related("judgment__target__translator")
    }  # fmt: skip
    assert got == {
        ("sysA", 1, "r1", "laut", "Accuracy/Addition", "minor", False),
        ("sysB", 1, "r1", "Die", "Fluency/Grammar", "major", False),
        ("sysB", 1, "r1", ".", "Fluency/Punctuation", "minor", False),
        ("sysB", 1, "r2", "bellen", "Fluency/Grammar", "minor", False),
        ("sysB", 2, "r1", "Er", "Accuracy/Mistranslation", "major", False),
        ("sysB", 3, "r1", "Gut Nacht.", "Non-translation", "major", False),
        ("sysA", 4, "r1", "", "Accuracy/Omission", "minor", True),
    }
    assert Judgment.objects.count() == 9  # one per rater, system and segment
    assert set(User.objects.values_list("username", flat=True)) == {"r1", "r2"}


def test_import_then_export_gives_the_same_rows(tmp_path: Path) -> None:
    wmt_texts(tmp_path)
    (tmp_path / "in.tsv").write_bytes(tsv(CAMPAIGN))
    call_command(
        "import_mqm",
        str(tmp_path / "in.tsv"),
        texts=tmp_path,
        pair="en-de",
        name="mqm",
        stdout=io.StringIO(),
    )
    out = io.StringIO()
    call_command("export_mqm", "mqm", stdout=out)

    assert out.getvalue() == tsv(CAMPAIGN).decode()


def test_neutral_rows_carry_no_points_and_are_not_stored(tmp_path: Path) -> None:
    lines = [
        HEADER,
        tsv_row("sysA", 1, "r1", "Der Hund bellt <v>laut</v>.", "Style/Awkward", "Neutral"),
    ]
    summary = corpus_import_mqm(
        data=tsv(lines), filename="mqm.tsv", pair="en-de", texts=wmt_texts(tmp_path), name="mqm"
    )

    assert (summary.judgments, summary.errors, summary.neutral) == (1, 0, 1)
    assert not Span.objects.exists()


def test_rows_import_into_an_mqm_corpus_already_imported(tmp_path: Path) -> None:
    imported(tmp_path, CAMPAIGN[:2])
    more = [HEADER, tsv_row("sysB", 2, "r1", "<v>Er</v> ist spät.", "Other", "Major")]
    (tmp_path / "more.tsv").write_bytes(tsv(more))

    call_command("import_mqm", str(tmp_path / "more.tsv"), corpus="mqm", stdout=io.StringIO())

    assert Span.objects.filter(category="Other").count() == 1
    with pytest.raises(CommandError, match="line 2: 'r1' has judged this item"):
        call_command("import_mqm", str(tmp_path / "more.tsv"), corpus="mqm", stdout=io.StringIO())


REFUSALS = [
    (
        tsv_row("sysC", 1, "r1", "x", "Other", "Major"),
        "unknown system 'sysC' (the texts have sysA, sysB)",
    ),
    (
        tsv_row("sysA", 1, "r1", "Der Hund.", "Other", "Major"),
        "the target is not 'sysA''s candidate of seg_id 1",
    ),
    (
        tsv_row("sysA", 1, "r1", "<v>Der</v> Hund bellt laut.", "Fluency/Sarcasm", "Major"),
        "category 'Fluency/Sarcasm' is not in the corpus's taxonomy",
    ),
    (
        tsv_row("sysA", 1, "r1", "<v>Der</v> <v>Hund</v> bellt laut.", "Other", "Major"),
        "the target's marks are not one <v>…</v> (2 and 2)",
    ),
    (
        tsv_row("sysA", 1, "r1", "<v>Der</v> Hund bellt laut.", "Other", "Critical"),
        "severity 'Critical' is none of Minor, Major, Neutral, No-error",
    ),
    (
        tsv_row("sysA", 1, "r1", "x", "Other", "Major").replace("\t1\tr1", "\t5\tr1"),
        "seg_id 5 is past the texts' last line (4 lines)",
    ),
    (
        tsv_row("sysA", 1, "r1", "x", "Other", "Major").replace("doc1\t1", "doc2\t1"),
        "doc 'doc2' is not seg_id 1's ('doc1')",
    ),
    (
        tsv_row("sysA", 1, "r1", "x", "Other", "Major").replace("doc1\t1", "doc1\t2"),
        "doc_id 2 is not seg_id 1's place in its document (1)",
    ),
    ("sysA\tdoc1\t1", "3 columns, the header names 9"),
]


@pytest.mark.parametrize("bad, reason", REFUSALS)
def test_a_row_that_does_not_match_is_refused_with_its_line_and_reason(
    tmp_path: Path, bad: str, reason: str
) -> None:
    lines = [HEADER, tsv_row("sysB", 2, "r1", "Er ist spät.", "No-error", "No-error"), bad]
    with pytest.raises(ImportRefused) as refused:
        imported(tmp_path, lines)

    assert str(refused.value) == f"mqm.tsv line 3: {reason}"
    assert not Corpus.all_objects.exists()
    assert not User.objects.exists()


def test_an_esa_corpus_takes_no_mqm_rows(tmp_path: Path) -> None:
    imported(tmp_path, CAMPAIGN[:2])
    Corpus.objects.filter(name="mqm").update(protocol=Protocol.ESA)
    (tmp_path / "more.tsv").write_bytes(tsv(CAMPAIGN[:3]))

    with pytest.raises(CommandError, match="is judged by ESA: MQM rows need an MQM corpus"):
        call_command("import_mqm", str(tmp_path / "more.tsv"), corpus="mqm")


def test_an_mqm_campaign_exports_its_negated_points_as_mt_metrics_eval_keeps_them(
    tmp_path: Path,
) -> None:
    imported(tmp_path, CAMPAIGN)
    out = io.StringIO()
    call_command("export_scores", "mqm", format="mtme", level="sys", stdout=out)
    seg = io.StringIO()
    call_command("export_scores", "mqm", format="mtme", stdout=seg)

    figures = {s: float(v) for s, v in (line.split("\t") for line in out.getvalue().splitlines())}
    assert figures == pytest.approx(
        {"sysA": -(1 / 2 + 0 + 0 + 1) / 4, "sysB": -((5 + 0.1 + 1) / 2 + 5 + 25) / 3}
    )
    assert seg.getvalue().splitlines()[4:] == [
        "sysB\t-3.05",
        "sysB\t-5.0",
        "sysB\t-25.0",
        "sysB\tNone",
    ]
