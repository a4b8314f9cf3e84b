"""The upload page (an evalTrans file as a new corpus, a system's plain text added to a
corpus) and the pages of the jobs it queues.

A POST checks the form and what can be told at once, queues the work
(:mod:`annotation.corpora.import_jobs`, :mod:`annotation.corpora.system_jobs`) and
answers at once: htmx gets the job's progress panel in the page (and the form's button
disabled, out of band); a plain POST goes to the job's page (303). The panel polls its
own URL every second while the job, or a job it left its corpus (its scoring), is live,
and ends as the summary, or the refusal with a Retry button. Any lead may open any
upload's page: leads share every corpus (any lead downloads, archives or deletes one),
and a lead told "already running" follows the link to a colleague's import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import BadRequest
from django.forms import Form
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from annotation.corpora.forms import AddSystemForm, UploadForm
from annotation.corpora.import_jobs import AlreadyRunning, queue_import
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.system_jobs import ADD_SYSTEM, queue_add_system
from annotation.jobs import Job, live_jobs, retry
from annotation.models import User
from annotation.uploads import IMPORT
from annotation.web import HtmxHttpRequest, lead_required, see_other

UPLOAD_KINDS = (IMPORT, ADD_SYSTEM)


@dataclass(frozen=True)
class PanelWords:
    """A kind of upload job as its panel names it: the ids tests and scripts find, and
    the words of a refusal."""

    panel: str
    summary: str
    error: str
    refused: str


WORDS = {
    IMPORT: PanelWords("import-progress", "upload-summary", "upload-error", "Not imported:"),
    ADD_SYSTEM: PanelWords(
        "add-system-progress", "add-system-summary", "add-system-error", "Not added:"
    ),
}


@dataclass(frozen=True)
class JobPanel:
    """What an upload job's panel shows: the job, the live jobs of its corpus besides it
    (the scoring an import queues), and whether the panel keeps polling."""

    job: Job
    words: PanelWords
    corpus_jobs: list[Job]

    @property
    def polling(self) -> bool:
        return self.job.live or any(other.live for other in self.corpus_jobs)


def job_panel(job: Job) -> JobPanel:
    others = [] if job.corpus_id is None else live_jobs(job.corpus_id)
    return JobPanel(job, WORDS[job.kind], [o for o in others if o.pk != job.pk])


def running_upload(user: User, kind: str) -> Job | None:
    """The lead's own upload of ``kind`` still queued or running: its form's button stays
    disabled meanwhile (another lead's upload does not hold this lead's form)."""
    mine = Job.objects.filter(kind=kind, status__in=Job.LIVE, requested_by=user)
    return mine.defer("upload", "result").order_by("pk").first()


def _upload_page(request: HtmxHttpRequest, context: dict[str, object], status: int) -> HttpResponse:
    context.setdefault("form", UploadForm())
    context.setdefault("system_form", AddSystemForm(user=request.user))
    context["running_import"] = running_upload(request.user, IMPORT)
    context["running_system"] = running_upload(request.user, ADD_SYSTEM)
    return TemplateResponse(request, "corpora/upload.html", context, status=status)


def _job_url(job: Job) -> str:
    return reverse("annotation:upload_job", args=[job.pk])


@dataclass(frozen=True)
class FormPlaces:
    """Where an upload form's answer puts what it shows: the page's context names of the
    form, its error, the job it found running, its new job's panel and the lead's own
    running job (the page holds both forms, so each has names of its own), and the
    fragment htmx gets."""

    form: str
    error: str
    running: str
    panel: str
    mine: str
    fragment: str


PLACES = {
    IMPORT: FormPlaces(
        "form", "error", "running", "panel", "running_import", "corpora/_upload_result.html"
    ),
    ADD_SYSTEM: FormPlaces(
        "system_form",
        "system_error",
        "system_running",
        "system_panel",
        "running_system",
        "corpora/_add_system_result.html",
    ),
}


def _answer_upload(
    request: HtmxHttpRequest,
    kind: str,
    form: Form,
    queue: Callable[[dict[str, Any]], Job],
) -> HttpResponse:
    """The answer to an upload form's POST: the job ``queue`` makes of the valid form's
    data, or why not. A refused form is a 400 naming the field, a file or name refused at
    once a 400 with the reason, a job already running a 409 saying which; htmx gets each
    as a 2xx fragment (it swaps only 2xx answers), a plain POST that queued goes to the
    job's page (303)."""
    places = PLACES[kind]
    context: dict[str, object] = {places.form: form}
    status = 400
    if form.is_valid():
        try:
            job = queue(form.cleaned_data)
        except ImportRefused as refused:
            context[places.error] = str(refused)
        except AlreadyRunning as busy:
            context.update({places.error: str(busy), places.running: busy.job})
            status = 409
        else:
            if not request.htmx:
                return see_other(_job_url(job))
            context.update({places.panel: job_panel(job), places.mine: job})
    if request.htmx:
        return TemplateResponse(request, places.fragment, context)
    return _upload_page(request, context, status)


