"""A corpus's imported scores: the page that lists the metrics a lead imported (COMET,
MetricX, …: :mod:`annotation.statistics.external`), imports a file of segment scores as
a new one (or in place of one) and deletes one.

Leads only: a judge gets 404, an anonymous visitor the login page
(:func:`annotation.web.lead_required`). Without JavaScript a POST answers 303 to the page;
with htmx the same view answers with the ``#imported-scores`` fragment. A refused file
(its line and reason), name or form answers 400 with the reason, and nothing is stored
(htmx swaps that 400: the page's ``htmx_config``).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from annotation.corpora.forms import ExternalScoresForm
from annotation.models import Corpus, ExternalMetric
from annotation.statistics import (
    AGGREGATE,
    ScoresRefused,
    external_metric_delete,
    external_metric_import,
)
from annotation.web import HtmxHttpRequest, lead_required, see_other

#: What the page says was just done (``?done=…`` after a plain POST's redirect).
DONE = ("imported", "deleted")


def _page(pk: int, done: str) -> str:
    return reverse("annotation:external_scores", args=[pk]) + f"?done={done}"


def _answer(
    request: HtmxHttpRequest,
    corpus: Corpus,
    form: ExternalScoresForm,
    *,
    status: int = 200,
    **context: Any,
) -> TemplateResponse:
    """The page, or for htmx its ``#imported-scores`` fragment, listing the corpus's
    imported metrics (one query) with the form; ``done`` (one of :data:`DONE`) and
    ``named`` say what was just done, ``refusal`` why it was not."""
    metrics = (
        ExternalMetric.objects.filter(corpus=corpus)
        .select_related("imported_by")
        .annotate(n_systems=Count("scores"))
    )
    context.update(
        {"corpus": corpus, "form": form, "metrics": list(metrics), "aggregate": AGGREGATE}
    )
    template = "corpora/_imported_scores.html" if request.htmx else "corpora/imported_scores.html"
    return TemplateResponse(request, template, context, status=status)


@lead_required
@require_http_methods(["GET", "POST"])
def external_scores(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The corpus's imported metrics and the form that imports one; its POST imports the
    file (:func:`~annotation.statistics.external_metric_import`), all of it or nothing:
    segment scores, with layout mtme their ``.sys.score`` too, or that file alone."""
    corpus = get_object_or_404(Corpus, pk=pk)
    if request.method == "GET":
        done = request.GET.get("done", "")
        return _answer(request, corpus, ExternalScoresForm(), done=done if done in DONE else "")
    form = ExternalScoresForm(request.POST, request.FILES)
    if not form.is_valid():
        return _answer(request, corpus, form, status=400)
    data = form.cleaned_data
    segments, system = data["file"], data["sys"]
    try:
        metric = external_metric_import(
            corpus=corpus,
            data=None if segments is None else segments.read(),
            layout=data["layout"],
            name=data["name"],
            higher_is_better=form.higher_is_better,
            filename="scores" if segments is None else segments.name or "scores",
            description=data["description"],
            replace=data["replace"],
            imported_by=request.user,
            system_scores=None if system is None else system.read(),
            system_filename="sys.score" if system is None else system.name or "sys.score",
        )
    except ScoresRefused as refused:
        return _answer(request, corpus, form, status=400, refusal=str(refused))
    if not request.htmx:
        return see_other(_page(pk, "imported"))
    return _answer(request, corpus, ExternalScoresForm(), done="imported", named=metric.name)


@lead_required
@require_POST
def external_scores_delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Delete the corpus's imported metric named by ``name`` with its scores."""
    corpus = get_object_or_404(Corpus, pk=pk)
    name = request.POST.get("name", "")
    try:
        external_metric_delete(corpus=corpus, name=name)
    except ScoresRefused as refused:
        return _answer(request, corpus, ExternalScoresForm(), status=400, refusal=str(refused))
    if not request.htmx:
        return see_other(_page(pk, "deleted"))
    return _answer(request, corpus, ExternalScoresForm(), done="deleted", named=name)
