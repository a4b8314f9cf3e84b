"""The campaign pages (leads only; anyone else gets 404, anonymous visitors the login):
the judges page (``/campaigns/``) and a page per corpus (``/campaigns/<id>/``: its judges,
its settings, its pending jobs with their Retry, and the campaign it is in). The
campaigns' own pages are :mod:`annotation.campaigns.campaign_views`.

Thin views: access control, forms, rendering; the work is in
:mod:`annotation.campaigns.judges` and the figures in :mod:`annotation.campaigns.progress`.
Plain forms, working without JavaScript: a change answers 303 to its page; a refused
value shows the page again with the field and the reason, status 400.

A one-time password is the exception to 303 (and so are the accounts a list makes, and
per-annotator links: :mod:`annotation.campaigns.link_views`): it is shown in the answer
to the POST that made it, once, and never stored where a later GET could find it (not even in the
session), with ``Cache-Control: no-store`` so the browser keeps no copy either.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import BadRequest
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from annotation.accounts import user_set_active
from annotation.adaptive.focus import corpus_choose_pairs
from annotation.adaptive.status import AdaptiveStatus, remembered_status
from annotation.campaigns.drawing import DrawRefused, last_draw
from annotation.campaigns.export import campaign_csv
from annotation.campaigns.forms import (
    AssignForm,
    BulkJudgesForm,
    CampaignRulesForm,
    CorpusSettingsForm,
    EvaluatorForm,
    JudgeCreateForm,
    PairsOfInterestForm,
    UnassignForm,
)
from annotation.campaigns.handover import accounts_csv
from annotation.campaigns.judges import (
    AccountRefused,
    OneTimeLogin,
    corpus_assign_judges,
    corpus_discard_judgments,
    corpus_leave_out_judge,
    corpus_set_aside_judge,
    corpus_unassign_judge,
    judge_create,
    judge_give_one_time_password,
)
from annotation.campaigns.links import campaigns_with_links
from annotation.campaigns.power import campaign_figures
from annotation.campaigns.progress import campaign_of
from annotation.campaigns.roster import RosterRefused, judges_create_from_roster
from annotation.campaigns.rules import (
    annotator_quotas,
    campaign_annotators,
    campaign_set_rules,
    tasks_drawn,
)
from annotation.campaigns.suggestions import suggestions_kept
from annotation.controls.api import corpus_controls
from annotation.jobs import live_jobs
from annotation.models import Campaign, Corpus, User
from annotation.web import HtmxHttpRequest, attachment, lead_required, see_other


def _judges_page(
    request: HtmxHttpRequest,
    *,
    form: JudgeCreateForm | None = None,
    login: OneTimeLogin | None = None,
    bulk_form: BulkJudgesForm | None = None,
    made: list[OneTimeLogin] | None = None,
    status: int = 200,
) -> TemplateResponse:
    judges = User.objects.judges().order_by("username").prefetch_related("assigned_corpora")
    login_url = request.build_absolute_uri(reverse("login"))
    context = {
        "form": form or JudgeCreateForm(),
        "judges": judges,
        "login": login,
        "bulk_form": bulk_form or BulkJudgesForm(),
        "made": made,
        "made_csv": accounts_csv(made, login_url) if made else "",
        "login_url": login_url,
        "campaigns": campaigns_with_links(),
    }
    response = TemplateResponse(request, "campaigns/judges.html", context, status=status)
    if login is not None or made:
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
def judges_bulk_create(request: HtmxHttpRequest) -> TemplateResponse:
    """Judge accounts from a list (:mod:`annotation.campaigns.roster`), each with a
    one-time password shown once in this answer, with a CSV of them to download from it.
    A list with any problem is refused whole (400), every problem with its line."""
    form = BulkJudgesForm(request.POST, request.FILES)
    if not form.is_valid():
        return _judges_page(request, bulk_form=form, status=400)
    try:
        made = judges_create_from_roster(
            entries=form.cleaned_data["entries"], corpora=form.cleaned_data["corpora"]
        )
    except RosterRefused as refused:  # a name was taken since the form checked the list
        for problem in refused.shown():
            form.add_error("accounts", problem)
        return _judges_page(request, bulk_form=form, status=400)
    return _judges_page(request, made=made)


@lead_required
@require_POST
def judge_password(request: HtmxHttpRequest, pk: int) -> TemplateResponse:
    """A one-time password for a judge account: activates an import's evaluator, or lets
    a judge who forgot their password back in. Judge accounts only (404 otherwise)."""
    judge = get_object_or_404(User.objects.judges(), pk=pk)
    return _judges_page(request, login=judge_give_one_time_password(judge=judge))


@lead_required
@require_POST
def judge_active(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Deactivate a judge account (``active=0``: it can no longer log in, its judgments
    stay) or reactivate it (``active=1``). Judge accounts only (404 otherwise)."""
    judge = get_object_or_404(User.objects.judges(), pk=pk)
    active = request.POST.get("active")
    if active not in ("0", "1"):
        raise BadRequest(f"active: {active!r} is neither 0 (deactivate) nor 1 (reactivate)")
    user_set_active(user=judge, active=active == "1")
    return see_other(reverse("campaigns:judges"))


