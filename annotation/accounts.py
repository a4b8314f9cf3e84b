"""Accounts: create or update a login (``manage.py add_user``, ``demo_setup``, the campaign
pages), and the one-time passwords a lead hands over.

No feature package owns accounts (the pages only read ``request.user``), so this service
sits at the app's top level, beside the models it writes.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.auth import forms as auth_forms
from django.contrib.sessions.backends.base import SessionBase

from annotation.models import Corpus, User

#: Letters and digits no one misreads when copying from a screen (no 0/o, 1/l/i).
ONE_TIME_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
#: Four groups of four: about 79 bits, typed once by the judge and then replaced.
ONE_TIME_GROUPS = 4
ONE_TIME_GROUP_LENGTH = 4


def one_time_password() -> str:
    """A random password for a lead to hand over, such as ``k7pm-x3qa-9dfe-hw2t``:
    unguessable, and readable aloud or from a screen."""
    return "-".join(
        "".join(secrets.choice(ONE_TIME_ALPHABET) for _ in range(ONE_TIME_GROUP_LENGTH))
        for _ in range(ONE_TIME_GROUPS)
    )


def user_upsert(
    *,
    username: str,
    password: str,
    role: str,
    corpora: Iterable[Corpus] = (),
    must_change_password: bool = False,
) -> tuple[User, bool]:
    """Create or update an account, make it able to log in, and assign corpora to it.

    ``must_change_password``: the password is a one-time password someone else has seen
    (a lead's page generated it), so the user must replace it at the next login. A
    password given on the command line is the account's own."""
    user, created = User.objects.get_or_create(username=username)
    user.role = role
    user.is_active = True
    user.must_change_password = must_change_password
    user.set_password(password)
    user.save()
    user.assigned_corpora.add(*corpora)
    return user, created


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Django's password change (old password, new one twice, the validators); a changed
    password is the user's own, so a one-time password's obligation ends with it."""

    def save(self, commit: bool = True) -> Any:
        self.user.must_change_password = False
        return super().save(commit)


def user_set_active(*, user: User, active: bool) -> None:
    """Deactivate an account (Django's authentication refuses it from then on, and ends
    its sessions at their next request) or reactivate it; its judgments stay."""
    User.objects.filter(pk=user.pk).update(is_active=active)
    user.is_active = active


def session_of_deactivated_account(session: SessionBase) -> bool:
    """Whether ``session`` was logged in to an account deactivated since.

    Django then finds no user for the session (its ``ModelBackend`` refuses an inactive
    account) but leaves the account's id in it: a judge whose next click finds no user
    is told the account was deactivated, which logging in again cannot mend, rather than
    that the session expired. A session that expired or was logged out holds no id."""
    user_id = session.get(SESSION_KEY)
    return user_id is not None and User.objects.filter(pk=user_id, is_active=False).exists()
