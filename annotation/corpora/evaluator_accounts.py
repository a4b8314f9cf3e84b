"""The accounts an import makes for the evaluators its file names, and when they go.

An evaluator the file names who has no account gets one: an inactive judge without a
usable password (a lead activates it and gives it one), made in the batch that stores
the first judgment it made. So an account an import made always judges something in the
corpus it was made for; one that judges nothing is what an import that failed, or whose
worker was killed, left behind, and the same rule removes it in either case.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.db import transaction

from annotation.models import User

#: The account of a judgment whose ``<eval>`` names no evaluator: the judgment is kept,
#: and the export writes it back with that name.
ANONYMOUS_EVALUATOR = "anonymous"


def new_evaluator_account(username: str) -> User:
    """The inactive judge account an import makes for an evaluator without one."""
    user = User(username=username, role=User.Role.JUDGE, is_active=False)
    user.set_unusable_password()
    user.save()
    return user


def remove_unused_accounts(made: Iterable[User]) -> None:
    """Delete the accounts of ``made`` (an import's own) that judge nothing: what a
    failed import leaves once its corpus is gone."""
    with transaction.atomic():
        User.objects.filter(pk__in=[u.pk for u in made], judgments__isnull=True).delete()


def remove_unused_import_accounts(*, since: datetime) -> None:
    """Delete the accounts imports made since ``since`` (inactive, no usable password,
    never logged in: :func:`new_evaluator_account`) that judge nothing: what an import
    whose worker was killed leaves once its hidden corpus is gone (a killed process
    runs no cleanup, so the accounts it made are known only by this rule)."""
    with transaction.atomic():
        User.objects.filter(
            is_active=False,
            last_login__isnull=True,
            password__startswith=UNUSABLE_PASSWORD_PREFIX,
            date_joined__gte=since,
            judgments__isnull=True,
        ).delete()
