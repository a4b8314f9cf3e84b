"""Thin views: access control and rendering; the work happens in services and querysets."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.template.response import TemplateResponse


@login_required
def home(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(request, "annotation/home.html", {})
