"""The lead's control-item settings: thin views over the form and
:mod:`annotation.controls.quality`.

Leads only: a judge gets 404, an anonymous visitor the login page
(:func:`annotation.web.lead_required`). The settings page works without JavaScript (a
plain POST answers 303 to the page); with htmx the same view answers with the
``#control-settings`` fragment. A bad value is refused with 400 and the form, the field
and the reason beside the value (htmx swaps that 400: the page's ``htmx_config``).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from annotation.controls.forms import ControlSettingsForm
from annotation.controls.quality import (
    DEGRADED_MAX_SSER,
    REFERENCE_MIN_SSER,
    REPEAT_SSER_SLACK,
    corpus_batch_controls,
)
from annotation.controls.scored import score_rule
from annotation.models import Corpus
from annotation.web import HtmxHttpRequest, lead_required, see_other


@lead_required
@require_GET
def index(request: HtmxHttpRequest) -> TemplateResponse:
    """Every corpus with its control items on or off, and a link to its settings."""
    return TemplateResponse(request, "controls/index.html", {"corpora": Corpus.objects.all()})


@lead_required
@require_http_methods(["GET", "POST"])
def settings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The settings of ``pk``'s control items and how each judge does on them."""
    corpus = get_object_or_404(Corpus, pk=pk)
    # What is stored, shown beside the form: a refused form leaves the instance changed.
    stored = Corpus(
        pk=corpus.pk,
        name=corpus.name,
        blind=corpus.blind,
        n_systems=corpus.n_systems,
        controls_enabled=corpus.controls_enabled,
        control_rate=corpus.control_rate,
        control_pass_threshold=corpus.control_pass_threshold,
        protocol=corpus.protocol,
        mqm_taxonomy=corpus.mqm_taxonomy,
        control_esa_drop=corpus.control_esa_drop,
        control_esa_tolerance=corpus.control_esa_tolerance,
        control_mqm_drop=corpus.control_mqm_drop,
        control_mqm_tolerance=corpus.control_mqm_tolerance,
    )
    posted = request.method == "POST"
    form = ControlSettingsForm(request.POST if posted else None, instance=corpus)
    status = 200
    if posted:
        if not form.is_valid():
            status = 400
        else:
            stored = form.save()
            if not request.htmx:
                return see_other(reverse("controls:settings", args=[pk]) + "?saved=1")
            form = ControlSettingsForm(instance=stored)
    judges, batches = corpus_batch_controls(stored)
    context = {
        "corpus": stored,
        "form": form,
        "saved": (posted and status == 200) or request.GET.get("saved") == "1",
        "judges": judges,
        "batches": batches,
        "reference_min_sser": REFERENCE_MIN_SSER,
        "repeat_sser_slack": REPEAT_SSER_SLACK,
        "degraded_max_sser": DEGRADED_MAX_SSER,
        "rule": score_rule(stored),
    }
    template = "controls/_settings.html" if request.htmx else "controls/settings.html"
    return TemplateResponse(request, template, context, status=status)
