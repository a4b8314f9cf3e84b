"""A corpus's imported error spans: the page that imports a file of spans computed
elsewhere (xCOMET, GEMBA-MQM, …) to suggest to the judges of an ESA corpus with
pre-filled spans (:mod:`annotation.corpora.span_imports`), and says how many candidates
of each system have some.

Leads only: a judge gets 404, an anonymous visitor the login page
(:func:`annotation.web.lead_required`). Without JavaScript a POST answers 303 to the page;
with htmx the same view answers with the ``#imported-spans`` fragment. A refused file
(its line and reason) or form answers 400 with the reason, and nothing is stored.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from annotation.corpora.span_imports import SpansRefused, imported_spans_import
from annotation.models import Corpus, ImportedSpans
from annotation.web import HtmxHttpRequest, lead_required, see_other


class ImportedSpansForm(forms.Form):
    """A file of error spans (:mod:`metrics.span_file` reads and checks it, and refuses
    it with its line and reason)."""

    prefix = "spans"

    # an empty file is the reader's to refuse, with the words of every other refusal
    file = forms.FileField(
        label="Error spans file",
        help_text="UTF-8 JSON lines: system, segment, spans of start, end, severity.",
        allow_empty_file=True,
    )


def _answer(
    request: HtmxHttpRequest,
    corpus: Corpus,
    form: ImportedSpansForm,
    *,
    status: int = 200,
    **context: Any,
) -> TemplateResponse:
    """The page, or for htmx its ``#imported-spans`` fragment: per system, how many
    candidates have imported spans (one query), with the form."""
    systems = (
        ImportedSpans.objects.filter(target__sentence__corpus=corpus)
        .values("target__translator__name", "target__translator__position")
        .annotate(candidates=Count("pk"))
        .order_by("target__translator__position")
    )
    context.update({"corpus": corpus, "form": form, "systems": list(systems)})
    template = "corpora/_imported_spans.html" if request.htmx else "corpora/imported_spans.html"
    return TemplateResponse(request, template, context, status=status)


@lead_required
@require_http_methods(["GET", "POST"])
def imported_spans(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The corpus's imported spans and the form that imports a file of them; its POST
    imports the file (:func:`~annotation.corpora.span_imports.imported_spans_import`),
    all of it or nothing."""
    corpus = get_object_or_404(Corpus, pk=pk)
    if request.method == "GET":
        done = request.GET.get("done") == "imported"
        return _answer(request, corpus, ImportedSpansForm(), done=done)
    form = ImportedSpansForm(request.POST, request.FILES)
    if not form.is_valid():
        return _answer(request, corpus, form, status=400)
    upload = form.cleaned_data["file"]
    try:
        imported_spans_import(corpus=corpus, data=upload.read(), filename=upload.name or "spans")
    except SpansRefused as refused:
        return _answer(request, corpus, form, status=400, refusal=str(refused))
    if not request.htmx:
        return see_other(reverse("annotation:imported_spans", args=[pk]) + "?done=imported")
    return _answer(request, corpus, ImportedSpansForm(), done=True)
