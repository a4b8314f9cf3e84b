"""Accounts: create or update a login (``manage.py add_user``, ``demo_setup``).

No feature package owns accounts (the pages only read ``request.user``), so this service
sits at the app's top level, beside the models it writes.
"""

from __future__ import annotations

from collections.abc import Iterable

from annotation.models import Corpus, User


def user_upsert(
    *, username: str, password: str, role: str, corpora: Iterable[Corpus] = ()
) -> tuple[User, bool]:
    """Create or update an account, make it able to log in, and assign corpora to it."""
    user, created = User.objects.get_or_create(username=username)
    user.role = role
    user.is_active = True
    user.set_password(password)
    user.save()
    user.assigned_corpora.add(*corpora)
    return user, created
