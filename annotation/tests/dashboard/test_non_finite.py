"""A figure that is no number is ``null`` in every JSON the app writes, and every page and
download still answers (issue 36, point 6): ``table.json`` answered 500 ("Out of range
float values are not JSON compliant") and ``manage.py scores --json`` printed a bare
``NaN`` or ``Infinity``, which no JSON parser but Python's reads."""

from __future__ import annotations

import io

import numpy as np
import pytest
from django.core.management import call_command
from django.test import Client

from annotation.changes import candidates_changed, imported_scores_changed
from annotation.models import Corpus, ExternalScores, Target
from annotation.tests.dashboard.test_imported import demo_scores
from annotation.tests.imported import import_scores
from metrics.tests.test_json_out import strict

pytestmark = pytest.mark.django_db

#: The system whose imported figure is no number.
GONE = "NiuTrans"


@pytest.fixture
def undefined(demo: Corpus) -> Corpus:
    """The demo corpus with COMET-22 imported, then every one of NiuTrans's candidates
    changed (as moved words change them): its scores are dropped, and its COMET-22 figure
    is the mean of no score."""
    import_scores(demo, "COMET-22", demo_scores())
    changed = Target.objects.filter(sentence__corpus=demo, translator__name=GONE)
    candidates_changed(demo.pk, list(changed))
    return Corpus.objects.get(pk=demo.pk)


def test_every_json_download_is_standard_json_with_null_for_no_number(
    lead_client: Client, undefined: Corpus
) -> None:
    found = {}
    for download in ("table.json", "meta.json", "mqm.json"):
        response = lead_client.get(f"/dashboard/{undefined.pk}/{download}")
        assert response.status_code == 200, download
        found[download] = strict(response.content.decode())

    table = found["table.json"]
    assert isinstance(table, dict)
    assert table["translators"][GONE]["COMET-22"]["score"] is None
    assert table["translators"]["Online-W"]["COMET-22"]["score"] > 0


def run_json(*args: str) -> object:
    out = io.StringIO()
    call_command(*args, "--json", stdout=out)
    return strict(out.getvalue())


def test_every_commands_json_is_standard_json_with_null_for_no_number(
    undefined: Corpus,
) -> None:
    for command in ("figures", "controls"):
        run_json(command, undefined.name)
    run_json("jobs", "--all")
    found = run_json("scores", undefined.name)

    assert isinstance(found, dict)
    assert found["translators"][GONE]["COMET-22"]["score"] is None
    assert found["translators"]["Online-W"]["COMET-22"]["signature"].startswith("ext:")


def test_scores_stored_before_the_limit_are_read_as_no_score_and_every_page_answers(
    lead_client: Client, demo: Corpus
) -> None:
    """The probe's corpus: scores of 1e308 stored when nothing refused them, whose means
    overflowed to infinity (the dashboard, ``table.json`` and ``meta.json`` answered 500).
    Past the limit, a stored score is no score."""
    import_scores(demo, "COMET-22", demo_scores())
    ExternalScores.objects.update(values=np.full(40, 1e308, dtype="<f8").tobytes())
    imported_scores_changed(demo)

    for path in ("", "table.json", "meta.json", "panel/meta/"):
        assert lead_client.get(f"/dashboard/{demo.pk}/{path}").status_code == 200, path
    table = strict(lead_client.get(f"/dashboard/{demo.pk}/table.json").content.decode())
    assert isinstance(table, dict)
    assert {f["COMET-22"]["score"] for f in table["translators"].values()} == {None}
    scores = run_json("scores", demo.name)
    assert isinstance(scores, dict)
    assert scores["translators"][GONE]["COMET-22"]["score"] is None
