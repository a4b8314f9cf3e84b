"""Per-annotator links (issue 37): a secret URL per annotator of a campaign that opens
that annotator's queue without a password, revocable and expiring, with a completion
code at the end for the crowd platform the annotator came from.

Services (keyword-only, typed); the web side (the lead's pages, the link's own URL, the
session a link opens) is :mod:`annotation.campaigns.link_views` and
:mod:`annotation.campaigns.link_sessions`; the token's own rules (its hash, its hint,
its redaction in logs) are :mod:`annotation.campaigns.link_tokens`'.

* A link is made for a judge account that annotates the campaign (a judge of one of its
  corpora, able to log in): never for a lead's or a superuser's account, so a link can
  never open a lead's pages.
* A link opens while it is neither revoked nor expired and its account is still an
  active judge's (:func:`link_refusal`, the one rule, asked again at every request of
  the session it opened).
* Where a link leads (:func:`link_next`): in a campaign that splits its work, the
  annotator's next batch (:func:`~annotation.campaigns.dealing.deal_next`); otherwise
  the first corpus of the campaign they judge with candidates left. When nothing is left,
  the finished page shows the link's completion code, drawn the first time it is shown
  and the same ever after (:func:`link_completion_code`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, F, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from annotation.campaigns.dealing import deal_next
from annotation.campaigns.link_tokens import (
    LINK_URL_NAME,
    TOKEN_BYTES,
    link_token_hash,
    link_token_hint,
    new_completion_code,
    new_link_token,
)
from annotation.models import AnnotatorLink, Campaign, Corpus, Judgment, User

#: How long a link opens, unless the lead says otherwise (days).
LINK_DAYS_DEFAULT = 30
LINK_DAYS_MAX = 365
#: A token's length (URL-safe base 64 of :data:`TOKEN_BYTES` bytes, no padding).
TOKEN_LENGTH = (TOKEN_BYTES * 4 + 2) // 3

ERR_NO_ANNOTATOR = "choose the annotators to give a link to, or all of them"
ERR_LEAD = "{username!r} is a lead's account: a link opens a judge's queue only"
ERR_INACTIVE = (
    "{username!r} cannot log in (not activated, or deactivated): activate the account on "
    "the Judges page first"
)
ERR_NOT_IN_CAMPAIGN = (
    "{username!r} judges no corpus of the campaign {campaign!r}: assign them a corpus first"
)


class LinkRefused(ValueError):
    """The links cannot be made as asked (the reasons are the message)."""


class Refusal(enum.Enum):
    """Why a link does not open (:func:`link_refusal`)."""

    UNKNOWN = "unknown"
    REVOKED = "revoked"
    EXPIRED = "expired"
    NO_ACCOUNT = "no-account"  # no longer an active judge's (deactivated, or made a lead)

    @property
    def status(self) -> int:
        """A link never made is not found (404); one that has ended is gone (410)."""
        return 404 if self is Refusal.UNKNOWN else 410


@dataclass(frozen=True)
class NewLink:
    """A link just made, with its token: shown to the lead once, never stored."""

    link: AnnotatorLink
    token: str

    @property
    def path(self) -> str:
        return reverse(LINK_URL_NAME, args=[self.token])


def campaign_annotators(campaign: Campaign) -> QuerySet[User]:
    """Who may get a link of ``campaign``: its annotators (:meth:`~annotation.users.
    UserQuerySet.annotating`) with an active judge account. One query."""
    annotators: QuerySet[User] = (
        User.objects.annotating(campaign.pk).judges().filter(is_active=True)
    )
    return annotators


def _refusals(campaign: Campaign, users: Sequence[User]) -> list[str]:
    """Why each of ``users`` who may not get a link of ``campaign`` may not."""
    allowed = set(
        campaign_annotators(campaign)
        .filter(pk__in=[u.pk for u in users])
        .values_list("pk", flat=True)
    )
    reasons = []
    for user in users:
        if user.pk in allowed:
            continue
        if user.is_lead:
            reasons.append(ERR_LEAD.format(username=user.username))
        elif not user.is_active:
            reasons.append(ERR_INACTIVE.format(username=user.username))
        else:
            reasons.append(
                ERR_NOT_IN_CAMPAIGN.format(username=user.username, campaign=campaign.name)
            )
    return reasons


@transaction.atomic
def links_create(
    *, campaign: Campaign, users: Iterable[User], days: int = LINK_DAYS_DEFAULT
) -> list[NewLink]:
    """A new link for each of ``users`` in ``campaign``, opening for ``days`` days. Every
    one of them must annotate the campaign (:func:`campaign_annotators`), or nothing is
    made (a :class:`LinkRefused` naming each one refused). A link made before stays as it
    is: revoke it to end it."""
    users = list(users)
    if not users:
        raise LinkRefused(ERR_NO_ANNOTATOR)
    if not 1 <= days <= LINK_DAYS_MAX:
        raise LinkRefused(f"days: {days} is not between 1 and {LINK_DAYS_MAX}")
    reasons = _refusals(campaign, users)
    if reasons:
        raise LinkRefused("; ".join(reasons))
    expires = timezone.now() + timedelta(days=days)
    tokens = [new_link_token() for _ in users]
    links = AnnotatorLink.objects.bulk_create(
        AnnotatorLink(
            campaign=campaign,
            user=user,
            token_hash=link_token_hash(token),
            hint=link_token_hint(token),
            expires_at=expires,
        )
        for user, token in zip(users, tokens, strict=True)
    )
    return [NewLink(link=link, token=token) for link, token in zip(links, tokens, strict=True)]


def campaign_links(campaign: Campaign) -> QuerySet[AnnotatorLink]:
    """The campaign's links with their accounts, newest first per annotator. One query."""
    return (
        AnnotatorLink.objects.filter(campaign_id=campaign.pk)
        .select_related("user")
        .order_by("user__username", "-created_at", "-pk")
    )


