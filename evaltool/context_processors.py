"""Template context shared by every page."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def versions(request: HttpRequest) -> dict[str, str]:
    """The vendored scripts' file names, so no template hard-codes a version."""
    return {
        "htmx_script": f"js/htmx-{settings.HTMX_VERSION}.min.js",
        "idiomorph_script": f"js/idiomorph-ext-{settings.IDIOMORPH_VERSION}.min.js",
    }
