"""The corpora pages: home (every corpus a user may see, with progress; for a lead, the
judges' progress too), upload (an evalTrans file as a new corpus, or a system's plain
text added to a corpus), download.

Thin views: access control and rendering; the work happens in the import and export
services and in querysets.
"""

from __future__ import annotations

from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from annotation.corpora import systems
from annotation.corpora.exports import corpus_export_bytes
from annotation.corpora.forms import AddSystemForm, RemoveForm, UploadForm
from annotation.corpora.imports import RENAME_IN_FORM, ImportRefused, corpus_import
from annotation.corpora.removal import corpus_contents, corpus_delete, corpus_set_archived
from annotation.models import Corpus, User
from annotation.web import HtmxHttpRequest, attachment, lead_required, login_required, see_other


@login_required
def home(request: HtmxHttpRequest) -> TemplateResponse:
    """The user's corpora with their own progress; a lead also sees each corpus's
    campaign progress (its judges'), and a judge with nothing assigned whom to ask."""
    corpora = Corpus.objects.visible_to(request.user).with_progress(request.user)
    if request.user.is_lead:
        corpora = corpora.with_judges_progress()
    corpora = list(corpora)
    ask = [] if corpora or request.user.is_lead else list(User.objects.to_ask())
    unfinished = (
        list(Corpus.all_objects.filter(ready=False).order_by("created_at"))
        if request.user.is_lead
        else []
    )
    context = {"corpora": corpora, "ask": ask, "unfinished": unfinished}
    return TemplateResponse(request, "corpora/home.html", context)


@lead_required
@require_http_methods(["GET", "POST"])
def corpus_upload(request: HtmxHttpRequest) -> HttpResponse:
    form = UploadForm(request.POST or None, request.FILES or None)
    error = None
    summary = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            summary = corpus_import(
                source=upload.open("rb"),
                name=form.cleaned_data["name"] or None,
                filename=upload.name,
                reference_names=form.reference_names(),
                rename=RENAME_IN_FORM,
                assign=form.cleaned_data["assign"],
            )
        except ImportRefused as exc:
            error = str(exc)
        else:
            # The uploading lead runs the campaign: judges with nothing to do are told
            # to ask them (the campaign page edits the list).
            summary.corpus.leads.add(request.user)
            if not request.htmx:
                return redirect("annotation:home")
    context = {"form": form, "error": error, "summary": summary}
    if request.htmx:
        # htmx swaps only 2xx answers: the refusal travels in the fragment itself.
        return TemplateResponse(request, "corpora/_upload_result.html", context)
    status = 400 if request.method == "POST" else 200
    context["system_form"] = AddSystemForm(user=request.user)
    return TemplateResponse(request, "corpora/upload.html", context, status=status)


@lead_required
@require_POST
def corpus_add_system(request: HtmxHttpRequest) -> HttpResponse:
    """The upload page's second form: a system's plain text added to a corpus that exists
    (:func:`annotation.corpora.systems.corpus_add_system`). Answered as the evalTrans
    upload is: htmx gets the summary or the refusal as a fragment; a plain POST goes home,
    or back to the page (400) with the refusal."""
    form = AddSystemForm(request.POST, request.FILES, user=request.user)
    error = None
    added = None
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            added = systems.corpus_add_system(
                corpus=form.cleaned_data["corpus"],
                name=form.cleaned_data["name"],
                lines=systems.uploaded_lines(upload.read(), upload.name),
                filename=upload.name,
                unsegmented=form.cleaned_data["unsegmented"],
            )
        except ImportRefused as exc:
            error = str(exc)
        else:
            if not request.htmx:
                return see_other(reverse("annotation:home"))
    context = {"system_form": form, "system_error": error, "added": added}
    if request.htmx:
        return TemplateResponse(request, "corpora/_add_system_result.html", context)
    context["form"] = UploadForm()
    return TemplateResponse(request, "corpora/upload.html", context, status=400)


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