def campaigns_with_links() -> QuerySet[Campaign]:
    """Every campaign, with ``n_links``: its links that open now (the judges page lists
    them, each linking to its links page). One query."""
    now = timezone.now()
    opening = Q(links__revoked_at__isnull=True, links__expires_at__gt=now)
    return Campaign.objects.annotate(n_links=Count("links", filter=opening)).order_by("name")


def link_revoke(*, link: AnnotatorLink) -> bool:
    """End ``link`` now: it opens nothing more, and the sessions it opened end at their
    next request (:class:`~annotation.campaigns.link_sessions.LinkSessionMiddleware`).
    False if it was revoked already (the first revocation's time stays)."""
    now = timezone.now()
    revoked = AnnotatorLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(
        revoked_at=now
    )
    if revoked:
        link.revoked_at = now
    return bool(revoked)


def links_revoke_all(*, campaign: Campaign) -> int:
    """Revoke every link of ``campaign`` not yet revoked; how many were."""
    return AnnotatorLink.objects.filter(campaign_id=campaign.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def link_for_token(token: str) -> AnnotatorLink | None:
    """The link whose token is ``token`` (found by its hash), with its account and
    campaign; None for any other string. One query, none for a string that is no token."""
    if len(token) != TOKEN_LENGTH:
        return None
    return (
        AnnotatorLink.objects.select_related("user", "campaign")
        .filter(token_hash=link_token_hash(token))
        .first()
    )


def link_refusal(link: AnnotatorLink | None, now: datetime | None = None) -> Refusal | None:
    """Why ``link`` opens nothing (:class:`Refusal`), or None when it opens its
    annotator's queue: made, not revoked, not expired, and its account still an active
    judge's (an account made a lead since would give a link a lead's pages)."""
    if link is None:
        return Refusal.UNKNOWN
    if link.revoked_at is not None:
        return Refusal.REVOKED
    if link.expires_at <= (now or timezone.now()):
        return Refusal.EXPIRED
    user = link.user
    if not user.is_active or user.is_lead:
        return Refusal.NO_ACCOUNT
    return None


def link_state(link: AnnotatorLink, now: datetime) -> str:
    """What the lead's list says of ``link``: revoked, expired, or active."""
    if link.revoked_at is not None:
        return "revoked"
    if link.expires_at <= now:
        return "expired"
    return "active"


def link_mark_used(*, link: AnnotatorLink) -> None:
    """Note that ``link`` was opened just now (the lead's list shows when)."""
    now = timezone.now()
    AnnotatorLink.objects.filter(pk=link.pk).update(last_used_at=now)
    link.last_used_at = now


class Next(enum.Enum):
    """What a link's annotator has left when there is no item to go to."""

    FINISHED = "finished"  # everything they could get is done: the completion code
    NOTHING_DONE = "nothing-done"  # nothing left for them, and nothing done: no code
    NOT_ASSIGNED = "not-assigned"  # no corpus of the campaign is theirs (any more)


def link_next(*, link: AnnotatorLink) -> str | Next:
    """Where ``link``'s annotator goes next: the URL of their queue in the corpus that
    has their next item, or why there is none (:class:`Next`).

    In a campaign that splits the work, the corpus of the batch they hold or are dealt
    now (:func:`~annotation.campaigns.dealing.deal_next`); otherwise the first corpus of
    the campaign (by name) they judge with candidates left. A few queries whatever the
    corpora's sizes."""
    campaign, user = link.campaign, link.user
    theirs = Corpus.objects.filter(campaign_id=campaign.pk, judges=user, archived=False)
    if campaign.splits_work:
        task = deal_next(user=user, campaign=campaign)
        corpus_id = None if task is None else task.corpus_id
    else:
        corpus_id = (
            theirs.with_progress(user)
            .filter(Q(n_done__lt=F("n_candidates")))
            .order_by("name")
            .values_list("pk", flat=True)
            .first()
        )
    if corpus_id is not None:
        return reverse("annotation:judge_continue", args=[corpus_id])
    if not theirs.exists():
        return Next.NOT_ASSIGNED
    done = Judgment.objects.counted().filter(
        evaluator_id=user.pk, target__translator__corpus__campaign_id=campaign.pk
    )
    return Next.FINISHED if done.exists() else Next.NOTHING_DONE


def link_completion_code(*, link: AnnotatorLink) -> str:
    """``link``'s completion code: drawn the first time it is asked for and stored, so
    the page shows the same code however often it is opened (and two requests at once
    store one: the second finds the first's)."""
    if not link.completion_code:
        AnnotatorLink.objects.filter(pk=link.pk, completion_code="").update(
            completion_code=new_completion_code()
        )
        link.refresh_from_db(fields=["completion_code"])
    return link.completion_code
