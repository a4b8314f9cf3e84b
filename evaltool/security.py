"""Login throttling's questions: who is asking (the client address and the username
failures are counted against), and what a locked-out visitor is told."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from annotation.campaigns.link_tokens import ATTEMPT_PREFIX
from evaltool.env import Network, proxy_networks


def client_ip(request: HttpRequest) -> str:
    """The client's address, that login failures are counted against: ``REMOTE_ADDR``.
    Behind a proxy (``EVALTOOL_BEHIND_PROXY``) whose address that is (one of
    ``FORWARDED_ALLOW_IPS``), the right-most address of ``X-Forwarded-For`` that is no
    proxy's: each proxy appends the address it was reached from, so that entry is the
    word of the proxy the client reached; the entries left of it are whatever the client
    sent. Any other peer is its own address, whatever it sends: believed from anyone,
    the header would let a client name a new address with every attempt and never be
    locked out. An entry that is no address counts as "" (one count for all of them)."""
    peer = str(request.META.get("REMOTE_ADDR", ""))
    if not settings.BEHIND_PROXY:
        return peer
    proxies = _proxies(settings.FORWARDED_ALLOW_IPS)
    if proxies is not None and not _among(peer, proxies):
        return peer
    forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    if not hops:
        return peer
    for hop in reversed(hops):
        if proxies is None or not _among(hop, proxies):  # with "*", only the last is known
            return _address(hop)
    return _address(hops[0])  # every hop a proxy: the first one was reached from outside


@lru_cache(maxsize=8)
def _proxies(allowed: str) -> tuple[Network, ...] | None:
    return proxy_networks(allowed)


def _address(text: str) -> str:
    """``text`` as the address it is ("" if none), written as django-axes stores it."""
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return ""


def _among(text: str, networks: tuple[Network, ...]) -> bool:
    """Whether address ``text`` is in one of ``networks`` (an IPv4 address as an IPv6
    socket writes it, ``::ffff:10.0.0.1``, as itself)."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


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
    wait 15 minutes", not a bare status code. Attempts to open per-annotator links
    (:mod:`annotation.campaigns.link_sessions`) are named no account: they say so."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    username = (credentials or {}).get("username", "") if isinstance(credentials, dict) else ""
    link = username.startswith(ATTEMPT_PREFIX)  # per-annotator links' attempts: no account
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": minutes,
        "username": "" if link else username,
        "link": link,
    }
    response = TemplateResponse(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(minutes * 60)
    return response.render()


class AccountScopedAxesHandler(AxesDatabaseHandler):
    """django-axes' database handler, but a successful login clears the failures of its
    own account only (``AXES_RESET_ON_SUCCESS``). django-axes clears every failure that
    matches one of the lockout parameters, the address among them: four wrong passwords
    for a judge, one good login as an account the attacker owns from the same address,
    and the judge's count was back to nought, again and again (issue 36). The address's
    own count is left to the cool-off, as a success proves nothing about the others."""

    def reset_user_attempts(self, request: HttpRequest, credentials: Any = None) -> int:
        username = get_client_username(request, credentials)
        if not username:
            return 0
        count: int = self.reset_attempts(username=username)
        return count
