"""The corpora pages: home (every corpus a user may see, with progress), upload, download.

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
from annotation.corpora.imports import ImportRefused, corpus_import
from annotation.models import Corpus
from annotation.web import HtmxHttpRequest, attachment, lead_required, login_required


@login_required
def home(request: HtmxHttpRequest) -> TemplateResponse:
    corpora = Corpus.objects.visible_to(request.user).with_progress(request.user)
    return TemplateResponse(request, "corpora/home.html", {"corpora": corpora})


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
            )
        except ImportRefused as exc:
            error = str(exc)
        else:
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
