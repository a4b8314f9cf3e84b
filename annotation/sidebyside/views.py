"""The side-by-side pages: thin views over :mod:`annotation.sidebyside`.

A judge's screen (:func:`comparison_page`) works without JavaScript: every form posts
and is answered with a 303 back to the screen. With htmx a candidate's change answers
with its panel alone (``#sbs-panel-<letter>``), so what the judge typed in another
panel stays as it is; the preference answers with its buttons. Accept & next is a
plain POST: it saves what was typed
(:func:`~annotation.sidebyside.actions.comparison_accept`) and goes on to the next
screen. The lead's panel (:func:`side_by_side_panel`) sets the corpus up and shows its
figures.

A candidate's change is made from the version stored (not the one the panel showed):
the changes of this page name their span by what it is, so a click queued behind
another means the same; the single-candidate page's check between two tabs is not made
here.
"""

from __future__ import annotations

from django.core.exceptions import BadRequest
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from annotation.judging.errors import JudgingError, NotYours
from annotation.judging.views import CHANGES
from annotation.models import Comparison, Corpus, Judgment
from annotation.sidebyside.actions import (
    PreferenceRefused,
    Typed,
    comparison_accept,
    comparison_judgments,
    comparison_seen,
    comparison_set_preference,
)
from annotation.sidebyside.campaign import (
    CAMPAIGN_CHOICE,
    OFF_CHOICE,
    corpus_side_by_side_choose,
    side_by_side_of,
)
from annotation.sidebyside.figures import side_by_side_figures
from annotation.sidebyside.keys import keys_json, keys_of
from annotation.sidebyside.queue import ERR_OFF, SideBySideRefused, next_comparison
from annotation.sidebyside.screen import LETTERS, panel_of, preferences_of, screen_context
from annotation.text import corpus_languages
from annotation.web import HtmxHttpRequest, lead_required, login_required, see_other

#: What a panel's forms may ask of one candidate: the ESA / MQM page's own changes, and
#: the aWER page's that its panel offers (each service refuses the other protocol's).
PANEL_ACTIONS = (
    "mark-span",
    "change-span",
    "remove-span",
    "esa-score",
    "undo",
    "redo",
    "op",
    "severity",
    "new-ref",
    "as-is",
    "sser",
    "ier",
)


def _comparison_or_404(request: HtmxHttpRequest, pk: int) -> Comparison:
    """The judge's own screen in a corpus still assigned to them (404 otherwise)."""
    corpora = Corpus.objects.visible_to(request.user)
    return get_object_or_404(
        Comparison.objects.select_related("setting__corpus__campaign").filter(
            setting__corpus__in=corpora, judge=request.user
        ),
        pk=pk,
    )


def _screen(
    request: HtmxHttpRequest,
    comparison: Comparison,
    *,
    status: int = 200,
    message: str = "",
    visit: bool = False,
) -> TemplateResponse:
    """The screen; a ``visit`` (the page asked for, not a refusal drawn again) records
    its ``open`` events, which start the clock for the first change
    (:func:`~annotation.sidebyside.actions.comparison_seen`)."""
    judgments = comparison_judgments(comparison=comparison, user=request.user)
    if visit:
        comparison_seen(judgments=judgments, user=request.user)
    source_language, target_language = corpus_languages(comparison.setting.corpus)
    awer = not comparison.setting.corpus.marks_spans
    ier = awer and comparison.setting.corpus.ier_enabled
    return TemplateResponse(
        request,
        "sidebyside/screen.html",
        {
            "ctx": screen_context(comparison, judgments),
            "corpus": comparison.setting.corpus,
            "keys": keys_of(awer=awer, ier=ier),
            "keys_json": keys_json(awer=awer, ier=ier),
            "message": message,
            "source_language": source_language,
            "target_language": target_language,
        },
        status=status,
    )