@lead_required
@require_http_methods(["GET", "POST"])
def corpus_upload(request: HtmxHttpRequest) -> HttpResponse:
    """The upload page; its POST queues the import (:func:`queue_import`), answered by
    :func:`_answer_upload`."""
    if request.method == "GET":
        return _upload_page(request, {"form": UploadForm(initial=_campaign_asked(request))}, 200)
    form = UploadForm(request.POST, request.FILES)

    def queue(data: dict[str, Any]) -> Job:
        return queue_import(
            data=data["file"].read(),
            filename=data["file"].name,
            name=data["name"],
            reference_names=form.reference_names(),
            assign=data["assign"],
            lead=request.user,
            campaign=data["campaign"],
            protocol=data["protocol"],
        )

    return _answer_upload(request, IMPORT, form, queue)


def _campaign_asked(request: HtmxHttpRequest) -> dict[str, int]:
    """The campaign chosen beforehand (``?campaign=<id>``: a campaign page's "upload a
    corpus into this campaign"); a value that is no number is a 400 that says so."""
    asked = request.GET.get("campaign")
    if asked is None:
        return {}
    if not asked.isdigit():
        raise BadRequest(f"campaign: {asked!r} is not a campaign's number")
    return {"campaign": int(asked)}


@lead_required
@require_POST
def corpus_add_system(request: HtmxHttpRequest) -> HttpResponse:
    """The upload page's second form: queues a system's plain text added to a corpus
    that exists (:func:`queue_add_system`), answered as the evalTrans upload is."""
    form = AddSystemForm(request.POST, request.FILES, user=request.user)

    def queue(data: dict[str, Any]) -> Job:
        return queue_add_system(
            corpus=data["corpus"],
            name=data["name"],
            data=data["file"].read(),
            filename=data["file"].name,
            unsegmented=data["unsegmented"],
            lead=request.user,
        )

    return _answer_upload(request, ADD_SYSTEM, form, queue)


def _upload_job(pk: int) -> Job:
    jobs = Job.objects.defer("upload").select_related("requested_by")
    return get_object_or_404(jobs, pk=pk, kind__in=UPLOAD_KINDS)


@lead_required
def upload_job(request: HtmxHttpRequest, pk: int) -> TemplateResponse:
    """An upload job's page: progress while it runs, then its summary or its refusal;
    htmx (the panel's polling) gets the panel alone."""
    context = {"panel": job_panel(_upload_job(pk))}
    if request.htmx and not request.htmx.history_restore_request:
        return TemplateResponse(request, "corpora/_upload_job.html", context)
    return TemplateResponse(request, "corpora/upload_job.html", context)


@lead_required
@require_POST
def upload_job_retry(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Queue a failed upload job again (its file is kept until it is done, or a week
    after it failed: :mod:`annotation.jobs.pruning`): the panel's Retry button. A job of
    the same work queued meanwhile is shown instead."""
    job = retry(_upload_job(pk))
    if request.htmx:
        return TemplateResponse(request, "corpora/_upload_job.html", {"panel": job_panel(job)})
    return see_other(_job_url(job))