def _campaign_page(
    request: HtmxHttpRequest, corpus: Corpus, *, status: int = 200, **forms: Any
) -> TemplateResponse:
    campaign = campaign_of(corpus)
    figures = campaign_figures(corpus, campaign.systems)
    power = figures.power
    adaptive = remembered_status(corpus)
    context = {
        "campaign": campaign,
        "power": power,
        "effects": figures.effects,
        "next_steps": power.closest(campaign.pace),
        "adaptive": adaptive,
        "pairs_form": forms.get("pairs_form") or _pairs_form(adaptive),
        "corpus": corpus,
        "assign_form": forms.get("assign_form") or AssignForm(corpus=corpus),
        "unassign_form": forms.get("unassign_form"),
        "settings_form": forms.get("settings_form") or CorpusSettingsForm(instance=corpus),
        "evaluator_form": forms.get("evaluator_form"),
        "flagged": {c.name: c for c in corpus_controls(corpus) if c.flagged},
        "jobs": live_jobs(corpus),
        "suggestions": suggestions_kept(corpus),
    }
    return TemplateResponse(request, "campaigns/campaign.html", context, status=status)


def _pairs_form(adaptive: AdaptiveStatus, data: Any = None) -> PairsOfInterestForm | None:
    """The form of the pairs a lead cares about, ticked as chosen (none: every pair is of
    interest, none ticked); None where the corpus is not dealt adaptively."""
    if not adaptive.adaptive:
        return None
    pairs = [(p.first, p.second) for p in adaptive.pairs]
    ticked = [p.key for p in adaptive.of_interest] if adaptive.chosen else []
    return PairsOfInterestForm(data, pairs=pairs, initial={"pair": ticked})


