"""The campaign pages (leads only; anyone else gets 404, anonymous visitors the login):
the judges page (``/campaigns/``) and a page per corpus (``/campaigns/<id>/``).

Thin views: access control, forms, rendering; the work is in
:mod:`annotation.campaigns.judges` and the figures in :mod:`annotation.campaigns.progress`.
Plain forms, working without JavaScript: a change answers 303 to its page; a refused
value shows the page again with the field and the reason, status 400.

A one-time password is the exception to 303: it is shown in the answer to the POST that
made it, once, and never stored where a later GET could find it (not even in the
session), with ``Cache-Control: no-store`` so the browser keeps no copy either.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET, require_POST

from annotation.campaigns.export import campaign_csv
from annotation.campaigns.forms import (
    AssignForm,
    CorpusSettingsForm,
    JudgeCreateForm,
    UnassignForm,
)
from annotation.campaigns.judges import (
    AccountRefused,
    OneTimeLogin,
    corpus_assign_judges,
    corpus_unassign_judge,
    judge_create,
    judge_give_one_time_password,
)
from annotation.campaigns.progress import campaign_of
from annotation.models import Corpus, User
from annotation.web import HtmxHttpRequest, attachment, lead_required, see_other


def _judges_page(
    request: HtmxHttpRequest,
    *,
    form: JudgeCreateForm | None = None,
    login: OneTimeLogin | None = None,
    status: int = 200,
) -> TemplateResponse:
    judges = User.objects.judges().order_by("username").prefetch_related("assigned_corpora")
    context = {"form": form or JudgeCreateForm(), "judges": judges, "login": login}
    response = TemplateResponse(request, "campaigns/judges.html", context, status=status)
    if login is not None:
        add_never_cache_headers(response)
    return response


@lead_required
@require_GET
def judges_page(request: HtmxHttpRequest) -> TemplateResponse:
    """Every judge account: create one, activate an import's evaluators, new passwords."""
    return _judges_page(request)


@lead_required
@require_POST
def judge_create_view(request: HtmxHttpRequest) -> TemplateResponse:
    form = JudgeCreateForm(request.POST)
    if not form.is_valid():
        return _judges_page(request, form=form, status=400)
    try:
        login = judge_create(
            username=form.cleaned_data["username"], corpora=form.cleaned_data["corpora"]
        )
    except AccountRefused as refused:  # the name was taken since the form checked it
        form.add_error("username", str(refused))
        return _judges_page(request, form=form, status=400)
    return _judges_page(request, login=login)


@lead_required
@require_POST
def judge_password(request: HtmxHttpRequest, pk: int) -> TemplateResponse:
    """A one-time password for a judge account: activates an import's evaluator, or lets
    a judge who forgot their password back in. Judge accounts only (404 otherwise)."""
    judge = get_object_or_404(User.objects.judges(), pk=pk)
    return _judges_page(request, login=judge_give_one_time_password(judge=judge))


def _campaign_page(
    request: HtmxHttpRequest, corpus: Corpus, *, status: int = 200, **forms: Any
) -> TemplateResponse:
    context = {
        "campaign": campaign_of(corpus),
        "corpus": corpus,
        "assign_form": forms.get("assign_form") or AssignForm(corpus=corpus),
        "unassign_form": forms.get("unassign_form"),
        "settings_form": forms.get("settings_form") or CorpusSettingsForm(instance=corpus),
    }
    return TemplateResponse(request, "campaigns/campaign.html", context, status=status)


def _corpus_or_404(pk: int) -> Corpus:
    return get_object_or_404(Corpus.objects.with_judges_progress(), pk=pk)


@lead_required
@require_GET
def campaign_page(request: HtmxHttpRequest, pk: int) -> TemplateResponse:
    """A corpus's campaign: its judges' progress, who judged what, assignment, settings."""
    return _campaign_page(request, _corpus_or_404(pk))


@lead_required
@require_GET
def campaign_csv_download(request: HtmxHttpRequest, pk: int) -> StreamingHttpResponse:
    """The campaign as CSV (:mod:`annotation.campaigns.export`), streamed: judge × system
    progress and active time, and each judgment's times in UTC."""
    corpus = _corpus_or_404(pk)
    response = StreamingHttpResponse(campaign_csv(corpus), content_type="text/csv; charset=utf-8")
    return attachment(response, f"{corpus.name}-campaign", ".csv")


@lead_required
@require_POST
def campaign_assign(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    corpus = _corpus_or_404(pk)
    form = AssignForm(request.POST, corpus=corpus)
    if not form.is_valid():
        return _campaign_page(request, corpus, assign_form=form, status=400)
    corpus_assign_judges(corpus=corpus, judges=form.cleaned_data["judges"])
    return see_other(reverse("campaigns:corpus", args=[corpus.pk]))


@lead_required
@require_POST
def campaign_unassign(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    corpus = _corpus_or_404(pk)
    form = UnassignForm(request.POST, corpus=corpus)
    if not form.is_valid():
        return _campaign_page(request, corpus, unassign_form=form, status=400)
    corpus_unassign_judge(corpus=corpus, judge=form.cleaned_data["judge"])
    return see_other(reverse("campaigns:corpus", args=[corpus.pk]))


@lead_required
@require_POST
def campaign_settings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Blind or not, shared new references or not, and the corpus's leads."""
    corpus = _corpus_or_404(pk)
    form = CorpusSettingsForm(request.POST, instance=corpus)
    if not form.is_valid():
        return _campaign_page(request, corpus, settings_form=form, status=400)
    form.save_settings()
    return see_other(reverse("campaigns:corpus", args=[corpus.pk]))
