"""The account model, apart from the corpus chain of :mod:`annotation.models` (which
re-exports it: ``from annotation.models import User``): accounts have no link into the
chain, and the auth side of the schema reads best on its own."""

from __future__ import annotations

from typing import ClassVar

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models import Q


class UserQuerySet(models.QuerySet["User"]):
    def judges(self) -> UserQuerySet:
        """Judge accounts: the ones a lead manages (creates, activates, assigns). Never a
        lead's or a superuser's account, so no lead can take over another's login."""
        return self.filter(role=User.Role.JUDGE, is_superuser=False)

    def annotating(self, campaign_id: int) -> UserQuerySet:
        """A campaign's annotators: the accounts assigned to one of its corpora not
        archived (``Corpus.judges``; a campaign's annotators are the union of its corpora's
        judges), by username. The one rule the rules page, the links and dealing read."""
        return (
            self.filter(assigned_corpora__campaign_id=campaign_id, assigned_corpora__archived=False)
            .distinct()
            .order_by("username")
        )

    def leads(self) -> UserQuerySet:
        """Active accounts that see every corpus (``User.is_lead``)."""
        return self.filter(Q(role=User.Role.LEAD) | Q(is_superuser=True), is_active=True)

    def to_ask(self) -> UserQuerySet:
        """Whom a judge with nothing to do should ask: the active leads named on some
        corpus (``Corpus.leads``), or every active lead while no corpus names one."""
        named = self.leads().filter(led_corpora__isnull=False).distinct()
        return named if named.exists() else self.leads()

    def to_ask_about(self, corpus_id: int) -> UserQuerySet:
        """Whom a judge should ask about corpus ``corpus_id`` (more work in it, say): its
        active leads (``Corpus.leads``), or :meth:`to_ask` where it names none."""
        named = self.leads().filter(led_corpora=corpus_id)
        return named if named.exists() else self.to_ask()


class EvaltoolUserManager(UserManager.from_queryset(UserQuerySet)):  # type: ignore[misc]
    """Django's ``UserManager`` (``create_user``, …) with :class:`UserQuerySet`'s reads."""


class User(AbstractUser):
    """An account: a *judge* annotates the corpora assigned to it; a *lead* sees everything.

    Evaluators named in an imported file become inactive judges with no usable password,
    so they cannot log in until a lead activates them (the campaign pages, or
    ``manage.py add_user``). A password a lead's page generated is a one-time password
    (``must_change_password``): the lead has seen it, so the judge must choose their own
    before anything else (:class:`annotation.web.OneTimePasswordMiddleware`).
    """

    class Role(models.TextChoices):
        JUDGE = "judge", "Judge"
        LEAD = "lead", "Lead"

    role = models.CharField(max_length=10, choices=Role.choices, default=Role.JUDGE)
    must_change_password = models.BooleanField(
        default=False,
        help_text="The password was generated for a lead to hand over: change it at login.",
    )

    objects: ClassVar[EvaltoolUserManager] = EvaltoolUserManager()

    @property
    def is_lead(self) -> bool:
        return self.role == self.Role.LEAD or self.is_superuser
