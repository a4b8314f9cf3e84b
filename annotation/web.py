"""The web rules every view shares: who may see a page, and how htmx requests are told.

* htmx requests are recognised once, by django-htmx's middleware (``request.htmx``);
  no view reads the ``HX-Request`` header itself.
* An anonymous visitor goes to the login page. For an htmx request that must be a full
  navigation (``HX-Redirect``), never a login form swapped into a fragment of the page;
  the page it returns to is the one the browser shows (``HX-Current-URL``), not the
  fragment's URL.
* Lead-only pages answer 404 to everyone else: judges need not know they exist. The
  check comes before any argument is read, so a judge learns nothing from a 400 either.
* After a POST, 303 See Other, which browsers and htmx's XMLHttpRequest follow with a GET.
* A bad parameter is a 400 that says which parameter and why: views raise ``BadRequest``
  with that sentence, and :func:`bad_request` shows it.
* A locked, down or restarting database is a 503, never a 500: "not saved, retry" for a
  write, the 503 page for a read (:func:`database_unavailable`).
* A user logged in with a one-time password (a lead generated it, so the lead knows it)
  sees nothing but the page that replaces it: :class:`OneTimePasswordMiddleware`.
"""

from __future__ import annotations

import re
import sqlite3
import sys
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import BadRequest
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views import defaults

from annotation.accounts import session_of_deactivated_account
from annotation.campaigns.link_sessions import LINK_SESSION_KEY

if TYPE_CHECKING:
    from django_htmx.middleware import HtmxDetails

    from annotation.models import User


class HtmxHttpRequest(HttpRequest):
    """The request our views receive: django-htmx's ``htmx`` flag and our ``User``."""

    htmx: HtmxDetails
    user: User


View = Callable[..., HttpResponseBase]
R = TypeVar("R", bound=HttpResponseBase)


def login_required(view: View) -> View:
    """Django's ``login_required``, but an htmx request gets ``HX-Redirect`` to the login
    page (status 401) so the login form is never swapped into a fragment.

    After login the browser returns to the page it showed, never to a POST-only URL. A
    POST that found the session expired is a change that was not saved: the login page
    says so (``unsaved=1``), so the judge knows to make it again. A session whose account
    was deactivated since (:func:`~annotation.accounts.session_of_deactivated_account`)
    is told that instead (``deactivated=1``): logging in again would not help."""

    @wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        location = redirect_to_login(page_shown(request))["Location"]
        if request.method == "POST":
            location += "&unsaved=1"
        if session_of_deactivated_account(request.session):
            location += "&deactivated=1"
        if request.htmx:
            return HttpResponse(status=401, headers={"HX-Redirect": location})
        return HttpResponseRedirect(location)

    return wrapper


def page_shown(request: HtmxHttpRequest) -> str:
    """The page the browser showed when it sent ``request``: the request's own URL for a
    GET; for a POST, the page htmx names (``HX-Current-URL``) or the Referer on this host,
    else the home page."""
    if request.method != "POST":
        return request.get_full_path()
    shown = request.htmx.current_url or request.headers.get("Referer", "")
    parts = urlsplit(shown)
    if parts.netloc and parts.netloc != request.get_host():
        return "/"
    return urlunsplit(("", "", parts.path or "/", parts.query, ""))


def lead_required(view: View) -> View:
    """:func:`login_required`, then 404 for anyone who is not a lead."""

    @wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_lead:
            raise Http404("No such page.")
        return view(request, *args, **kwargs)

    return login_required(wrapper)


def see_other(url: str) -> HttpResponseRedirect:
    """303: after a POST, the browser (and htmx's XMLHttpRequest) follows with a GET."""
    return HttpResponseRedirect(url, status=303)


def attachment(response: R, stem: str, suffix: str) -> R:
    """Mark ``response`` as a download named ``stem`` + ``suffix``, the stem reduced to
    letters, digits, ``-``, ``_`` and ``.`` (others become ``_``): names come from
    uploaded corpora, and a filename must never carry a path, a quote or a line break."""
    safe = re.sub(r"[^\w.-]+", "_", stem, flags=re.ASCII).strip("._") or "download"
    response["Content-Disposition"] = content_disposition_header(True, safe + suffix)
    return response


