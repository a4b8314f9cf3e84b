"""Importing Appraise's ESA/DA CSV with WMT's plain-text files, and exporting it back:
a campaign built by hand, its system figures computed by hand, WMT's conventions, the
round trip, and every refusal with its line and reason."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from annotation.corpora.appraise import corpus_import_appraise
from annotation.corpora.appraise_csv import read_appraise_rows
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.text_imports import corpus_import_text
from annotation.models import Corpus, Judgment, Protocol, Span, User
from metrics.protocols import esa
from metrics.ratings import ratings

pytestmark = pytest.mark.django_db

T0 = 1718899200
SOURCES = ["The dog barks.", "It is late.", "Good night.", "See you."]
REF_A = ["Der Hund bellt.", "Es ist spät.", "Gute Nacht.", "Bis bald."]
SYS_A = ["Der Hund bellt laut.", "Es ist  spät.", "Gute Nacht.", "Bis dann."]
SYS_B = ["Die Hund bellen.", "Er ist spät.", "Gut Nacht.", "Sehen Sie."]
DOCS = ["news\tdoc1", "news\tdoc1", "speech\tdoc2", "speech\tdoc2"]


def wmt_texts(root: Path) -> Path:
    """WMT's plain-text layout of one pair, en-de."""
    files = {
        "sources/en-de.txt": SOURCES,
        "references/en-de.refA.txt": REF_A,
        "system-outputs/en-de/sysA.txt": SYS_A,
        "system-outputs/en-de/sysB.txt": SYS_B,
        "documents/en-de.docs": DOCS,
    }
    for name, lines in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def spans(*triples: tuple[int, int, str]) -> str:
    """A spans cell as Appraise's CSV quotes it."""
    inner = ", ".join(
        f'{{""start_i"": {s}, ""end_i"": {e}, ""severity"": ""{sev}"", ""error_type"": null}}'
        for s, e, sev in triples
    )
    return f'"[{inner}]"'


def row(
    user: str,
    system: str,
    item: int,
    score: int,
    *,
    kind: str = "TGT",
    doc: str | None = None,
    marks: str = "[]",
    start: int = 0,
    seconds: int = 30,
    is_doc: str = "False",
) -> str:
    doc = doc if doc is not None else DOCS[item].split("\t")[1]
    return (
        f"{user},{system},{item},{kind},eng,deu,{score},{doc},{is_doc},{marks},"
        f"{T0 + start},{T0 + start + seconds}"
    )


#: The campaign (rows in the export's order: annotator, then start time).
CAMPAIGN = [
    row("u1", "sysA", 0, 80, marks=spans((15, 19, "minor")), start=0, seconds=40),
    row("u1", "sysB", 0, 50, marks=spans((0, 3, "minor"), (9, 15, "major")), start=60),
    row("u1", "refA", 0, 100, start=120),
    row("u1", "sysA", 1, 60, start=180),
    row("u1", "sysB", 1, 40, marks=spans((0, 2, "major")), start=240),
    row("u1", "sysA", 2, 10, kind="BAD", doc="doc2#bad", marks=spans((0, 4, "major")), start=300),
    row("u1", "sysA", 2, 90, start=360),
    row("u1", "sysB", 2, 60, marks=spans((0, 3, "minor")), start=420),
    row("u1", "sysA", 3, 70, marks=spans((4, 8, "minor"), (9, 9, "major")), start=480),
    row("u1", "sysB", 3, 30, marks=spans((0, 10, "major")), start=540),
    row("u2", "sysA", 0, 70, start=600, seconds=20),
    row("u2", "sysB", 0, 20, start=660),
    row("u2", "sysA", 1, 90, start=720),
    row("u2", "sysB", 1, 60, start=780),
    row("u2", "sysB", 3, 95, kind="REF", start=840),
]


