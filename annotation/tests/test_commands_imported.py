"""The command line of imported scores: ``import_scores`` (both layouts, a refusal as one
line naming the file's line and a non-zero exit, nothing stored), ``delete_scores``, and
``scores`` printing every imported metric beside the app's own."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, ExternalMetric
from annotation.statistics import external_segment_scores
from annotation.tests.factories import HAND_REFS, HAND_SYSTEMS, scores_json, write_corpus
from annotation.tests.imported import import_scores, tsv, wmt
from metrics.segment_scores import ERR_OUT_OF_RANGE

pytestmark = pytest.mark.django_db

COMET = {"perfect": [0.9, 0.8, 0.95, 0.85], "one-off": [0.7] * 4, "bad": [0.1, 0.0, 0.2, 0.1]}


@pytest.fixture
def hand(tmp_path: Path) -> Corpus:
    source = write_corpus(tmp_path / "hand.xml", HAND_REFS, HAND_SYSTEMS)
    return corpus_import(source=source, name="hand").corpus


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_import_scores_reads_either_layout_and_says_what_it_stored(
    hand: Corpus, tmp_path: Path
) -> None:
    (tmp_path / "comet.tsv").write_bytes(tsv(COMET))
    (tmp_path / "metricx.seg.score").write_bytes(wmt(COMET))

    out = run(
        "import_scores",
        "hand",
        str(tmp_path / "comet.tsv"),
        "--name",
        "COMET-22",
        "--higher-is-better",
        "--description",
        "wmt22-comet-da",
    )
    run(
        "import_scores",
        "hand",
        str(tmp_path / "metricx.seg.score"),
        "--name",
        "MetricX",
        "--lower-is-better",
        "--format",
        "wmt",
    )

    assert out == (
        f"hand: imported COMET-22 (higher is better) for 3 systems × 4 sentences from "
        f"{tmp_path / 'comet.tsv'}.\n"
    )
    metrics = {m.name: m for m in ExternalMetric.objects.all()}
    assert metrics["COMET-22"].description == "wmt22-comet-da"
    assert metrics["MetricX"].higher_is_better is False
    assert metrics["MetricX"].layout == "wmt"
    corpus = Corpus.objects.get(pk=hand.pk)
    for name in metrics:
        stored = external_segment_scores(corpus, name)
        assert {s: v.tolist() for s, v in stored.items()} == COMET


@pytest.mark.parametrize(
    "args, refusal",
    [
        (
            ("--name", "COMET", "--higher-is-better"),
            "{file} line 13: unknown system 'rules' "
            "(the corpus's systems: 'perfect', 'one-off', 'bad')",
        ),
        (
            ("--name", "BLEU", "--higher-is-better"),
            "the name 'BLEU' is taken by a metric evaltool computes: choose another",
        ),
        (
            ("--name", "COMET", "--higher-is-better", "--format", "wmt"),
            "{file} line 1: 3 columns, expected 2 (system, score) separated by a tab or blanks",
        ),
    ],
)
def test_a_refused_import_is_one_line_and_stores_nothing(
    hand: Corpus, tmp_path: Path, args: tuple[str, ...], refusal: str
) -> None:
    path = tmp_path / "scores.tsv"
    path.write_bytes(tsv({**COMET, "rules": [0.5] * 4}))

    with pytest.raises(CommandError) as refused:
        run("import_scores", "hand", str(path), *args)

    assert str(refused.value) == refusal.format(file=path)
    assert not ExternalMetric.objects.exists()


def test_a_score_too_large_to_sum_is_refused_with_its_line_and_stores_nothing(
    hand: Corpus, tmp_path: Path
) -> None:
    """Issue 36, point 6: scores of 1e308 were stored, and the systems' means overflowed
    to infinity (``scores --json`` printed a bare ``Infinity``)."""
    path = tmp_path / "huge.tsv"
    path.write_bytes(tsv({**COMET, "one-off": [1e308] * 4}))

    with pytest.raises(CommandError) as refused:
        run("import_scores", "hand", str(path), "--name", "COMET", "--higher-is-better")

    assert str(refused.value) == f"{path} line 5: score '1e+308' {ERR_OUT_OF_RANGE}"
    assert not ExternalMetric.objects.exists()


def test_import_scores_asks_for_a_direction_and_an_existing_corpus(
    hand: Corpus, tmp_path: Path
) -> None:
    path = tmp_path / "comet.tsv"
    path.write_bytes(tsv(COMET))
    with pytest.raises(
        CommandError, match="one of the arguments --higher-is-better --lower-is-better is required"
    ):
        run("import_scores", "hand", str(path), "--name", "COMET")
    with pytest.raises(CommandError, match="no corpus named 'other'"):
        run("import_scores", "other", str(path), "--name", "COMET", "--higher-is-better")
    with pytest.raises(CommandError, match=f"{tmp_path / 'none.tsv'}: no such file"):
        run(
            "import_scores", "hand", str(tmp_path / "none.tsv"), "--name", "C", "--higher-is-better"
        )


def test_import_scores_replaces_only_when_asked_and_delete_scores_deletes(
    hand: Corpus, tmp_path: Path
) -> None:
    import_scores(hand, "COMET", COMET)
    path = tmp_path / "comet.tsv"
    path.write_bytes(tsv({s: [v + 1 for v in values] for s, values in COMET.items()}))
    with pytest.raises(CommandError, match="has an imported metric named 'COMET' already"):
        run("import_scores", "hand", str(path), "--name", "COMET", "--higher-is-better")

    run("import_scores", "hand", str(path), "--name", "COMET", "--higher-is-better", "--replace")
    assert external_segment_scores(Corpus.objects.get(pk=hand.pk), "COMET")["bad"][0] == 1.1

    assert run("delete_scores", "hand", "COMET") == "hand: deleted COMET with its scores.\n"
    assert not ExternalMetric.objects.exists()
    with pytest.raises(CommandError, match="has no imported metric named 'COMET'"):
        run("delete_scores", "hand", "COMET")


def test_import_scores_reads_standard_input(hand: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    """``-`` reads the scores from standard input (``cut … | manage.py import_scores
    CORPUS - …``), named so in a refusal."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(tsv(COMET))))
    out = run("import_scores", "hand", "-", "--name", "GEMBA", "--higher-is-better")
    assert out.endswith("for 3 systems × 4 sentences from <stdin>.\n")

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"bad\t1\tx\n")))
    with pytest.raises(CommandError, match="^<stdin> line 1: score 'x' is not a number$"):
        run("import_scores", "hand", "-", "--name", "GEMBA-2", "--higher-is-better")


def test_scores_prints_and_writes_every_imported_metric_beside_the_apps_own(
    hand: Corpus,
) -> None:
    import_scores(hand, "xCOMET", COMET)
    import_scores(hand, "MetricX", COMET, higher_is_better=False)

    figures = scores_json("hand")["translators"]["bad"]
    assert figures["xCOMET"]["score"] == pytest.approx(np.mean(COMET["bad"]))
    assert figures["xCOMET"]["signature"].startswith("ext:xCOMET|agg:mean|higher:yes|imported:")
    assert figures["MetricX"]["signature"].startswith("ext:MetricX|agg:mean|higher:no|")
    assert "bleu" in figures

    table = run("scores", "hand").splitlines()
    heads = table[0].split()
    assert heads[-2:] == ["xCOMET", "MetricX"]  # as named, not upper-cased
    bad = next(line for line in table if line.startswith("bad"))
    assert bad.split()[-2:] == ["0.10", "0.10"]
