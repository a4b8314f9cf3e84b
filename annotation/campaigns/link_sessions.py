"""The session a per-annotator link opens, and the throttling of links' guesses.

* A link logs its annotator in (Django's ``login``: a new session key, the account's
  own session) and the session remembers the link (:data:`LINK_SESSION_KEY`). While it
  does, every request asks whether the link still opens (:func:`~annotation.campaigns.
  links.link_refusal`: one query, for these sessions only): a link revoked or expired
  ends the sessions it opened at their next request, not at their cookie's expiry.
* A session opened by a link never had the password: the one-time password rule
  (:class:`annotation.web.OneTimePasswordMiddleware`) does not send it to the password
  change, which asks for the password it does not know.
* The pages of a link's URL are kept by no cache and send no Referer with the token
  (:class:`LinkSessionMiddleware`).
* Opening links is throttled as logging in is, by django-axes, in the same counts: an
  unknown token is a failed attempt of the client's address (and of the pseudo-account
  ``link:<hint>``, which no username can be: ``:`` is not allowed in one). At
  ``AXES_FAILURE_LIMIT`` failures the address is locked out, of links and logins alike,
  for ``AXES_COOLOFF_TIME``: the 429 page. django-axes stores the path of each attempt
  and login: the link's path is given to it cut to its hint.
"""

from __future__ import annotations

from collections.abc import Callable

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import login, logout
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.cache import add_never_cache_headers

from annotation.campaigns.link_tokens import (
    ATTEMPT_PREFIX,
    LINK_PATH,
    LINK_URL_NAME,
    link_token_hint,
    redact_link_tokens,
)
from annotation.campaigns.links import link_mark_used, link_refusal
from annotation.models import AnnotatorLink

#: The session's note of the link that opened it (its id). No leading underscore: the
#: judge's finished page reads it, to offer the way back to the campaign.
LINK_SESSION_KEY = "annotator_link"
#: The backend a link logs in with: the account's own rules (an inactive one is refused).
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def link_attempt(request: HttpRequest, token: str) -> dict[str, str]:
    """The credentials django-axes counts an attempt to open ``token`` against, the
    request made ready for it with the path cut to the token's hint (django-axes stores
    and logs the path of every attempt and login)."""
    AxesProxyHandler.update_request(request)  # type: ignore[no-untyped-call]
    request.axes_path_info = redact_link_tokens(request.axes_path_info)  # type: ignore[attr-defined]
    return {"username": ATTEMPT_PREFIX + link_token_hint(token)}


def link_attempts_allowed(request: HttpRequest, credentials: dict[str, str]) -> bool:
    """Whether the client may try a link now (not locked out for failed attempts)."""
    allowed: bool = AxesProxyHandler.is_allowed(request, credentials)
    return allowed


def link_attempt_failed(request: HttpRequest, credentials: dict[str, str]) -> None:
    """Count a failed attempt (an unknown token): django-axes records it, and marks the
    request locked out when it reaches the limit (its middleware then answers 429)."""
    user_login_failed.send(sender=__name__, credentials=credentials, request=request)


def link_log_in(request: HttpRequest, link: AnnotatorLink) -> None:
    """Log ``link``'s annotator in, in a session that remembers the link. Django's login
    starts a new session key (and empties the session first if it was another
    account's); the link is marked used."""
    login(request, link.user, backend=MODEL_BACKEND)
    request.session[LINK_SESSION_KEY] = link.pk
    link_mark_used(link=link)


def session_link(request: HttpRequest) -> AnnotatorLink | None:
    """The link that opened this session, if it was opened by one and is its user's."""
    link_id = request.session.get(LINK_SESSION_KEY)
    if link_id is None or not request.user.is_authenticated:
        return None
    return (
        AnnotatorLink.objects.select_related("user", "campaign")
        .filter(pk=link_id, user_id=request.user.pk)
        .first()
    )


#: The Referrer-Policy of the pages whose URL holds a token (:class:`LinkSessionMiddleware`).
LINK_REFERRER_POLICY = "strict-origin"


class LinkSessionMiddleware:
    """Two rules of the link's URLs and sessions, for every request:

    * The answer to a request of a link's URL (``/a/…``, its token in the path) is kept
      by no cache (``no-store``) and sends ``Referrer-Policy: strict-origin`` (the
      site's own is ``same-origin``): what the page then requests (its style sheet, the
      POST of "continue", a link followed) names this site only, never the path with
      the token, neither to another site nor in our own access log's Referer column.
      Here rather than in the view, as django-axes' middleware may replace the view's
      answer with its lockout page.
    * A session a link opened ends once the link no longer opens (revoked, expired, its
      account no longer a judge's): logged out, and sent to the page that says so (an
      htmx request with ``HX-Redirect``, as :func:`annotation.web.login_required` does;
      a POST is told its change was not saved). Other sessions cost nothing."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(LINK_PATH):
            add_never_cache_headers(response)
            response["Referrer-Policy"] = LINK_REFERRER_POLICY
        return response

    def process_view(
        self, request: HttpRequest, view: Callable[..., HttpResponse], *args: object
    ) -> HttpResponse | None:
        """The answer to a session whose link ended, or None for any other. A link's own
        URL is let through: a new link opens for a session whose old one ended."""
        if request.session.get(LINK_SESSION_KEY) is None or not request.user.is_authenticated:
            return None
        match = request.resolver_match
        if match is not None and match.url_name == LINK_URL_NAME:
            return None
        link = session_link(request)
        if link is not None and link_refusal(link) is None:
            return None
        logout(request)
        ended = reverse("annotation_link_ended")
        if request.method == "POST":
            ended += "?unsaved=1"
        if getattr(request, "htmx", False):
            return HttpResponse(status=401, headers={"HX-Redirect": ended})
        return HttpResponseRedirect(ended)