def csv_bytes(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def imported(tmp_path: Path, lines: list[str]) -> Corpus:
    corpus_import_appraise(
        data=csv_bytes(lines),
        filename="appraise.csv",
        pair="en-de",
        texts=wmt_texts(tmp_path),
        name="wmt-en-de",
    )
    return Corpus.objects.get(name="wmt-en-de")


def system_esa(corpus: Corpus) -> dict[str, float]:
    """The figure as metrics.protocols computes it from the stored judgments."""
    rows = list(
        Judgment.objects.in_figures(corpus.pk).values_list(
            "target__translator__name", "target__sentence__position", "evaluator__username",
            "esa_score",
        )
    )  # fmt: skip
    systems, segments, annotators, values = zip(*rows, strict=True)
    figures = esa(ratings(systems, segments, annotators, values, corpus.n_sentences))
    return dict(zip(figures.systems, figures.values, strict=True))


def test_a_campaign_judged_in_appraise_gives_the_system_scores_computed_by_hand(
    tmp_path: Path,
) -> None:
    corpus = imported(tmp_path, CAMPAIGN)

    assert corpus.protocol == Protocol.ESA
    # each candidate's mean over its annotators, then the mean over the candidates
    assert system_esa(corpus) == {
        "sysA": ((80 + 70) / 2 + (60 + 90) / 2 + 90 + 70) / 4,  # 77.5
        "sysB": ((50 + 20) / 2 + (40 + 60) / 2 + 60 + 30) / 4,  # 43.75
        "refA": 100.0,
    }


def test_each_judgment_keeps_its_annotator_spans_severities_and_time(tmp_path: Path) -> None:
    corpus = imported(tmp_path, CAMPAIGN)

    judgment = Judgment.objects.get(
        evaluator__username="u1", target__translator__name="sysA", target__sentence__position=0
    )
    assert (judgment.esa_score, judgment.active_seconds) == (80, 40)
    assert (judgment.created_at.timestamp(), judgment.updated_at.timestamp()) == (T0, T0 + 40)
    assert [(s.start, s.end, s.severity, s.missing) for s in judgment.spans.all()] == [
        (15, 19, "minor", False)
    ]
    assert judgment.target.text[15:19] == "laut"
    # a span on an empty place is a [MISSING] marker there
    last = Judgment.objects.get(
        evaluator__username="u1", target__translator__name="sysA", target__sentence__position=3
    )
    assert [(s.start, s.end, s.missing) for s in last.spans.order_by("start")] == [
        (4, 8, False),
        (9, 9, True),
    ]
    # annotators become inactive judges, as in every import
    assert set(User.objects.filter(judgments__isnull=False).values_list("username", flat=True)) == {
        "u1",
        "u2",
    }
    assert not User.objects.get(username="u1").is_active
    # the documents and domains of WMT's .docs
    assert list(corpus.sentences.values_list("doc", flat=True)) == ["doc1", "doc1", "doc2", "doc2"]


def test_spans_land_on_the_same_characters_of_a_whitespace_normalised_text(
    tmp_path: Path,
) -> None:
    # sysA line 1 is "Es ist  spät." (two spaces): stored "Es ist spät."
    lines = [row("u1", "sysA", 1, 60, marks=spans((8, 12, "minor")))]
    imported(tmp_path, lines)

    span = Span.objects.get()
    assert span.judgment.target.text[span.start : span.end] == "spät"


def test_quality_control_and_reference_items_are_control_judgments(tmp_path: Path) -> None:
    imported(tmp_path, CAMPAIGN)

    bad = Judgment.objects.get(control=Judgment.Control.DEGRADED)
    assert (bad.evaluator.username, bad.target.translator.name, bad.esa_score) == ("u1", "sysA", 10)
    assert [(s.start, s.end, s.severity) for s in bad.spans.all()] == [(0, 4, "major")]
    ref = Judgment.objects.get(control=Judgment.Control.REFERENCE)
    assert ref.target.translator.name == "first reference"
    assert ref.shown_as is not None
    assert ref.shown_as.name == "sysB"
    assert Judgment.objects.counted().count() == 13  # controls count in no figure


def test_wmt_conventions_leave_out_tutorials_incomplete_and_duplicate_documents(
    tmp_path: Path,
) -> None:
    lines = [
        row("u1", "sysA", 0, 80, start=0),
        row("u1", "sysA", 0, 20, start=900),  # rated again later: this one stands
        row("u1", "sysB", 0, 50, start=100),
        row("u1", "tutorial-system", 0, 5, start=200),
        row("u1", "sysB", 1, 5, doc="doc1#incomplete", start=300),
        row("u1", "sysB", 2, 5, doc="doc2#dup", start=400),
        row("u1", "sysB", 3, 77, is_doc="True", start=500),
    ]
    summary = corpus_import_appraise(
        data=csv_bytes(lines),
        filename="appraise.csv",
        pair="en-de",
        texts=wmt_texts(tmp_path),
        name="wmt-en-de",
    )

    assert (summary.judgments, summary.not_judgments, summary.replaced, summary.documents) == (
        2,
        3,
        1,
        1,
    )
    assert dict(Judgment.objects.values_list("target__translator__name", "esa_score")) == {
        "sysA": 20,
        "sysB": 50,
    }


def test_import_then_export_gives_the_same_rows(tmp_path: Path) -> None:
    wmt_texts(tmp_path)
    (tmp_path / "in.csv").write_bytes(csv_bytes(CAMPAIGN))
    call_command(
        "import_appraise",
        str(tmp_path / "in.csv"),
        texts=tmp_path,
        pair="en-de",
        name="wmt-en-de",
        stdout=io.StringIO(),
    )
    out = io.StringIO()
    call_command("export_appraise", "wmt-en-de", stdout=out)

    assert out.getvalue() == csv_bytes(CAMPAIGN).decode()
    assert read_appraise_rows(out.getvalue().encode()) == read_appraise_rows(csv_bytes(CAMPAIGN))


def test_an_appraise_file_imports_into_a_corpus_already_imported(tmp_path: Path) -> None:
    for name, lines in {"src": SOURCES, "ref": REF_A, "a": SYS_A}.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    corpus_import_text(
        name="plain",
        source=tmp_path / "src.txt",
        refs=[tmp_path / "ref.txt"],
        hyps=[("sysA", tmp_path / "a.txt")],
    )
    (tmp_path / "in.csv").write_bytes(csv_bytes([row("u1", "sysA", 2, 90)]))
    with pytest.raises(CommandError, match="'plain' is judged by aWER \\+ SSER"):
        call_command("import_appraise", str(tmp_path / "in.csv"), corpus="plain")
    Corpus.objects.filter(name="plain").update(protocol=Protocol.ESA)

    call_command("import_appraise", str(tmp_path / "in.csv"), corpus="plain", stdout=io.StringIO())

    assert Judgment.objects.get().esa_score == 90
    with pytest.raises(CommandError, match="line 1: 'u1' has judged this item"):
        call_command(
            "import_appraise", str(tmp_path / "in.csv"), corpus="plain", stdout=io.StringIO()
        )


REFUSALS = [
    (row("u1", "sysC", 0, 50), "unknown system 'sysC' (the texts have sysA, sysB)"),
    (
        row("u1", "sysA", 4, 50, doc="doc2"),
        "item id 4 is past the texts' last line (4 lines, from 0)",
    ),
    (row("u1", "sysA", 2, 50, doc="doc1"), "document id 'doc1' is not line 2's ('doc2')"),
    (row("u1", "sysA", 0, 50, marks='"[{""start_i"": 1,}]"'), "error spans are not JSON"),
    (row("u1", "sysA", 0, 101), "score 101 is outside 0–100"),
    (
        row("u1", "sysA", 0, 50, marks=spans((16, 40, "minor"))),
        "error span 1: characters 16–40 run past the target's 20",
    ),
    (
        row("u1", "sysA", 0, 50, marks=spans((0, 3, "critical"))),
        "error span 1: severity 'critical' is none of minor, major",
    ),
    (row("u1", "sysA", 0, 50, kind="XYZ"), "item type 'XYZ' is none of TGT, BAD, REF"),
    (row("u1", "sysA", 0, 50, kind="BAD"), "a BAD item's document id ends in '#bad', not 'doc1'"),
    (
        row("u1", "sysA", 0, 50).replace(",eng,", ",fra,"),
        "source language 'fra' is not the pair's 'eng'",
    ),
    ("u1,sysA,0,TGT,eng,deu,50", "expected 12 fields"),
    (
        row("u1", "sysA", 0, 50).replace(
            ",[],",
            ',"[{""start_i"": 0, ""end_i"": 3, '
            '""severity"": ""minor"", ""error_type"": ""Fluency/Sarcasm""}]",',
        ),
        "error span 1: error_type 'Fluency/Sarcasm': not in the taxonomy",
    ),
]


@pytest.mark.parametrize("bad, reason", REFUSALS)
def test_a_row_that_does_not_match_is_refused_with_its_line_and_reason(
    tmp_path: Path, bad: str, reason: str
) -> None:
    lines = [row("u1", "sysB", 0, 50), bad]
    with pytest.raises(ImportRefused) as refused:
        imported(tmp_path, lines)

    assert str(refused.value).startswith(f"appraise.csv line 2: {reason}")
    assert not Corpus.all_objects.exists()
    assert not User.objects.exists()


def test_the_command_says_the_refusal_in_one_line(tmp_path: Path) -> None:
    wmt_texts(tmp_path)
    (tmp_path / "in.csv").write_bytes(csv_bytes([row("u1", "sysZ", 0, 50)]))
    with pytest.raises(CommandError, match=r"in\.csv line 1: unknown system 'sysZ'"):
        call_command(
            "import_appraise", str(tmp_path / "in.csv"), texts=tmp_path, pair="en-de", name="x"
        )
    assert not Corpus.all_objects.exists()


def test_the_dashboard_its_downloads_and_controls_read_an_imported_campaign(
    tmp_path: Path, lead_client: Client
) -> None:
    corpus = imported(tmp_path, CAMPAIGN)

    page = lead_client.get(reverse("dashboard:page", args=[corpus.pk]))
    spans = lead_client.get(reverse("dashboard:mqm_tsv", args=[corpus.pk]))
    controls = lead_client.get(reverse("controls:settings", args=[corpus.pk]))

    assert page.status_code == 200
    assert controls.status_code == 200
    assert spans.status_code == 200
    text = b"".join(spans.streaming_content).decode()  # type: ignore[attr-defined]
    assert "sysA\tdoc1\t1\t1\tu1\tThe dog barks.\tDer Hund bellt <v>laut</v>.\t\tMinor" in text


def clusters_campaign(tmp_path: Path, n: int = 30) -> Corpus:
    """``n`` lines judged by one annotator (:data:`SCORES`): three systems far apart and
    two nearly level, imported as the corpus "big"."""
    root = tmp_path / "wmt"
    texts = {
        "sources/en-de.txt": [f"source {k}" for k in range(n)],
        "references/en-de.refA.txt": [f"reference {k}" for k in range(n)],
        "documents/en-de.docs": [f"news\td{k // 10}" for k in range(n)],
        **{f"system-outputs/en-de/{s}.txt": [f"{s} {k}" for k in range(n)] for s in SCORES},
    }
    for name, lines in texts.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    lines = [
        f"u1,{s},{k},TGT,eng,deu,{score(k)},d{k // 10},False,[],{T0 + k},{T0 + k + 9}"
        for s, score in SCORES.items()
        for k in range(n)
    ]
    corpus_import_appraise(
        data=csv_bytes(lines), filename="esa.csv", pair="en-de", texts=root, name="big"
    )
    return Corpus.objects.get(name="big")


def test_a_published_campaigns_clusters_come_out_as_published(tmp_path: Path) -> None:
    """WMT's clusters of the imported judgments are those of the file's own scores,
    [good], [fair, fair2], [poor]."""
    n = 30
    corpus = clusters_campaign(tmp_path, n)

    rows = Judgment.objects.in_figures(corpus.pk).values_list(
        "target__translator__name", "target__sentence__position", "evaluator__username",
        "esa_score",
    )  # fmt: skip
    found = esa(ratings(*zip(*rows, strict=True), corpus.n_sentences)).clusters()

    assert {f.system: f.cluster for f in found.figures} == {
        "good": 1,
        "fair": 2,
        "fair2": 2,
        "poor": 3,
    }
    assert {f.system: f.mean for f in found.figures} == {
        s: sum(score(k) for k in range(n)) / n for s, score in SCORES.items()
    }


#: The scores of the clusters' campaign, by system and line.
SCORES = {
    "good": lambda k: 90 + k % 7,
    "fair": lambda k: 60 + k % 9,
    "fair2": lambda k: 61 + k % 8,
    "poor": lambda k: 20 + k % 11,
}


def test_spans_with_error_types_make_an_mqm_corpus_and_a_ref_item_names_its_reference(
    tmp_path: Path,
) -> None:
    grammar = '""error_type"": ""Fluency/Grammar""'
    marks = f'"[{{""start_i"": 0, ""end_i"": 3, ""severity"": ""major"", {grammar}}}]"'
    lines = [row("u1", "sysB", 0, 40, marks=marks), row("u1", "refA", 1, 98, kind="REF")]
    corpus = imported(tmp_path, lines)

    assert corpus.protocol == Protocol.MQM
    assert Span.objects.get().category == "Fluency/Grammar"
    ref = Judgment.objects.get(control=Judgment.Control.REFERENCE)
    assert ref.target.translator.name == "first reference"
    assert ref.shown_as is not None
    assert ref.shown_as.name == "refA"
    out = io.StringIO()
    call_command("export_appraise", "wmt-en-de", stdout=out)
    assert read_appraise_rows(out.getvalue().encode()) == read_appraise_rows(csv_bytes(lines))


@pytest.mark.parametrize(
    "broken, text, reason",
    [
        ("documents/en-de.docs", "d1\nd1\nd2\nd2\n", "en-de.docs line 1: expected 'domain<TAB>"),
        ("system-outputs/en-de/sysB.txt", "one line\n", "sysB.txt line 2: has 1 lines but"),
    ],
)
def test_texts_not_in_wmts_layout_are_refused_with_file_and_line(
    tmp_path: Path, broken: str, text: str, reason: str
) -> None:
    wmt_texts(tmp_path)
    (tmp_path / broken).write_text(text, encoding="utf-8")

    with pytest.raises(ImportRefused, match=reason):
        corpus_import_appraise(
            data=csv_bytes(CAMPAIGN[:1]), filename="a.csv", pair="en-de", texts=tmp_path, name="x"
        )
    assert not Corpus.all_objects.exists()
