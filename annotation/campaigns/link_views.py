"""Per-annotator links on the web (the rules are :mod:`annotation.campaigns.links`').

**The lead's page** (``/campaigns/links/<campaign>/``, leads only, 404 for anyone else):
make links for chosen annotators of a campaign or all of them, each shown once in the
answer to the POST that made them (with a CSV to download from that answer, and
``Cache-Control: no-store``), as a one-time password is; the list of the campaign's
links (hint, annotator, made, expires, last used, state, completion code) with a Revoke
button each and "Revoke all". Changes answer 303 to the page.

**The annotator's URLs**, outside every namespace, as short as a link must be:

* ``annotation_link`` ``/a/<token>/``: opens the link (:func:`link_open`): logs its
  annotator in and takes them to their next item. A token never made answers 404 and
  counts as a failed login of the address (429 once locked out, as logins are); a link
  revoked, expired, or whose account is no judge's any more answers 410; all three log
  nobody in and leave the browser's session as it was. A browser logged in as someone
  else is asked first (never logged out silently): the link's annotator's queue is
  shown only once they are logged in.
* ``annotation_link_next`` ``/a/next/``: the session's next item in the link's campaign,
  or the finished page with the completion code (the judge's finished page links here).
* ``annotation_link_ended`` ``/a/ended/``: where a session goes whose link ended.

The pages at ``/a/…`` are kept by no cache and send no Referer with their token
(:class:`~annotation.campaigns.link_sessions.LinkSessionMiddleware`).
"""

from __future__ import annotations

from axes.helpers import get_lockout_response
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from annotation.campaigns.forms import LinksCreateForm
from annotation.campaigns.handover import links_csv
from annotation.campaigns.link_sessions import (
    link_attempt,
    link_attempt_failed,
    link_attempts_allowed,
    link_log_in,
    session_link,
)
from annotation.campaigns.links import (
    LinkRefused,
    NewLink,
    Next,
    Refusal,
    campaign_links,
    link_completion_code,
    link_for_token,
    link_next,
    link_refusal,
    link_revoke,
    link_state,
    links_create,
    links_revoke_all,
)
from annotation.models import AnnotatorLink, Campaign
from annotation.web import HtmxHttpRequest, lead_required, login_required, see_other


def _links_page(
    request: HtmxHttpRequest,
    campaign: Campaign,
    *,
    form: LinksCreateForm | None = None,
    made: list[NewLink] | None = None,
    status: int = 200,
) -> TemplateResponse:
    now = timezone.now()
    links = [(link, link_state(link, now)) for link in campaign_links(campaign)]
    base = f"{request.scheme}://{request.get_host()}"
    form = form or LinksCreateForm(campaign=campaign)
    context = {
        "campaign": campaign,
        "corpora": campaign.corpora.order_by("name"),
        "form": form,
        "has_annotators": form.fields["annotators"].queryset.exists(),  # type: ignore[attr-defined]
        "links": links,
        "opening": sum(state == "active" for _, state in links),
        "made": [(new, base + new.path) for new in made or ()],
        "made_csv": links_csv(made, base) if made else "",
    }
    response = TemplateResponse(request, "campaigns/links.html", context, status=status)
    if made:
        add_never_cache_headers(response)
    return response


@lead_required
@require_GET
def links_page(request: HtmxHttpRequest, campaign_pk: int) -> TemplateResponse:
    """A campaign's per-annotator links: make them, see them, revoke them."""
    return _links_page(request, get_object_or_404(Campaign, pk=campaign_pk))


@lead_required
@require_POST
def links_create_view(request: HtmxHttpRequest, campaign_pk: int) -> TemplateResponse:
    """New links, shown once in this answer (the list of links follows them)."""
    campaign = get_object_or_404(Campaign, pk=campaign_pk)
    form = LinksCreateForm(request.POST, campaign=campaign)
    if not form.is_valid():
        return _links_page(request, campaign, form=form, status=400)
    try:
        made = links_create(
            campaign=campaign, users=form.cleaned_data["users"], days=form.cleaned_data["days"]
        )
    except LinkRefused as refused:  # an annotator was unassigned since the form was read
        form.add_error("annotators", str(refused))
        return _links_page(request, campaign, form=form, status=400)
    return _links_page(request, campaign, made=made)


@lead_required
@require_POST
def link_revoke_view(request: HtmxHttpRequest, campaign_pk: int, link_pk: int) -> HttpResponse:
    """Revoke one link (again: nothing changes)."""
    link = get_object_or_404(AnnotatorLink, pk=link_pk, campaign_id=campaign_pk)
    link_revoke(link=link)
    return see_other(reverse("campaigns:links", args=[campaign_pk]) + "#h-links")


@lead_required
@require_POST
def links_revoke_all_view(request: HtmxHttpRequest, campaign_pk: int) -> HttpResponse:
    """Revoke every link of the campaign."""
    campaign = get_object_or_404(Campaign, pk=campaign_pk)
    links_revoke_all(campaign=campaign)
    return see_other(reverse("campaigns:links", args=[campaign.pk]) + "#h-links")


def _refused(request: HtmxHttpRequest, refusal: Refusal) -> TemplateResponse:
    """The page of a link that opens nothing, which says why (404 or 410)."""
    context = {"refusal": refusal.value}
    return TemplateResponse(request, "campaigns/link_refused.html", context, status=refusal.status)


@require_http_methods(["GET", "POST"])
def link_open(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Open a per-annotator link (the module doc): GET logs the annotator in unless the
    browser is logged in as someone else, who is asked first; POST (their answer) logs
    the link's annotator in."""
    credentials = link_attempt(request, token)
    if not link_attempts_allowed(request, credentials):
        return get_lockout_response(request, None, credentials)
    link = link_for_token(token)
    if link is None:
        link_attempt_failed(request, credentials)  # 429 instead, once locked out
    refusal = link_refusal(link)
    if link is None or refusal is not None:
        return _refused(request, refusal or Refusal.UNKNOWN)
    other = request.user.is_authenticated and request.user.pk != link.user_id
    if other and request.method != "POST":
        context = {"annotator": link.user, "token": token}
        return TemplateResponse(request, "campaigns/link_switch.html", context)
    link_log_in(request, link)
    return HttpResponseRedirect(reverse("annotation_link_next"))


@login_required
@require_GET
def link_next_view(request: HtmxHttpRequest) -> HttpResponse:
    """The next item of the link that opened this session, or the finished page: with
    the link's completion code once everything the annotator could get is done."""
    link = session_link(request)
    if link is None:  # a session a password opened: its corpora are on the home page
        return HttpResponseRedirect(reverse("annotation:home"))
    where = link_next(link=link)
    if isinstance(where, str):
        return HttpResponseRedirect(where)
    code = link_completion_code(link=link) if where is Next.FINISHED else None
    context = {"campaign": link.campaign, "state": where.value, "code": code}
    return TemplateResponse(request, "campaigns/link_done.html", context)


@require_GET
def link_ended(request: HtmxHttpRequest) -> TemplateResponse:
    """What a session whose link was revoked or expired is told (it is logged out)."""
    unsaved = request.GET.get("unsaved") == "1"
    return TemplateResponse(request, "campaigns/link_ended.html", {"unsaved": unsaved}, status=410)
