"""The corpora pages: home (every corpus a user may see, with progress; for a lead, the
judges' progress too), upload, download.

Thin views: access control and rendering; the work happens in the import and export
services and in querysets.
"""

from __future__ import annotations

from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_http_methods

from annotation.corpora.exports import corpus_export_bytes
from annotation.corpora.forms import UploadForm
from annotation.corpora.imports import RENAME_IN_FORM, ImportRefused, corpus_import
from annotation.models import Corpus, User
from annotation.web import HtmxHttpRequest, attachment, lead_required, login_required


@login_required
def home(request: HtmxHttpRequest) -> TemplateResponse:
    """The user's corpora with their own progress; a lead also sees each corpus's
    campaign progress (its judges'), and a judge with nothing assigned whom to ask."""
    corpora = Corpus.objects.visible_to(request.user).with_progress(request.user)
    if request.user.is_lead:
        corpora = corpora.with_judges_progress()
    corpora = list(corpora)
    ask = [] if corpora or request.user.is_lead else list(User.objects.to_ask())
    return TemplateResponse(request, "corpora/home.html", {"corpora": corpora, "ask": ask})


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
    return TemplateResponse(request, "corpora/upload.html", context, status=status)


@lead_required
def corpus_download(request: HtmxHttpRequest, pk: int) -> StreamingHttpResponse:
    """The corpus as an evalTrans file, streamed as it is written: the first bytes leave
    at once however large the corpus, and the whole file is never held in memory."""
    corpus = get_object_or_404(Corpus, pk=pk)
    response = StreamingHttpResponse(
        corpus_export_bytes(corpus=corpus), content_type="application/xml; charset=utf-8"
    )
    return attachment(response, corpus.name, ".evaltrans.xml")
