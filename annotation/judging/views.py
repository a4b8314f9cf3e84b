"""The judge's page: thin views over :mod:`annotation.judging` (access control, rendering).

One view per URL of :mod:`annotation.judging.urls`; every change of the page goes through
:func:`judgment_change`, one service call of :mod:`annotation.judging.changes` per action.
htmx requests get the ``#judge`` fragment (and the header's figures as out-of-band swaps),
plain requests the full page or a 303 redirect to it, so the page works without
JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from annotation.campaigns.api import deal_next
from annotation.controls.api import control_before, items_progress
from annotation.judging import changes, esa, items
from annotation.judging.batches import judge_batches
from annotation.judging.errors import (
    ERR_NOT_A_NUMBER,
    ERR_SPAN_NAME,
    ChangeRefused,
    JudgingError,
    NotYours,
    StaleJudgment,
)
from annotation.judging.esa import span_of_token
from annotation.judging.esa_page import span_page_context
from annotation.judging.header import judge_header
from annotation.judging.order import previous_target_for
from annotation.judging.page import judging_context
from annotation.judging.severity import judgment_toggle_severity
from annotation.judging.stack import judgment_for
from annotation.judging.start import (
    judgment_open,
    judgment_seen,
    last_accepted_for,
    next_judgment_for,
)
from annotation.models import Corpus, Judgment, User
from annotation.models.prepared import Prepared
from annotation.text import corpus_languages
from annotation.web import HtmxHttpRequest, login_required, see_other
from metrics.error_spans import MarkedSpan
from metrics.numerals import digits, whole_number


def _judgment_or_404(request: HtmxHttpRequest, pk: int) -> Judgment:
    try:
        return judgment_for(pk=pk, user=request.user)
    except Judgment.DoesNotExist:
        raise Http404("No such judgment.") from None


def _render_judgment(
    request: HtmxHttpRequest,
    judgment: Judgment,
    *,
    status: int = 200,
    message: str | None = None,
    message_kind: str = "",
    edit_pos: int | None = None,
    with_header: bool = True,
) -> TemplateResponse:
    """The full page, or for htmx the ``#judge`` fragment with the figures (and, when the
    candidate changed, the header) as out-of-band swaps. The one place the page is chosen
    by the corpus's protocol: aWER's, or the ESA / MQM page where judges mark spans."""
    if judgment.target.sentence.corpus.marks_spans:
        return _render_span_page(
            request,
            judgment,
            status=status,
            message=message,
            message_kind=message_kind,
            with_header=with_header,
        )
    ctx = judging_context(judgment)
    htmx = bool(request.htmx)
    if edit_pos is not None and edit_pos >= len(ctx.new_ref_words):
        edit_pos = None
    source_language, target_language = corpus_languages(judgment.target.sentence.corpus)
    context = {
        "ctx": ctx,
        "j": judgment,
        "header": judge_header(judgment, ctx.run_item) if with_header or not htmx else None,
        "message": message,
        "message_kind": message_kind,
        "edit_pos": edit_pos,
        "edit_word": None if edit_pos is None else ctx.new_ref_words[edit_pos],
        "readonly": judgment.evaluator_id != request.user.pk,
        "source_language": source_language,
        "target_language": target_language,
    }
    if not htmx:
        return TemplateResponse(request, "judging/judge.html", context, status=status)
    return TemplateResponse(request, "judging/_judge_fragment.html", context, status=status)


def _render_span_page(
    request: HtmxHttpRequest,
    judgment: Judgment,
    *,
    status: int,
    message: str | None,
    message_kind: str,
    with_header: bool = True,
) -> TemplateResponse:
    """:func:`_render_judgment` for a corpus judged by error spans (ESA, MQM): the same
    header, messages and fragment-or-page rule, its own page. Without the header (an
    htmx click that cannot have changed it), the fragment carries the span figures
    instead, and the page's place in the judge's order is not read."""
    header = with_header or not request.htmx
    ctx = span_page_context(judgment, placed=header)
    source_language, target_language = corpus_languages(judgment.target.sentence.corpus)
    context = {
        "ctx": ctx,
        "j": judgment,
        "header": judge_header(judgment, ctx.run_item) if header else None,
        "message": message,
        "message_kind": message_kind,
        "readonly": judgment.evaluator_id != request.user.pk,
        "source_language": source_language,
        "target_language": target_language,
    }
    template = "judging/_spans_fragment.html" if request.htmx else "judging/spans.html"
    return TemplateResponse(request, template, context, status=status)


@login_required
@require_GET
def judge_continue(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The judge's next candidate in this corpus (created on the way), or "all done"
    (in a campaign that splits the work: the judge's batch is done, or none is dealt)."""
    corpus = _visible_corpus(request, pk)
    judgment = next_judgment_for(user=request.user, corpus=corpus)
    if judgment is not None:
        return redirect("annotation:judgment", pk=judgment.pk)
    return _all_done(request, pk)


