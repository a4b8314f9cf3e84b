"""The corpora pages: home (every corpus a user may see, with progress; for a lead,
grouped by campaign, with the judges' progress and the jobs that failed), download,
archive or delete. The upload page and the pages of
the jobs it queues are :mod:`annotation.corpora.upload_views`.

Thin views: access control and rendering; the work happens in the import and export
services and in querysets.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from annotation.campaigns.api import campaign_groups
from annotation.controls.api import ItemsProgress, items_progress
from annotation.corpora.exports import corpus_export_bytes
from annotation.corpora.forms import RemoveForm
from annotation.corpora.import_jobs import unfinished_imports
from annotation.corpora.removal import corpus_contents, corpus_delete, corpus_set_archived
from annotation.jobs import Job, pending_by_corpus
from annotation.judging.api import JudgeBatch, judge_batches
from annotation.models import Corpus, User
from annotation.uploads import failed_imports
from annotation.web import HtmxHttpRequest, attachment, lead_required, login_required, see_other


@dataclass(frozen=True)
class HomeRow:
    """A corpus on the lead's home: the lead's own progress in it and their batch (shown
    only where the lead is one of its judges), and its pending jobs (a failed one with
    its Retry)."""

    corpus: Corpus
    progress: ItemsProgress | None
    batch: JudgeBatch | None
    jobs: list[Job]


@login_required
def home(request: HtmxHttpRequest) -> TemplateResponse:
    """The user's corpora with their own progress (as the judge's header counts it:
    :func:`~annotation.controls.runs.queue_progress`), and for a judge with nothing
    assigned whom to ask. In a corpus whose campaign splits the work, the progress is
    the judge's batch's, and a judge without a batch to go on with is offered the next
    one (:mod:`annotation.judging.batches`). A lead sees every corpus grouped by
    campaign, each with its judges' progress and pending jobs, is offered to judge only
    those they judge, and sees the failed imports and unfinished ones: a fixed number of
    queries whatever the number of corpora, campaigns and jobs."""
    visible = (
        Corpus.objects.visible_to(request.user)
        .select_related("campaign", "side_by_side")
        .with_items_progress(request.user)
    )
    if not request.user.is_lead:
        corpora = list(visible)
        batches = judge_batches(user=request.user, corpora=corpora)
        rows = [(c, _progress(c, batches.get(c.pk)), batches.get(c.pk)) for c in corpora]
        ask = [] if corpora else list(User.objects.to_ask())
        context = {"corpora": corpora, "rows": rows, "ask": ask}
        return TemplateResponse(request, "corpora/home.html", context)
    corpora = list(visible.with_judges_progress().with_judging(request.user))
    theirs = [c for c in corpora if c.is_judge]  # type: ignore[attr-defined]
    batches = judge_batches(user=request.user, corpora=theirs)
    jobs = pending_by_corpus(Corpus.objects.all())
    lead_rows = [
        HomeRow(c, _progress(c, batches.get(c.pk)), batches.get(c.pk), jobs.get(c.pk, []))
        for c in corpora
    ]
    context = {
        "corpora": corpora,
        "rows": [(row.corpus, row.progress, row.batch) for row in lead_rows],
        "groups": campaign_groups(lead_rows),
        "ask": [],
        "unfinished": unfinished_imports(),
        "failed_imports": failed_imports(),
    }
    return TemplateResponse(request, "corpora/home.html", context)


def _progress(corpus: Corpus, batch: JudgeBatch | None) -> ItemsProgress | None:
    """The progress a row shows: the judge's batch's in a corpus whose campaign splits the
    work (None before their first batch), else the corpus's."""
    return items_progress(corpus) if batch is None else batch.progress


@lead_required
def corpus_download(request: HtmxHttpRequest, pk: int) -> StreamingHttpResponse:
    """The corpus as an evalTrans file, streamed as it is written: the first bytes leave
    at once however large the corpus, and the whole file is never held in memory."""
    corpus = get_object_or_404(Corpus, pk=pk)
    response = StreamingHttpResponse(
        corpus_export_bytes(corpus=corpus), content_type="application/xml; charset=utf-8"
    )
    return attachment(response, corpus.name, ".evaltrans.xml")


@lead_required
@require_http_methods(["GET", "POST"])
def corpus_remove(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Archive, restore or delete a corpus (:mod:`annotation.corpora.removal`), a hidden
    one left by an unfinished import included (delete only). The page says what a
    deletion takes with it and asks for the corpus's name; a refusal comes back as 400
    with the field and the reason."""
    corpus = get_object_or_404(Corpus.all_objects, pk=pk)
    form = RemoveForm(request.POST or None, corpus=corpus)
    if request.method == "POST" and form.is_valid():
        action = form.cleaned_data["action"]
        if action == "delete":
            corpus_delete(corpus=corpus, requested_by=request.user)
            return see_other(reverse("annotation:home"))
        corpus_set_archived(corpus=corpus, archived=action == "archive")
        return see_other(reverse("annotation:corpus_remove", args=[corpus.pk]))
    context = {"corpus": corpus, "form": form, "contents": corpus_contents(corpus)}
    status = 400 if request.method == "POST" else 200
    return TemplateResponse(request, "corpora/remove.html", context, status=status)
