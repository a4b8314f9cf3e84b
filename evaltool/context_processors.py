"""Template context shared by every page."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def versions(request: HttpRequest) -> dict[str, str]:
    """The vendored htmx file name, so ``base.html`` never hard-codes the version."""
    return {"htmx_script": f"js/htmx-{settings.HTMX_VERSION}.min.js"}