@lead_required
@require_POST
def campaign_pairs(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The pairs of systems the lead cares about in a corpus dealt adaptively
    (:mod:`annotation.adaptive.focus`); 404 where it is not."""
    corpus = _corpus_or_404(pk)
    form = _pairs_form(remembered_status(corpus), request.POST)
    if form is None:
        raise Http404("this corpus's campaign does not deal adaptively")
    if not form.is_valid():
        return _campaign_page(request, corpus, pairs_form=form, status=400)
    corpus_choose_pairs(corpus, form.chosen())
    return see_other(reverse("campaigns:corpus", args=[corpus.pk]) + "#adaptive-stop")


def _corpus_or_404(pk: int) -> Corpus:
    """The corpus with its progress and its campaign (whose rules its figures read)."""
    corpora = Corpus.objects.with_judges_progress().select_related("campaign")
    return get_object_or_404(corpora, pk=pk)


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
    """The protocol and its MQM taxonomy (fixed once judged), blind or not, shared new
    references or not, and the corpus's leads."""
    corpus = _corpus_or_404(pk)
    form = CorpusSettingsForm(request.POST, instance=corpus)
    if not form.is_valid():
        # the form wrote what was typed (a refused taxonomy) into its instance: the page
        # shows the corpus as stored, and its figures read the stored taxonomy
        stored = _corpus_or_404(pk)
        return _campaign_page(request, stored, settings_form=form, status=400)
    form.save_settings()
    return see_other(reverse("campaigns:corpus", args=[corpus.pk]))


def _evaluator_change(
    request: HtmxHttpRequest, pk: int, change: Callable[[Corpus, EvaluatorForm], object]
) -> HttpResponse:
    """A change about one of the corpus's evaluators: the form checked, ``change`` done,
    303 to the campaign page; a refusal shows the page again with the reason (400)."""
    corpus = _corpus_or_404(pk)
    form = EvaluatorForm(request.POST, corpus=corpus)
    if form.is_valid():
        try:
            change(corpus, form)
        except AccountRefused as refused:
            form.add_error("name", str(refused))
        else:
            return see_other(reverse("campaigns:corpus", args=[corpus.pk]) + "#h-counted")
    return _campaign_page(request, _corpus_or_404(pk), evaluator_form=form, status=400)


@lead_required
@require_POST
def campaign_leave_out(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Leave a judge out of every figure of the corpus (``left_out=1``) or count them
    again (``left_out=0``); their judgments stay."""

    left_out = request.POST.get("left_out")
    if left_out not in ("0", "1"):
        raise BadRequest(f"left_out: {left_out!r} is neither 1 (leave out) nor 0 (count again)")
    return _evaluator_change(
        request,
        pk,
        lambda corpus, form: corpus_leave_out_judge(
            corpus=corpus, judge=form.cleaned_data["judge"], left_out=left_out == "1"
        ),
    )


@lead_required
@require_POST
def campaign_set_aside(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Discarding a judge's work, first step: unassigned and left out, nothing deleted."""
    return _evaluator_change(
        request,
        pk,
        lambda corpus, form: corpus_set_aside_judge(
            corpus=corpus, judge=form.cleaned_data["judge"]
        ),
    )


@lead_required
@require_POST
def campaign_discard(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Discarding a judge's work, second step: their judgments deleted for good, once
    set aside and their name typed."""
    return _evaluator_change(
        request,
        pk,
        lambda corpus, form: corpus_discard_judgments(
            corpus=corpus, judge=form.cleaned_data["judge"], typed=form.cleaned_data["name"]
        ),
    )


@lead_required
@require_http_methods(["GET", "POST"])
def campaign_rules(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The campaign's rules (:mod:`annotation.campaigns.rules`): how its work is split,
    the timeout, the quotas, each annotator's own quota. Saving rules that change the cut
    draws the batches again; refused (400, with the reason) once dealing has started."""
    campaign = get_object_or_404(Campaign, pk=pk)
    annotators = campaign_annotators(campaign)
    if request.method == "GET":
        form = CampaignRulesForm(
            instance=campaign, annotators=annotators, quotas=annotator_quotas(campaign)
        )
        return _rules_page(request, campaign, form)
    # The form writes the posted values on its instance, valid or not: give it a copy, so
    # the page shows the rules stored.
    posted = Campaign.objects.get(pk=pk)
    form = CampaignRulesForm(request.POST, instance=posted, annotators=annotators)
    if form.is_valid():
        try:
            campaign_set_rules(
                campaign=campaign,
                rules=form.rules(),
                quotas=form.quotas(),
                requested_by=request.user,
            )
        except DrawRefused as refused:
            form.add_error(None, str(refused))
        else:
            return see_other(reverse("campaigns:rules", args=[campaign.pk]))
    return _rules_page(request, campaign, form, status=400)


def _rules_page(
    request: HtmxHttpRequest, campaign: Campaign, form: CampaignRulesForm, *, status: int = 200
) -> TemplateResponse:
    context = {
        "campaign": campaign,
        "form": form,
        "corpora": tasks_drawn(campaign),
        "drawing": last_draw(campaign),
    }
    return TemplateResponse(request, "campaigns/rules.html", context, status=status)
