"""Login throttling's questions: who is asking (the client address and the username
failures are counted against), and what a locked-out visitor is told."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse


def client_ip(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or behind a proxy (``EVALTOOL_BEHIND_PROXY``)
    the address the proxy appended last to ``X-Forwarded-For``; the proxy's own address
    would otherwise lock every user out together. Only the last entry is the proxy's
    word; earlier ones are whatever the client sent."""
    if settings.BEHIND_PROXY:
        forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return str(request.META.get("REMOTE_ADDR", ""))


#: The width of django-axes' username column (``AccessAttempt``, ``AccessFailureLog``).
AXES_USERNAME_WIDTH = 255


def client_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str | None:
    """The username a login attempt is counted against: the one typed, cut to the width
    of django-axes' column. Django's login form does not enforce the username's length,
    and a longer one made PostgreSQL refuse the attempt's row (a 500, the attempt not
    counted); cut, every attempt is counted (names sharing their first 255 characters
    share a count, which only locks an impossible account: usernames have at most 150)."""
    field = settings.AXES_USERNAME_FORM_FIELD
    if credentials:
        name = credentials.get(field)
    else:
        name = getattr(request, "data", request.POST).get(field)
    return None if name is None else str(name)[:AXES_USERNAME_WIDTH]


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """429 with the login page's look and the wait in whole minutes: "too many attempts,
    wait 15 minutes", not a bare status code."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    username = (credentials or {}).get("username", "") if isinstance(credentials, dict) else ""
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": minutes,
        "username": username,
    }
    response = TemplateResponse(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(minutes * 60)
    return response.render()