def _visible_corpus_query(pk: int, user_id: int, *, shape: bool) -> QuerySet[Corpus]:
    """The corpus ``pk`` with its campaign, if the user ``user_id`` may see it (a lead:
    ``shape`` True; :meth:`~annotation.models.CorpusQuerySet.visible_to`)."""
    role = User.Role.LEAD if shape else User.Role.JUDGE
    visible = Corpus.objects.visible_to(User(pk=user_id, role=role))
    return visible.filter(pk=pk).select_related("campaign")


#: Compiled once per process (:mod:`annotation.models.prepared`): every "open" asks it.
_VISIBLE_CORPUS = Prepared(_visible_corpus_query)


def _visible_corpus(request: HtmxHttpRequest, pk: int) -> Corpus:
    """The corpus ``pk`` as the judge's queue reads it, or 404 where they may not see it."""
    found = _VISIBLE_CORPUS(pk, request.user.pk, shape=request.user.is_lead)
    if not found:
        raise Http404("No such corpus.")
    corpus: Corpus = found[0]
    return corpus


def _all_done(request: HtmxHttpRequest, corpus_pk: int) -> TemplateResponse:
    """The judge has accepted every candidate of the corpus (of their batch of it, where
    its campaign splits the work: the page then offers the next batch). For htmx the
    fragment, at the continue URL (which shows it again on a reload)."""
    corpus = (
        Corpus.objects.filter(pk=corpus_pk)
        .select_related("campaign")
        .with_items_progress(request.user)
        .get()
    )
    last = last_accepted_for(user=request.user, corpus_id=corpus_pk)
    batch = judge_batches(user=request.user, corpora=[corpus]).get(corpus_pk)
    progress = items_progress(corpus) if batch is None else batch.progress
    context = {"corpus": corpus, "progress": progress, "last_accepted": last, "batch": batch}
    if not request.htmx:
        return TemplateResponse(request, "judging/judge_done.html", context)
    response = TemplateResponse(request, "judging/_judge_done.html", context)
    response["HX-Push-Url"] = reverse("annotation:judge_continue", args=[corpus_pk])
    return response


