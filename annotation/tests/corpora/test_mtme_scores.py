"""mt-metrics-eval's human scores in and out: a ``.seg.score`` with unrated segments and
its ``.sys.score`` imported as a corpus's scores, their figures computed by hand,
exported back line for line, and refused with line and reason when they disagree."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from annotation.corpora.text_imports import corpus_import_text
from annotation.models import Corpus
from annotation.statistics import external_metrics
from annotation.tests.corpora.test_appraise import CAMPAIGN, imported

pytestmark = pytest.mark.django_db

#: Human MQM scores as mt-metrics-eval writes them (negated points, higher is better).
SEG = "sysA\t-1.0\nsysA\tNone\nsysA\t-5.5\nsysB\t0.0\nsysB\t-25.0\nsysB\tNone\n"
#: The means of the rated segments, by hand.
SYS = f"sysA\t{(-1.0 - 5.5) / 2!r}\nsysB\t{(0.0 - 25.0) / 2!r}\n"


def corpus(tmp_path: Path) -> Corpus:
    texts = {"src": "a\nb\nc", "ref": "A\nB\nC", "a": "A\nb\nc", "b": "A\nB\nx"}
    for name, text in texts.items():
        (tmp_path / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
    summary = corpus_import_text(
        name="mqm",
        source=tmp_path / "src.txt",
        refs=[tmp_path / "ref.txt"],
        hyps=[("sysA", tmp_path / "a.txt"), ("sysB", tmp_path / "b.txt")],
    )
    return summary.corpus


def import_human(tmp_path: Path, seg: str = SEG, sys: str = SYS) -> None:
    (tmp_path / "en-de.mqm.seg.score").write_text(seg, encoding="utf-8")
    (tmp_path / "en-de.mqm.sys.score").write_text(sys, encoding="utf-8")
    call_command(
        "import_scores",
        "mqm",
        str(tmp_path / "en-de.mqm.seg.score"),
        name="MQM-WMT",
        higher_is_better=True,
        format="mtme",
        sys=str(tmp_path / "en-de.mqm.sys.score"),
        stdout=io.StringIO(),
    )


def exported(*args: str, **options: str) -> str:
    out = io.StringIO()
    call_command("export_scores", *args, stdout=out, **options)
    return out.getvalue()


def test_human_scores_with_unrated_segments_give_the_published_system_scores(
    tmp_path: Path,
) -> None:
    stored = corpus(tmp_path)
    import_human(tmp_path)

    (metric,) = external_metrics(Corpus.objects.get(pk=stored.pk))
    assert {s: f.score for s, f in metric.figures.items()} == {"sysA": -3.25, "sysB": -12.5}


def test_human_scores_round_trip_to_the_same_seg_and_sys_files(tmp_path: Path) -> None:
    corpus(tmp_path)
    import_human(tmp_path)

    assert exported("mqm", format="mtme", metric="MQM-WMT") == SEG
    assert exported("mqm", format="mtme", metric="MQM-WMT", level="sys") == SYS


def test_a_sys_score_that_is_not_its_segments_mean_is_refused_with_its_line(
    tmp_path: Path,
) -> None:
    stored = corpus(tmp_path)
    with pytest.raises(CommandError) as refused:
        import_human(tmp_path, sys="sysA\t-3.25\nsysB\t-12.0\n")

    assert str(refused.value).endswith(
        "en-de.mqm.sys.score line 2: system 'sysB': -12.0 is not the mean of its rated "
        "segments (-12.5)"
    )
    assert not stored.external_metrics.exists()


@pytest.mark.parametrize(
    "seg, reason",
    [
        ("sysA\t-1\nsysA\tnone\n", "line 2: score 'none' is not a number"),
        ("sysA\t-1\nsysC\t0\n", "line 2: unknown system 'sysC'"),
        ("sysA\t-1\nsysA\t-2\nsysA\t-3\nsysA\t-4\n", "line 4: system 'sysA' has a score for more"),
    ],
)
def test_a_broken_seg_score_is_refused_with_its_line_and_reason(
    tmp_path: Path, seg: str, reason: str
) -> None:
    corpus(tmp_path)
    with pytest.raises(CommandError, match=f"en-de.mqm.seg.score {reason}"):
        import_human(tmp_path, seg=seg)


def test_an_esa_campaign_exports_its_candidates_mean_scores(tmp_path: Path) -> None:
    imported(tmp_path, CAMPAIGN)

    sys_lines = exported("wmt-en-de", format="mtme", level="sys")
    seg_lines = exported("wmt-en-de", format="mtme").splitlines()

    # computed by hand from CAMPAIGN: per candidate the judges' mean, then the mean
    assert sys_lines == "sysA\t77.5\nsysB\t43.75\nrefA\t100.0\n"
    assert seg_lines[:4] == ["sysA\t75.0", "sysA\t75.0", "sysA\t90.0", "sysA\t70.0"]
    assert seg_lines[-4:] == ["refA\t100.0", "refA\tNone", "refA\tNone", "refA\tNone"]


def test_export_scores_names_what_it_has_when_asked_for_what_it_has_not(tmp_path: Path) -> None:
    corpus(tmp_path)
    with pytest.raises(CommandError, match=r"no scores named 'COMET' \(esa, mqm, or an imported"):
        exported("mqm", format="mtme", metric="COMET")
    with pytest.raises(CommandError, match="--metric NAME"):
        exported("mqm", format="mtme")
