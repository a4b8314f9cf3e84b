"""The campaigns' own pages (leads only; anyone else gets 404, anonymous visitors the
login): the list of campaigns (``/campaigns/c/``), where a lead creates one, and a page
per campaign (``/campaigns/c/<id>/``) from which every task of the lead is one click: its
corpora with their dashboards, judges, control items, settings and exports, an upload
into it, its rules, its annotators, their accounts and links, and the jobs that failed.

Thin views: access control, forms, rendering; the changes are
:mod:`annotation.campaigns.membership`'s, the figures :mod:`annotation.campaigns.
overview`'s. Plain forms, working without JavaScript: a change answers 303; a refused
one shows the page again with the field and the reason, status 400.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import BadRequest
from django.db.models import Count, Q, Sum
from django.forms import Form
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from annotation.campaigns.dealing import campaign_stop_dealing
from annotation.campaigns.effort import remembered_protocol_effort
from annotation.campaigns.forms import (
    CampaignNameForm,
    CampaignSideBySideForm,
    CorpusIntoCampaignForm,
)
from annotation.campaigns.membership import (
    CampaignRefused,
    campaign_create,
    campaign_delete,
    campaign_rename,
    corpus_move,
)
from annotation.campaigns.overview import campaign_overview
from annotation.models import Campaign
from annotation.sidebyside.campaign import campaign_reach
from annotation.sidebyside.queue import SideBySideRefused
from annotation.web import HtmxHttpRequest, lead_required, see_other


def _campaigns_page(
    request: HtmxHttpRequest, *, form: CampaignNameForm | None = None, status: int = 200
) -> TemplateResponse:
    ready = Q(corpora__ready=True)
    campaigns = Campaign.objects.annotate(
        n_corpora=Count("corpora", filter=ready),
        n_sentences=Sum("corpora__n_sentences", filter=ready, default=0),
        n_candidates=Sum("corpora__n_candidates", filter=ready, default=0),
    ).order_by("name")
    context = {"campaigns": campaigns, "form": form or CampaignNameForm()}
    return TemplateResponse(request, "campaigns/campaigns.html", context, status=status)


@lead_required
@require_GET
def campaign_list(request: HtmxHttpRequest) -> TemplateResponse:
    """Every campaign with its number of corpora, and a form to create one."""
    return _campaigns_page(request)


@lead_required
@require_POST
def campaign_new(request: HtmxHttpRequest) -> HttpResponse:
    """Create a campaign (a name, unique) and open its page, to upload corpora into."""
    form = CampaignNameForm(request.POST)
    if form.is_valid():
        try:
            campaign = campaign_create(name=form.cleaned_data["name"])
        except CampaignRefused as refused:
            form.add_error("name", str(refused))
        else:
            return see_other(reverse("campaigns:campaign", args=[campaign.pk]))
    return _campaigns_page(request, form=form, status=400)


def _campaign_page(
    request: HtmxHttpRequest, campaign: Campaign, *, status: int = 200, **forms: Any
) -> TemplateResponse:
    renamed = CampaignNameForm(initial={"name": campaign.name})
    overview = campaign_overview(campaign)
    corpora = [row.corpus for row in overview.corpora]
    context = {
        "campaign": campaign,
        "overview": overview,
        "protocol_effort": remembered_protocol_effort(campaign, corpora),
        "rename_form": forms.get("rename_form") or renamed,
        "move_form": forms.get("move_form") or CorpusIntoCampaignForm(campaign=campaign),
        "delete_error": forms.get("delete_error"),
        "sbs_form": forms.get("sbs_form") or CampaignSideBySideForm.of(campaign),
        "sbs_reach": campaign_reach(campaign, corpora),
    }
    return TemplateResponse(request, "campaigns/campaign_page.html", context, status=status)


def _campaign_or_404(pk: int) -> Campaign:
    return get_object_or_404(Campaign, pk=pk)


@lead_required
@require_GET
def campaign_page(request: HtmxHttpRequest, pk: int) -> TemplateResponse:
    """A campaign: its corpora, annotators and jobs, and every task of the lead."""
    return _campaign_page(request, _campaign_or_404(pk))


def _campaign_change(
    request: HtmxHttpRequest,
    campaign: Campaign,
    form: Form,
    change: Callable[[dict[str, Any]], object],
    *,
    field: str,
    shown_as: str,
) -> HttpResponse:
    """The answer to a change of ``campaign`` made by ``form``: ``change`` done with the
    valid form's data and 303 to the campaign's page, or the page again (400) with the
    form as ``shown_as``, a refusal written under its ``field``."""
    if form.is_valid():
        try:
            change(form.cleaned_data)
        except CampaignRefused as refused:
            form.add_error(field, str(refused))
        else:
            return see_other(reverse("campaigns:campaign", args=[campaign.pk]))
    forms = {shown_as: form}
    return _campaign_page(request, _campaign_or_404(campaign.pk), status=400, **forms)


@lead_required
@require_POST
def campaign_rename_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign_or_404(pk)
    return _campaign_change(
        request,
        campaign,
        CampaignNameForm(request.POST),
        lambda data: campaign_rename(campaign=campaign, name=data["name"]),
        field="name",
        shown_as="rename_form",
    )


@lead_required
@require_POST
def campaign_add_corpus(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Move a corpus of another campaign into this one (refused with the reason)."""
    campaign = _campaign_or_404(pk)
    return _campaign_change(
        request,
        campaign,
        CorpusIntoCampaignForm(request.POST, campaign=campaign),
        lambda data: corpus_move(
            corpus=data["corpus"], campaign=campaign, requested_by=request.user
        ),
        field="corpus",
        shown_as="move_form",
    )