@login_required
@require_POST
def next_batch(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Deal the judge their next batch of the corpus's campaign
    (:func:`annotation.campaigns.dealing.deal_next`: the one they hold, else a free one)
    and go to its next item (303; htmx, from the finished page: a full navigation there,
    ``HX-Redirect``); where none is left for them, a page that says so and whom to ask
    (htmx: in place of the finished page's ``#judge``). A corpus whose campaign does not
    split the work has no batches: its judge's next item."""
    corpus = get_object_or_404(
        Corpus.objects.visible_to(request.user).select_related("campaign"), pk=pk
    )
    splits = corpus.campaign.splits_work
    task = deal_next(user=request.user, campaign=corpus.campaign) if splits else None
    if task is not None or not splits:
        following = reverse("annotation:judge_continue", args=[task.corpus_id if task else pk])
        if request.htmx:
            return HttpResponse(status=204, headers={"HX-Redirect": following})
        return see_other(following)
    context = {"corpus": corpus, "ask": list(User.objects.to_ask_about(corpus.pk))}
    template = "judging/_no_batch.html" if request.htmx else "judging/no_batch.html"
    return TemplateResponse(request, template, context)


@login_required
@require_GET
def judgment_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """One candidate. ``?edit=N`` opens the editor of word N of the new reference; any
    ``edit`` parameter marks an in-page request, which is not a new visit."""
    judgment = _judgment_or_404(request, pk)
    if "edit" not in request.GET:
        return _visit(request, judgment)
    edit = request.GET["edit"]
    return _render_judgment(
        request, judgment, edit_pos=int(edit) if digits(edit) else None, with_header=False
    )


def _visit(request: HtmxHttpRequest, judgment: Judgment) -> TemplateResponse:
    """A visit to ``judgment``'s page: its ``open`` event starts the clock for the first
    change (:func:`~annotation.judging.start.judgment_seen`)."""
    judgment_seen(judgment=judgment, user=request.user)
    return _shown(request, judgment)


def _shown(request: HtmxHttpRequest, judgment: Judgment) -> TemplateResponse:
    """The page of ``judgment`` as a visit shows it: htmx gets the fragment with the
    header, and its URL for the address bar and the history."""
    response = _render_judgment(request, judgment)
    if request.htmx:
        response["HX-Push-Url"] = reverse("annotation:judgment", args=[judgment.pk])
    return response


def _int_field(request: HtmxHttpRequest, name: str) -> int:
    """A whole number the page sends, in the digits 0–9 only (:mod:`metrics.numerals`):
    an SSER of "٣" is refused (422), never stored as 3."""
    value = request.POST.get(name, "")
    try:
        return whole_number(value)
    except ValueError:
        raise ChangeRefused(ERR_NOT_A_NUMBER.format(name=name, value=value)) from None


def _do_op(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    changes.judgment_accept_op(
        judgment=j, user=request.user, version=version, op=request.POST.get("op", "")
    )


def _do_word(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    changes.judgment_edit_word(
        judgment=j,
        user=request.user,
        version=version,
        pos=_int_field(request, "pos"),
        action=request.POST.get("action", ""),
        text=request.POST.get("text", ""),
        word=request.POST.get("word"),
    )


def _do_new_ref(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    changes.judgment_edit_ref(
        judgment=j, user=request.user, version=version, text=request.POST.get("text", "")
    )


def _do_use_ref(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    changes.judgment_use_ref(
        judgment=j, user=request.user, version=version, text=request.POST.get("text", "")
    )


def _do_as_is(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    changes.judgment_accept_as_is(judgment=j, user=request.user, version=version)


def _do_note(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    changes.judgment_set_note(
        judgment=j,
        user=request.user,
        version=version,
        note=request.POST.get("note", ""),
        flag=request.POST.get("flag", ""),
    )


def _do_move(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    """``move`` is ``give`` or ``take``, and the word the button named after a colon."""
    move, named, word = request.POST.get("move", "").partition(":")
    changes.judgment_move_word(
        judgment=j,
        user=request.user,
        version=version,
        edge=request.POST.get("edge", ""),
        move=move,
        word=word if named else None,
    )


def _do_ier(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    """One form holds IER's buttons: a gap (``gap``: toggle the boundary before that
    word) or a mark (``mark``: "start:label", the item starting at that word)."""
    if "gap" in request.POST:
        gap = _int_field(request, "gap")
        items.judgment_ier_split(judgment=j, user=request.user, version=version, gap=gap)
        return
    start, _, label = request.POST.get("mark", "").partition(":")
    if not digits(start):
        raise ChangeRefused(ERR_NOT_A_NUMBER.format(name="item start", value=start))
    items.judgment_ier_mark(
        judgment=j, user=request.user, version=version, start=int(start), label=label
    )


def _do_sser(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    changes.judgment_set_sser(
        judgment=j, user=request.user, version=version, sser=_int_field(request, "sser")
    )


def _do_severity(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    """The operation is the form's hidden field (set by the page's script from the focus,
    for m) or, for a mark's own toggle (a submit button of the same form, sent without
    the script too), the button's: the first one given."""
    op = next((value for value in request.POST.getlist("op") if value), "")
    judgment_toggle_severity(judgment=j, user=request.user, version=version, op=op)


def _span_field(request: HtmxHttpRequest) -> MarkedSpan:
    """The span a form sends: its characters, severity, category and whether it is a
    ``[MISSING]`` marker (``missing`` given)."""
    return MarkedSpan(
        _int_field(request, "start"),
        _int_field(request, "end"),
        request.POST.get("severity", ""),
        request.POST.get("category", ""),
        bool(request.POST.get("missing")),
    )


def _named_span(request: HtmxHttpRequest) -> MarkedSpan:
    """The span a click acts on, by its token (:func:`annotation.judging.esa.span_token`)."""
    token = request.POST.get("span", "")
    try:
        return span_of_token(token)
    except ValueError:
        raise ChangeRefused(ERR_SPAN_NAME.format(value=token)) from None


def _do_mark_span(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    esa.judgment_mark_span(
        judgment=j, user=request.user, version=version, span=_span_field(request)
    )


def _do_change_span(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    esa.judgment_change_span(
        judgment=j,
        user=request.user,
        version=version,
        span=_named_span(request),
        to=_span_field(request),
    )


def _do_remove_span(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    """A span's own Remove names it (``span``); the keys name a place (``start``,
    ``end``, ``missing``): the span there is removed."""
    exact = "span" in request.POST
    span = _named_span(request) if exact else _span_field(request)
    esa.judgment_remove_span(judgment=j, user=request.user, version=version, span=span, exact=exact)


def _do_esa_score(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    esa.judgment_set_esa_score(
        judgment=j, user=request.user, version=version, score=_int_field(request, "score")
    )


def _do_undo(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    changes.judgment_undo(judgment=j, user=request.user, version=version)


def _do_redo(j: Judgment, request: HtmxHttpRequest, version: int) -> None:
    changes.judgment_redo(judgment=j, user=request.user, version=version)


CHANGES: dict[str, Callable[[Judgment, HtmxHttpRequest, int], None]] = {
    "op": _do_op,
    "word": _do_word,
    "new-ref": _do_new_ref,
    "use-ref": _do_use_ref,
    "as-is": _do_as_is,
    "note": _do_note,
    "ier": _do_ier,
    "sser": _do_sser,
    "move": _do_move,
    "severity": _do_severity,
    "undo": _do_undo,
    "redo": _do_redo,
    "mark-span": _do_mark_span,
    "change-span": _do_change_span,
    "remove-span": _do_remove_span,
    "esa-score": _do_esa_score,
}


def _refusal(request: HtmxHttpRequest, pk: int, exc: JudgingError) -> HttpResponse:
    """A stale page gets 409 and the fresh state; a refused change 422 and a message."""
    if isinstance(exc, NotYours):
        raise PermissionDenied(exc.message)
    stale = isinstance(exc, StaleJudgment)
    return _render_judgment(
        request,
        _judgment_or_404(request, pk),  # fresh from the database
        status=409 if stale else 422,
        message=exc.message,
        message_kind="stale" if stale else "refused",
    )


@login_required
@require_POST
def judgment_change(request: HtmxHttpRequest, pk: int, action: str) -> HttpResponse:
    """Every change of the judge's page: one service call, then the fragment (htmx) or a
    redirect to the page (plain POST)."""
    change = CHANGES.get(action)
    if change is None:
        raise Http404("No such action.")
    judgment = _judgment_or_404(request, pk)
    was_done = judgment.state == Judgment.State.DONE
    try:
        change(judgment, request, _int_field(request, "version"))
    except JudgingError as exc:
        return _refusal(request, pk, exc)
    if not request.htmx:
        return see_other(reverse("annotation:judgment", args=[pk]))
    # The aWER page's header stays as it was after a click; the ESA / MQM page's is
    # drawn again only where the click could change it (:func:`header_may_change`).
    with_header = judgment.target.sentence.corpus.marks_spans and header_may_change(
        judgment, was_done=was_done
    )
    return _render_judgment(request, judgment, with_header=with_header)


def header_may_change(judgment: Judgment, *, was_done: bool) -> bool:
    """Whether a change of ``judgment`` (done before it: ``was_done``) may change what
    the judge's header shows. Its counts and pace read the judge's done items only, so a
    change that leaves a judgment pending before and after leaves the header as it was;
    one of a done judgment (its active time is in the pace) or that finishes or reopens
    it may not."""
    return was_done or judgment.state == Judgment.State.DONE


@login_required
@require_POST
def judgment_accept(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Accept & next, in one request: mark the judgment done, open the next candidate and
    answer with its page as a visit would (htmx: the fragment, the header and the new
    URL), or with "all done". A plain POST is sent to that page with one redirect.

    Sent twice (a retry, a double submit), the finish is saved once and the answer is the
    same next candidate. The page never sends a click queued during this request to the
    candidate that comes back (``static/js/judge.js``).
    """
    judgment = _judgment_or_404(request, pk)
    try:
        following = changes.judgment_accept_next(
            judgment=judgment,
            user=request.user,
            version=_int_field(request, "version"),
            shown=bool(request.htmx),
        )
    except JudgingError as exc:
        return _refusal(request, pk, exc)
    corpus_pk = judgment.target.sentence.corpus_id
    if following is None:
        if request.htmx:
            return _all_done(request, corpus_pk)
        return see_other(reverse("annotation:judge_continue", args=[corpus_pk]))
    if not request.htmx:  # the page's own visit records its open event
        return see_other(reverse("annotation:judgment", args=[following.pk]))
    return _shown(request, following)  # the judge's own, in a corpus just checked


@login_required
@require_GET
def judgment_previous(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The item before this one in the evaluator's order (this one at the start): the
    control item just before it in its sentence's run, where there is one, or the
    candidate before it."""
    judgment = _judgment_or_404(request, pk)
    control = control_before(judgment)
    if control is not None:
        return redirect("annotation:judgment", pk=control.pk)
    target = previous_target_for(judgment=judgment)
    if target is None:
        return redirect("annotation:judgment", pk=pk)
    previous: Judgment | None
    if judgment.evaluator_id == request.user.pk:  # in the batch the judgment is in
        previous = judgment_open(user=request.user, target=target, task=judgment.task)
    else:  # a lead browsing someone's work never creates judgments for them
        previous = (
            Judgment.objects.real().filter(target=target, evaluator=judgment.evaluator).first()
        )
        if previous is None:
            return redirect("annotation:judgment", pk=pk)
    return redirect("annotation:judgment", pk=previous.pk)
