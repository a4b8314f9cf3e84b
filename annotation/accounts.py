"""Accounts: create or update a login (``manage.py add_user``, ``demo_setup``, the campaign
pages), and the one-time passwords a lead hands over.

No feature package owns accounts (the pages only read ``request.user``), so this service
sits at the app's top level, beside the models it writes.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.hashers import PBKDF2PasswordHasher, get_hasher, make_password
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


#: PBKDF2 iterations of a one-time password's hash, where Django's default hasher (PBKDF2,
#: a million iterations: a quarter of a second) would make a list of 200 accounts take a
#: minute. Stretching slows the search of a password a person chose; a one-time password
#: is 79 random bits, which no search finds however fast each try. Django hashes it again
#: with its own iterations at the first login (the hasher's ``must_update``), and the
#: judge replaces it then anyway.
ONE_TIME_PBKDF2_ITERATIONS = 1_000


def one_time_password_hash(password: str) -> str:
    """The stored form of a one-time password: the preferred hasher's, with
    :data:`ONE_TIME_PBKDF2_ITERATIONS` where that is PBKDF2 (Django's default); any other
    preferred hasher as configured."""
    hasher = get_hasher()
    if isinstance(hasher, PBKDF2PasswordHasher):
        return hasher.encode(password, hasher.salt(), iterations=ONE_TIME_PBKDF2_ITERATIONS)
    return make_password(password)


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
    if must_change_password:
        user.password = one_time_password_hash(password)
    else:
        user.set_password(password)
    user.save()
    user.assigned_corpora.add(*corpora)
    return user, created


def users_create_with_one_time_passwords(
    *, accounts: Sequence[tuple[str, str]], role: str, corpora: Iterable[Corpus] = ()
) -> list[tuple[User, str]]:
    """Create the accounts ``accounts`` names ((username, email) each) at once, active,
    each with a one-time password, and assign ``corpora`` to every one: what
    :func:`user_upsert` does for one account a lead's page makes, for a list (two
    inserts, whatever its length). Each account with its password, in ``accounts``'
    order. Creates only: a name taken makes the database refuse the whole insert
    (``IntegrityError``); the caller checks the names first."""
    corpora = list(corpora)
    passwords = [one_time_password() for _ in accounts]
    users = User.objects.bulk_create(
        User(
            username=username,
            email=email,
            role=role,
            is_active=True,
            must_change_password=True,
            password=one_time_password_hash(password),
        )
        for (username, email), password in zip(accounts, passwords, strict=True)
    )
    assigned = User.assigned_corpora.through
    assigned.objects.bulk_create(
        assigned(user_id=user.pk, corpus_id=corpus.pk) for user in users for corpus in corpora
    )
    return list(zip(users, passwords, strict=True))


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