@login_required
@require_GET
def side_by_side_continue(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The judge's next screen in this corpus (the queue drawn on the way), or "all
    done"."""
    corpus = get_object_or_404(
        Corpus.objects.visible_to(request.user).select_related("campaign"), pk=pk
    )
    setting = side_by_side_of(corpus)
    if setting is None:
        raise Http404("This corpus is not judged side by side.")
    if not setting.judged:
        return _refused(request, corpus, ERR_OFF)
    comparison = next_comparison(setting=setting, user=request.user)
    if comparison is not None:
        return redirect("annotation:comparison", pk=comparison.pk)
    return TemplateResponse(request, "sidebyside/done.html", {"corpus": corpus})


@login_required
@require_GET
def comparison_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    comparison = _comparison_or_404(request, pk)
    if not comparison.setting.judged:
        return _refused(request, comparison.setting.corpus, ERR_OFF)
    return _screen(request, comparison, visit=True)


def _refused(request: HtmxHttpRequest, corpus: Corpus, reason: str) -> TemplateResponse:
    """The page a judge gets, with the ``reason``, where a corpus is no longer judged
    side by side (turned off) after its screens were drawn: 409."""
    context = {"corpus": corpus, "refused": reason}
    return TemplateResponse(request, "sidebyside/done.html", context, status=409)


@login_required
@require_POST
def comparison_change(
    request: HtmxHttpRequest, pk: int, judgment: int, action: str
) -> HttpResponse:
    """One candidate's change (:data:`PANEL_ACTIONS`): its panel (htmx), or a redirect."""
    if action not in PANEL_ACTIONS:
        raise Http404("No such action.")
    comparison = _comparison_or_404(request, pk)
    judgments = comparison_judgments(comparison=comparison, user=request.user)
    shown = [(j, letter) for j, letter in zip(judgments, LETTERS, strict=False) if j.pk == judgment]
    if not shown:
        raise Http404("No such candidate on this screen.")
    (j, letter), message, status = shown[0], "", 200
    try:
        CHANGES[action](j, request, j.version)
    except NotYours:
        raise Http404("No such candidate on this screen.") from None
    except JudgingError as exc:
        message, status = exc.message, 422
        j = comparison_judgments(comparison=comparison, user=request.user)[judgments.index(j)]
    if not request.htmx:
        if status != 200:
            return _screen(request, comparison, status=status, message=message)
        return see_other(reverse("annotation:comparison", args=[pk]))
    source_language, target_language = corpus_languages(comparison.setting.corpus)
    return TemplateResponse(
        request,
        "sidebyside/_panel.html",
        {
            "panel": panel_of(j, letter),
            "comparison": comparison,
            "message": message,
            "target_language": target_language,
            "source_language": source_language,
        },
        status=status,
    )


def _preference(request: HtmxHttpRequest) -> str | None:
    value = request.POST.get("preference")
    return None if value is None else value.strip()


@login_required
@require_POST
def comparison_preference(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The judge's preference between A and B: its buttons (htmx), or a redirect."""
    comparison = _comparison_or_404(request, pk)
    try:
        comparison_set_preference(
            comparison=comparison, user=request.user, preference=_preference(request) or ""
        )
    except PreferenceRefused as exc:
        raise BadRequest(str(exc)) from None
    if request.htmx:
        return TemplateResponse(
            request,
            "sidebyside/_preference.html",
            {"comparison": comparison, "preferences": preferences_of(comparison)},
        )
    return see_other(reverse("annotation:comparison", args=[pk]))


def _typed_scores(request: HtmxHttpRequest, prefix: str = "score-") -> dict[int, int]:
    """The scores the accept form carries (``score-<judgment>``; an aWER screen's SSERs
    ``sser-<judgment>``), as typed."""
    scores = {}
    for name in request.POST:
        value = request.POST.get(name, "").strip()
        key = name.removeprefix(prefix)
        if name.startswith(prefix) and key.isdigit() and value:
            if not value.isdigit():
                raise BadRequest(f"{name} must be a whole number, not {value!r}.")
            scores[int(key)] = int(value)
    return scores


def _typed(request: HtmxHttpRequest) -> Typed:
    """What an aWER screen's accept form carries: the SSERs pressed (``sser-<judgment>``)
    and the new references' texts typed (``new-ref-<judgment>``, empty: none typed)."""
    new_refs = {}
    for name in request.POST:
        key, value = name.removeprefix("new-ref-"), request.POST.get(name, "")
        if name.startswith("new-ref-") and key.isdigit() and value.strip():
            new_refs[int(key)] = value
    return Typed(ssers=_typed_scores(request, "sser-"), new_refs=new_refs)


@login_required
@require_POST
def comparison_accept_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Accept & next: save what was typed, finish the screen, go on."""
    comparison = _comparison_or_404(request, pk)
    try:
        comparison_accept(
            comparison=comparison,
            user=request.user,
            scores=_typed_scores(request),
            preference=_preference(request),
            typed=_typed(request),
        )
    except PreferenceRefused as exc:
        raise BadRequest(str(exc)) from None
    except JudgingError as exc:
        return _screen(request, comparison, status=422, message=exc.message)
    return see_other(reverse("annotation:side_by_side", args=[comparison.setting.corpus_id]))


@lead_required
@require_http_methods(["GET", "POST"])
def side_by_side_panel(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The lead's side-by-side panel: the setting (POST changes it: ``per_screen`` a
    number, the corpus's own setting, which overrides its campaign's; ``off``, its own
    setting off; ``campaign``, follow the campaign's again) and the figures, which an
    off setting still shows."""
    corpus = get_object_or_404(Corpus.objects.select_related("campaign"), pk=pk)
    message, status = "", 200
    if request.method == "POST":
        try:
            corpus_side_by_side_choose(
                corpus=corpus,
                choice=request.POST.get("per_screen", ""),
                asks_preference=request.POST.get("asks_preference") == "on",
            )
        except SideBySideRefused as exc:
            message, status = str(exc), 422
        else:
            return see_other(reverse("annotation:side_by_side_panel", args=[pk]))
    setting = side_by_side_of(corpus)
    return TemplateResponse(
        request,
        "sidebyside/panel.html",
        {
            "corpus": corpus,
            "setting": setting,
            "on": setting is not None and setting.judged,
            "choices": {"off": OFF_CHOICE, "campaign": CAMPAIGN_CHOICE},
            "figures": None if setting is None else side_by_side_figures(setting),
            "message": message,
            "judgments_done": Judgment.objects.of_corpus(pk).counted().count(),
        },
        status=status,
    )
