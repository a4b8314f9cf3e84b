"""Control items never enter a figure (``JudgmentQuerySet.counted``): two judges walk
their queues answering every control item wrongly (so a control counted anywhere would
move a figure), then every figure is computed with the control items and again after
they are deleted, and must be the same — the scores command, the dashboard (table,
downloads, charts, judges' figures and agreement, effort, meta-evaluation, drill-down,
with and without the normalization), the judge's live figures, the progress on the home
page's candidates, and the evalTrans export, which stays importable. (The judge's own
header and home page count the control items, as items of the judge's queue:
``test_page.py``, and below.)"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from annotation.changes import judgments_changed
from annotation.corpora.exports import corpus_export
from annotation.corpora.imports import corpus_import
from annotation.dashboard import figures
from annotation.dashboard.panels.effort import effort_panel
from annotation.dashboard.panels.judges import judges_agreement, judges_with_controls
from annotation.dashboard.panels.meta import meta_panel
from annotation.judging.page import judging_context
from annotation.judging.stack import judgment_for
from annotation.models import Corpus, Judgment, User
from annotation.statistics import forget
from annotation.tests.boards import page_viewed
from annotation.tests.controls.factories import (
    queue_corpus,
    stored_repeat,
    walk_queue,
    with_every_kind,
)
from annotation.tests.factories import scores_json, system_pk

pytestmark = pytest.mark.django_db


def wrong_on_controls(judgment: Judgment) -> tuple[str, int]:
    """Real candidates: a new reference one word short, a score that varies; control
    items: another text and 0, far from any known answer."""
    if judgment.control:
        return "nothing like it at all", 0
    text = judgment.target.text.split()
    return " ".join(text[:-1]), judgment.target_id % 11


def without_tokens(html: bytes) -> str:
    """A page without its CSRF tokens (a fresh one on every response)."""
    text = html.decode()
    text = re.sub(r'"x-csrftoken": "[^"]+"', "", text)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)


def every_figure(client: Client, corpus: Corpus, judges: list[User]) -> dict[str, Any]:
    forget()
    judgments_changed(corpus.pk)
    fresh = Corpus.objects.get(pk=corpus.pk)
    out: dict[str, Any] = {"scores": scores_json(corpus.name)}
    for normalize in (False, True):
        dash = page_viewed(fresh, normalize=normalize)
        out[f"dashboard {normalize}"] = repr(
            (
                dash.get(figures.n_judgments),
                dash.get(figures.human),
                dash.get(figures.table),
                dash.get(judges_with_controls).judges,
                dash.get(judges_with_controls).normalized,
                dash.get(judges_agreement),
                dash.get(effort_panel),
                dash.get(meta_panel),
            )
        )
    pk, system = corpus.pk, system_pk(corpus, "system 0")
    for url in (
        f"/dashboard/{pk}/table.csv",
        f"/dashboard/{pk}/table.json",
        f"/dashboard/{pk}/chart/sser.svg",
        f"/dashboard/{pk}/chart/ranks.svg",
        f"/dashboard/{pk}/panel/effort/",
        f"/dashboard/{pk}/panel/meta/",
        f"/dashboard/{pk}/panel/table/",
        f"/dashboard/{pk}/system/{system}/?metric=sser",
        f"/dashboard/{pk}/system/{system}/?metric=awer&other={system_pk(corpus, 'system 1')}",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        out[url] = without_tokens(response.content)
    exported = io.BytesIO()
    corpus_export(corpus=corpus, out=exported)
    out["export"] = exported.getvalue()
    for judge in judges:
        out[f"progress {judge}"] = Corpus.objects.with_progress(judge).get(pk=pk).n_done
        last = Judgment.objects.real().filter(evaluator=judge).order_by("-pk").first()
        judgment = judgment_for(pk=last.pk, user=judge)
        out[f"live {judge}"] = repr(judging_context(judgment).figures)
    return out


def test_every_figure_is_the_same_with_and_without_the_control_items(
    tmp_path: Path, user_factory: Callable[..., User], lead_client: Client
) -> None:
    judges = [user_factory("ann"), user_factory("bob")]
    corpus = with_every_kind(
        queue_corpus(tmp_path, "figures", judges, sentences=4, systems=14), judges[0]
    )
    for judge in judges:
        items = walk_queue(corpus, judge, wrong_on_controls)
        for original in [j for j in items if not j.control][:3]:  # as stored before
            stored_repeat(original, *wrong_on_controls(Judgment(control="repeat")))
    controls = Judgment.objects.controls().filter(target__sentence__corpus=corpus)
    assert {c.control for c in controls} == {"reference", "repeat", "degraded"}
    assert controls.filter(state="done").count() >= 20

    with_controls = every_figure(lead_client, corpus, judges)
    controls.delete()
    without = every_figure(lead_client, corpus, judges)

    assert with_controls.keys() == without.keys()
    for name, value in with_controls.items():
        assert value == without[name], name
    assert with_controls["progress ann"] == 56  # every candidate, no control


def test_the_export_leaves_control_items_out_and_reads_back(tmp_path: Path, judge: User) -> None:
    corpus = queue_corpus(tmp_path, "exported", [judge], sentences=8, rate=4)
    walk_queue(corpus, judge)
    assert Judgment.objects.controls().filter(evaluator=judge).exists()
    exported = io.BytesIO()
    corpus_export(corpus=corpus, out=exported)

    summary = corpus_import(source=io.BytesIO(exported.getvalue()), name="read back")

    assert summary.judgments == 24
    assert (
        Judgment.objects.real().filter(evaluator=judge, target__sentence__corpus=corpus).count()
        == 24
    )
    again = Judgment.objects.filter(target__sentence__corpus=summary.corpus)
    assert not again.controls().exists()
    assert again.values("target_id", "evaluator_id").distinct().count() == 24


def test_the_home_page_counts_items_as_the_judges_header_does(
    tmp_path: Path, judge: User, judge_client: Client
) -> None:
    """The home page and the judge's header count the same items, controls included:
    a home page that counted candidates only, open in a second tab, showed which item
    was a control (the one after which the two counts parted; issue 35)."""
    corpus = queue_corpus(tmp_path, "home", [judge], sentences=10, rate=3)
    items = walk_queue(corpus, judge)
    controls = sum(1 for j in items if j.control)
    assert controls == 20  # two a run of three candidates: one in 2.5 items, nearest 3

    html = judge_client.get("/").content.decode()

    assert f'data-progress="{corpus.name}">50/50<' in html
