"""The queue's one page action: a lead retries a failed job (its pages show the reason
and the button; the command line has ``manage.py jobs --retry``)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from annotation.jobs.runner import retry
from annotation.models import Job
from annotation.web import HtmxHttpRequest, lead_required, page_shown, see_other


@lead_required
@require_POST
def job_retry(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Queue the failed job again and go back to the page that showed it (htmx: that
    page is reloaded, and polls the job's progress again)."""
    retry(get_object_or_404(Job.objects.defer("upload"), pk=pk))
    back = page_shown(request)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = back
        return response
    return see_other(back)
