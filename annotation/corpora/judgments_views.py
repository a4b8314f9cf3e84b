"""A corpus's page that imports judgments made in another tool: Appraise's ESA/DA CSV
(:mod:`annotation.corpora.appraise`) or WMT's MQM TSV (:mod:`annotation.corpora.
mqm_import`), into the corpus as it is (the command lines also make a new corpus of
WMT's plain-text files, which a browser cannot upload as one).

Leads only: a judge gets 404, an anonymous visitor the login page
(:func:`annotation.web.lead_required`). Without JavaScript a POST answers 303 to the
page; with htmx the same view answers with the ``#imported-judgments`` fragment. A
refused file answers 400 with its line and reason, and nothing is stored.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from annotation.corpora.appraise import corpus_import_appraise
from annotation.corpora.forms import ImportedJudgmentsForm
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imported_judgments import CampaignImport
from annotation.corpora.mqm_import import corpus_import_mqm
from annotation.models import Corpus
from annotation.web import HtmxHttpRequest, lead_required, see_other

SERVICES: dict[str, CampaignImport] = {"appraise": corpus_import_appraise, "mqm": corpus_import_mqm}


def _answer(
    request: HtmxHttpRequest,
    corpus: Corpus,
    form: ImportedJudgmentsForm,
    *,
    status: int = 200,
    **context: Any,
) -> TemplateResponse:
    """The page, or for htmx its ``#imported-judgments`` fragment; ``done`` the lines of
    what was stored, ``refusal`` why nothing was."""
    context.update({"corpus": corpus, "form": form})
    template = (
        "corpora/_imported_judgments.html" if request.htmx else "corpora/imported_judgments.html"
    )
    return TemplateResponse(request, template, context, status=status)


@lead_required
@require_http_methods(["GET", "POST"])
def imported_judgments(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The form; its POST imports the file into the corpus, all of it or nothing."""
    corpus = get_object_or_404(Corpus, pk=pk)
    if request.method == "GET":
        done = request.GET.get("done") == "imported"
        return _answer(request, corpus, ImportedJudgmentsForm(), imported=done)
    form = ImportedJudgmentsForm(request.POST, request.FILES)
    if not form.is_valid():
        return _answer(request, corpus, form, status=400)
    data = form.cleaned_data
    try:
        summary = SERVICES[data["layout"]](
            data=data["file"].read(),
            filename=data["file"].name or "judgments",
            pair=None,
            texts=None,
            name=None,
            corpus=corpus,
        )
    except ImportRefused as refused:
        return _answer(request, corpus, form, status=400, refusal=str(refused))
    if not request.htmx:
        return see_other(reverse("annotation:imported_judgments", args=[pk]) + "?done=imported")
    return _answer(request, corpus, ImportedJudgmentsForm(), imported=True, lines=summary.lines())
