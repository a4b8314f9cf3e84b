"""mt-metrics-eval's human ``.sys.score`` without its ``.seg.score`` (a WMT release that
publishes only system-level human scores for a pair): ``import_scores --format mtme
--sys FILE`` with no segment file stores each line as its system's published figure, a
human figure of the corpus; ``export_scores --level sys`` writes the same lines back;
there is no ``.seg.score`` to write; a broken file is refused with its line and reason,
and nothing of it is kept. The imported-scores page takes the same file in its
``.sys.score`` field, alone or beside the ``.seg.score`` (then checked against it), and
refuses a broken one with 400, its line and reason."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from lxml import etree

from annotation.changes import candidates_changed
from annotation.corpora.forms import ERR_NO_SCORES_FILE, ERR_SYS_LAYOUT
from annotation.models import Corpus, Target
from annotation.statistics import external_metrics
from annotation.tests.corpora.test_mtme_scores import SEG, SYS, corpus, exported, import_human
from annotation.tests.factories import HTMX, by_id

pytestmark = pytest.mark.django_db

#: A system-level file as WMT publishes one: each system's figure, full precision.
ALONE = "sysA\t-3.6285714285714286\nsysB\t-11.25\n"


def import_alone(tmp_path: Path, sys: str = ALONE, layout: str = "mtme") -> str:
    """``import_scores mqm --format mtme --sys en-de.mqm.sys.score`` (no segment file)."""
    (tmp_path / "en-de.mqm.sys.score").write_text(sys, encoding="utf-8")
    out = io.StringIO()
    call_command(
        "import_scores",
        "mqm",
        name="MQM-WMT",
        higher_is_better=True,
        format=layout,
        sys=str(tmp_path / "en-de.mqm.sys.score"),
        stdout=out,
    )
    return out.getvalue()


def test_a_sys_score_alone_is_stored_as_the_published_human_figures(tmp_path: Path) -> None:
    stored = corpus(tmp_path)

    said = import_alone(tmp_path)

    (metric,) = external_metrics(Corpus.objects.get(pk=stored.pk))
    assert metric.human
    assert not metric.segment_level
    assert {s: f.score for s, f in metric.figures.items()} == {
        "sysA": -3.6285714285714286,
        "sysB": -11.25,
    }
    # no segment has a score: the file had none
    assert all(math.isnan(v) for values in metric.scores.values() for v in values)
    assert "system-level figures only" in said
    assert "agg:published" in metric.signature


def test_a_sys_score_alone_exports_back_line_for_line(tmp_path: Path) -> None:
    corpus(tmp_path)
    import_alone(tmp_path, sys="sysA\t-3.6285714285714286\nsysB\tNone\n")

    assert exported("mqm", format="mtme", metric="MQM-WMT", level="sys") == (
        "sysA\t-3.6285714285714286\nsysB\tNone\n"
    )
    # the default scores of a corpus without judges: the human scores imported
    assert exported("mqm", format="mtme", level="sys") == "sysA\t-3.6285714285714286\nsysB\tNone\n"


def test_a_sys_score_alone_has_no_seg_score_to_export(tmp_path: Path) -> None:
    corpus(tmp_path)
    import_alone(tmp_path)

    with pytest.raises(CommandError, match=r"'MQM-WMT' .* are system-level only"):
        exported("mqm", format="mtme", metric="MQM-WMT")


def test_a_system_with_no_figure_has_none_in_the_table_figures(tmp_path: Path) -> None:
    stored = corpus(tmp_path)
    import_alone(tmp_path, sys="sysA\tNone\nsysB\t-11.25\n")

    (metric,) = external_metrics(Corpus.objects.get(pk=stored.pk))
    assert {s: f.score for s, f in metric.figures.items()} == {"sysB": -11.25}


@pytest.mark.parametrize(
    "sys, reason",
    [
        ("sysA\t-3.5\nsysC\t-1\n", " line 2: unknown system 'sysC'"),
        ("sysA\t-3.5\nsysB\t-1,5\n", " line 2: score '-1,5' is not a number"),
        ("sysA\t-3.5\nsysB\tnan\n", " line 2: score 'nan' is not a finite number"),
        ("sysA\t-3.5\nsysA\t-3.5\nsysB\t-1\n", r" line 2: system 'sysA' has a score already \("),
        ("sysA\t-3.5\t7\nsysB\t-1\n", r" line 1: 3 columns, expected 2 \(system, score\)"),
        ("sysA\n", r" line 1: 1 columns, expected 2"),
        ("sysA\t-3.5\n", ": no score for system 'sysB'"),
        ("", " line 1: the file is empty"),
    ],
)
def test_a_broken_sys_score_alone_is_refused_with_its_line_and_reason(
    tmp_path: Path, sys: str, reason: str
) -> None:
    stored = corpus(tmp_path)

    with pytest.raises(CommandError, match=f"en-de.mqm.sys.score{reason}"):
        import_alone(tmp_path, sys=sys)

    assert not stored.external_metrics.exists()


def test_a_sys_score_alone_goes_with_the_human_layout_only(tmp_path: Path) -> None:
    corpus(tmp_path)
    with pytest.raises(CommandError, match="--sys goes with --format mtme"):
        import_alone(tmp_path, layout="wmt")
    with pytest.raises(CommandError, match=r"FILE: the scores file \(or --format mtme --sys"):
        call_command("import_scores", "mqm", name="X", higher_is_better=True, format="mtme")


def test_with_both_files_the_segments_mean_is_the_figure_as_before(tmp_path: Path) -> None:
    stored = corpus(tmp_path)
    import_human(tmp_path)

    (metric,) = external_metrics(Corpus.objects.get(pk=stored.pk))
    assert metric.segment_level
    assert exported("mqm", format="mtme", metric="MQM-WMT") == SEG
    assert exported("mqm", format="mtme", metric="MQM-WMT", level="sys") == SYS


def test_a_changed_candidate_forgets_its_systems_published_figure(tmp_path: Path) -> None:
    stored = corpus(tmp_path)
    import_alone(tmp_path)
    target = Target.objects.get(
        translator__corpus=stored, translator__name="sysB", sentence__position=2
    )

    # as the admin's edit of a candidate's text does: the published figure was of the
    # old texts, and no part of it can be taken out
    target.text = "y"
    target.save()
    candidates_changed(stored.pk, [target])

    (metric,) = external_metrics(Corpus.objects.get(pk=stored.pk))
    assert {s: f.score for s, f in metric.figures.items()} == {"sysA": -3.6285714285714286}


# ---- the imported-scores page: the same file, uploaded


def upload(client: Client, stored: Corpus, htmx: bool = False, **files: str) -> HttpResponse:
    """POST the scores form with layout mtme and ``files`` (``file``, ``sys``: texts)."""
    form: dict[str, object] = {
        "scores-name": "MQM-WMT",
        "scores-direction": "higher",
        "scores-layout": files.pop("layout", "mtme"),
        **{
            f"scores-{field}": SimpleUploadedFile(f"en-de.mqm.{field}.score", text.encode())
            for field, text in files.items()
        },
    }
    page = reverse("annotation:external_scores", args=[stored.pk])
    return client.post(page, form, **(HTMX if htmx else {}))  # type: ignore[arg-type]


def refusal(response: HttpResponse) -> str:
    return "".join(by_id(etree.HTML(response.content.decode()), "scores-refusal").itertext())


def test_the_page_imports_a_sys_score_alone(lead_client: Client, tmp_path: Path) -> None:
    stored = corpus(tmp_path)

    response = upload(lead_client, stored, sys=ALONE)

    assert response.status_code == 303
    (metric,) = external_metrics(Corpus.objects.get(pk=stored.pk))
    assert (metric.human, metric.segment_level) == (True, False)
    assert exported("mqm", format="mtme", metric="MQM-WMT", level="sys") == ALONE
    listed = lead_client.get(response["Location"]).content.decode()
    (row,) = by_id(etree.HTML(listed), "imported-metrics").findall(".//tbody/tr")
    assert "en-de.mqm.sys.score (mtme-sys)" in "".join(row.itertext())


def test_the_page_answers_htmx_with_the_fragment(lead_client: Client, tmp_path: Path) -> None:
    stored = corpus(tmp_path)

    response = upload(lead_client, stored, htmx=True, sys=ALONE)

    assert response.status_code == 200
    done = by_id(etree.HTML(response.content.decode()), "scores-done")
    assert "Imported MQM-WMT" in "".join(done.itertext())


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    "sys, reason",
    [
        ("sysA\t-3.5\nsysC\t-1\n", "en-de.mqm.sys.score line 2: unknown system 'sysC'"),
        ("sysA\t-3.5\nsysB\tx\n", "en-de.mqm.sys.score line 2: score 'x' is not a number"),
        ("sysA\t1\nsysB\t2\nsysA\t3\n", "en-de.mqm.sys.score line 3: system 'sysA' has a score"),
        ("sysA\t1\t2\nsysB\t2\n", "en-de.mqm.sys.score line 1: 3 columns, expected 2"),
    ],
)
def test_the_page_refuses_a_broken_sys_score_with_400_its_line_and_reason(
    lead_client: Client, tmp_path: Path, htmx: bool, sys: str, reason: str
) -> None:
    stored = corpus(tmp_path)

    response = upload(lead_client, stored, htmx=htmx, sys=sys)

    assert response.status_code == 400
    assert reason in refusal(response)
    assert not stored.external_metrics.exists()


def test_the_page_checks_a_sys_score_against_its_seg_score(
    lead_client: Client, tmp_path: Path
) -> None:
    stored = corpus(tmp_path)

    wrong = upload(lead_client, stored, file=SEG, sys="sysA\t-3.25\nsysB\t-12.0\n")
    right = upload(lead_client, stored, file=SEG, sys=SYS)

    assert wrong.status_code == 400
    assert "en-de.mqm.sys.score line 2: system 'sysB': -12.0 is not the mean" in refusal(wrong)
    assert right.status_code == 303
    (metric,) = external_metrics(Corpus.objects.get(pk=stored.pk))
    assert metric.segment_level  # both files: the segments, their means the figures


@pytest.mark.parametrize(
    "files, error",
    [
        ({}, ERR_NO_SCORES_FILE),
        ({"layout": "wmt", "sys": ALONE}, ERR_SYS_LAYOUT),
    ],
)
def test_the_page_asks_for_a_file_in_its_place(
    lead_client: Client, tmp_path: Path, files: dict[str, str], error: str
) -> None:
    stored = corpus(tmp_path)

    response = upload(lead_client, stored, **files)

    assert response.status_code == 400
    errors = by_id(etree.HTML(response.content.decode()), "scores-errors")
    assert error in "".join(errors.itertext())
    assert not stored.external_metrics.exists()