ERR_DATABASE_BUSY = (
    "The database is busy (another write holds it): your change was not saved. Retry in a moment."
)
ERR_DATABASE_UNREACHABLE = (
    "The database cannot be reached (it may be restarting): your change was not saved. "
    "Retry in a moment."
)
#: What a page that could not be read says (the 503 page).
ERR_PAGE_UNAVAILABLE = (
    "The database cannot be reached at the moment (it may be busy or restarting): "
    "nothing was changed. Reload the page in a moment."
)
#: SQLite's errors that pass (a lock held too long, the file briefly unreadable); its
#: other OperationalErrors (a missing table, bad SQL) are bugs, and stay 500s.
_SQLITE_TRANSIENT = ("locked", "unable to open database file", "disk i/o error")


def database_trouble(exception: BaseException | None) -> str | None:
    """What to tell a user whose change hit a database that is locked, down or
    restarting (the change was not saved, and retrying will do), or None for any other
    error. PostgreSQL reports a lost, refused or dropped connection as Django's
    ``OperationalError`` or ``InterfaceError`` (its SQL mistakes are other classes)."""
    if not isinstance(exception, OperationalError | InterfaceError):
        return None
    message = str(exception).lower()
    if "database is locked" in message:
        return ERR_DATABASE_BUSY
    if isinstance(exception.__cause__, sqlite3.Error) and not any(
        transient in message for transient in _SQLITE_TRANSIENT
    ):
        return None
    return ERR_DATABASE_UNREACHABLE


def database_unavailable(
    request: HttpRequest, exception: BaseException | None
) -> HttpResponse | None:
    """503 with ``Retry-After`` for a request that met :func:`database_trouble`, never a
    500: a write is told "not saved, retry" in plain text (the judge's page shows it with
    its Retry button), a read gets the 503 page. Neither touches the database; None for
    any other error."""
    reason = database_trouble(exception)
    if reason is None:
        return None
    if request.method in ("GET", "HEAD"):
        page = render_to_string("503.html", {"reason": ERR_PAGE_UNAVAILABLE})
        response = HttpResponse(page, status=503)
    else:
        response = HttpResponse(reason, status=503, content_type="text/plain")
    response["Retry-After"] = "2"
    return response


class DatabaseBusyMiddleware:
    """A view that met a locked, down or restarting database answers 503
    (:func:`database_unavailable`); the same errors met before the view (loading the
    session, counting a login) reach :func:`server_error`, which answers alike."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return database_unavailable(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page (``handler500``), unless the error was the database's passing trouble
    (:func:`database_unavailable`): Django calls this for an exception anywhere in the
    middleware too, while that exception is being handled."""
    response = database_unavailable(request, sys.exception())
    return response if response is not None else defaults.server_error(request)


class OneTimePasswordMiddleware:
    """A user whose password is a one-time password (``User.must_change_password``) is
    sent to the password change page from any other page but logging out (an htmx
    request with ``HX-Redirect``, as :func:`login_required` does): the judge chooses a
    password only they know before judging anything under their name. The flag is read
    with the user the session loads, so the rule costs no query. A session a
    per-annotator link opened is left alone: it never had the password, which the
    change asks for (:mod:`annotation.campaigns.link_sessions`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not user.must_change_password:
            return self.get_response(request)
        if request.session.get(LINK_SESSION_KEY) is not None:
            return self.get_response(request)
        change = reverse("password_change")
        if request.path in (change, reverse("logout")):
            return self.get_response(request)
        if getattr(request, "htmx", False):
            return HttpResponse(status=401, headers={"HX-Redirect": change})
        return HttpResponseRedirect(change)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 400 page (``handler400``): our views' ``BadRequest`` messages name the parameter
    and the reason; anything else Django refuses gets a generic sentence."""
    reason = (
        str(exception)
        if isinstance(exception, BadRequest) and str(exception)
        else "The request could not be understood."
    )
    return render(request, "400.html", {"reason": reason}, status=400)