@lead_required
@require_POST
def campaign_delete_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Delete a campaign that holds no corpus (refused otherwise, with the reason)."""
    campaign = _campaign_or_404(pk)
    try:
        campaign_delete(campaign=campaign)
    except CampaignRefused as refused:
        return _campaign_page(request, campaign, delete_error=str(refused), status=400)
    return see_other(reverse("campaigns:campaigns"))


@lead_required
@require_POST
def campaign_side_by_side(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The campaign's side-by-side setting (:mod:`annotation.sidebyside.campaign`): saved
    and applied to every corpus that follows it, or the page again (400) with the field
    and the reason (a value out of range; a change once judging started under it)."""
    campaign = _campaign_or_404(pk)
    form = CampaignSideBySideForm(request.POST)
    if form.is_valid():
        try:
            form.save_setting(campaign)
        except SideBySideRefused as refused:
            form.add_error("per_screen", str(refused))
        else:
            return see_other(reverse("campaigns:campaign", args=[campaign.pk]) + "#h-side-by-side")
    return _campaign_page(request, _campaign_or_404(pk), status=400, sbs_form=form)


@lead_required
@require_POST
def campaign_stop_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Stop dealing the campaign's work (``stopped=1``: no new batch for anyone; the
    batches judges hold can be finished) or deal it again (``stopped=0``); 303 to the
    corpus page it was asked from (``corpus``, one of the campaign's), else the
    campaign's page."""
    campaign = _campaign_or_404(pk)
    stopped = request.POST.get("stopped")
    if stopped not in ("0", "1"):
        raise BadRequest(f"stopped: {stopped!r} is neither 1 (stop dealing) nor 0 (deal again)")
    corpus = request.POST.get("corpus", "")
    back = (
        campaign.corpora.filter(pk=int(corpus)).values_list("pk", flat=True).first()
        if corpus.isdigit()
        else None
    )
    if corpus and back is None:
        raise BadRequest(f"corpus: {corpus!r} is not a corpus of this campaign")
    campaign_stop_dealing(campaign, stopped=stopped == "1")
    if back is not None:
        return see_other(reverse("campaigns:corpus", args=[back]) + "#adaptive-stop")
    return see_other(reverse("campaigns:campaign", args=[campaign.pk]))
