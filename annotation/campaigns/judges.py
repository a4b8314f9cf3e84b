"""What a lead does to judges: create an account, give it a one-time password (which
activates an evaluator an import created), assign it to a corpus and take it off.

Services (keyword-only, typed); the account itself is written by
:func:`annotation.accounts.user_upsert`, the one writer of logins, as ``manage.py
add_user`` writes them. Only judge accounts are touched (``User.objects.judges()``):
a lead's page can never set another lead's or a superuser's password.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models.functions import Lower

from annotation.accounts import one_time_password, user_upsert
from annotation.campaigns.dealing import tasks_back_to_pool
from annotation.changes import judgments_changed, who_counts_changed
from annotation.models import Corpus, Judgment, User

ERR_USERNAME_TAKEN = "an account named {username!r} exists already: choose another username"
ERR_NOT_A_JUDGE = "{username!r} is not a judge account: a lead manages judges only"


class AccountRefused(ValueError):
    """The account cannot be created or changed as asked (the reason is the message)."""


@dataclass(frozen=True)
class OneTimeLogin:
    """What the lead hands over: shown once, on the page that answers the action; the
    judge replaces the password at the first login (``User.must_change_password``)."""

    user: User
    password: str
    created: bool


def username_taken(username: str) -> bool:
    """Whether an account of this name exists, ignoring case as Django's own user
    creation form does ("Ana" and "ana" would be two judges no one tells apart)."""
    taken: bool = User.objects.filter(username__iexact=username).exists()
    return taken


#: Names a query looks up at once (SQLite's default limit of parameters is far above).
_NAMES_PER_QUERY = 500


def usernames_taken(usernames: Sequence[str]) -> set[str]:
    """Those of ``usernames`` that an account has, in any case (:func:`username_taken`'s
    rule, for a list: one query per 500 names), as written in ``usernames``."""
    taken: set[str] = set()
    for start in range(0, len(usernames), _NAMES_PER_QUERY):
        part = usernames[start : start + _NAMES_PER_QUERY]
        folded = set(
            User.objects.annotate(folded=Lower("username"))
            .filter(folded__in=[u.lower() for u in part])
            .values_list("folded", flat=True)
        )
        taken.update(u for u in part if u.lower() in folded)
    return taken


@transaction.atomic
def judge_create(*, username: str, corpora: Iterable[Corpus] = ()) -> OneTimeLogin:
    """A new judge account with a one-time password, assigned to ``corpora``. An
    existing name is refused, never updated: that would reset someone's password."""
    if username_taken(username):
        raise AccountRefused(ERR_USERNAME_TAKEN.format(username=username))
    password = one_time_password()
    user, created = user_upsert(
        username=username,
        password=password,
        role=User.Role.JUDGE,
        corpora=corpora,
        must_change_password=True,
    )
    if not created:  # created meanwhile by another request: undo the update above
        raise AccountRefused(ERR_USERNAME_TAKEN.format(username=username))
    return OneTimeLogin(user=user, password=password, created=True)


def judge_give_one_time_password(*, judge: User) -> OneTimeLogin:
    """A new one-time password for a judge account, which makes it able to log in: how an
    evaluator an import created (inactive, no usable password) is activated, and how a
    judge who forgot their password gets back in."""
    if not User.objects.judges().filter(pk=judge.pk).exists():
        raise AccountRefused(ERR_NOT_A_JUDGE.format(username=judge.username))
    password = one_time_password()
    user, _ = user_upsert(
        username=judge.username,
        password=password,
        role=User.Role.JUDGE,
        must_change_password=True,
    )
    return OneTimeLogin(user=user, password=password, created=False)


def corpus_assign_judges(*, corpus: Corpus, judges: Iterable[User]) -> None:
    """Give ``judges`` the corpus: it appears on their home page, every candidate to judge."""
    corpus.judges.add(*judges)


def corpus_unassign_judge(*, corpus: Corpus, judge: User) -> None:
    """Take the corpus off a judge's home page. Their judgments stay and still count in
    every figure; assigned again, the judge continues where they stopped."""
    corpus.judges.remove(judge)


ERR_NOT_LEFT_OUT = "{username!r} is not left out of {corpus!r}: leave them out first"
ERR_JUDGE_NAME = "type the judge's name, {username!r}, to confirm"


@transaction.atomic
def corpus_leave_out_judge(*, corpus: Corpus, judge: User, left_out: bool) -> None:
    """Leave ``judge`` out of every figure of ``corpus`` (or count them again): their
    judgments stay stored, exported and theirs to continue; only the figures change
    (:func:`~annotation.changes.who_counts_changed`)."""
    if left_out:
        corpus.excluded_judges.add(judge)
    else:
        corpus.excluded_judges.remove(judge)
    who_counts_changed(corpus.pk)


@transaction.atomic
def corpus_set_aside_judge(*, corpus: Corpus, judge: User) -> None:
    """The first step of discarding a judge's work in ``corpus`` (a wrong assignment, a
    judge who clicked through): unassigned and left out of every figure, every judgment
    kept, so that the lead can still restore it (:func:`corpus_leave_out_judge`) until
    the second step, :func:`corpus_discard_judgments`, deletes it."""
    corpus.judges.remove(judge)
    corpus_leave_out_judge(corpus=corpus, judge=judge, left_out=True)


@transaction.atomic
def corpus_discard_judgments(*, corpus: Corpus, judge: User, typed: str) -> int:
    """Delete for good every judgment (control items included, with their history) of
    ``judge`` in ``corpus``: only once they are set aside (left out of the figures) and
    the judge's name is typed — the second confirmation. Returns how many went. The
    batches they were made in go back to the pool (:func:`~annotation.campaigns.dealing.
    tasks_back_to_pool`): what the judge did there is to do again, by someone else."""
    if not corpus.excluded_judges.filter(pk=judge.pk).exists():
        raise AccountRefused(ERR_NOT_LEFT_OUT.format(username=judge.username, corpus=corpus.name))
    if typed.strip() != judge.username:
        raise AccountRefused(ERR_JUDGE_NAME.format(username=judge.username))
    theirs = Judgment.objects.of_corpus(corpus.pk).filter(evaluator=judge)
    batches = set(theirs.filter(task__isnull=False).values_list("task_id", flat=True))
    _, deleted = theirs.delete()
    tasks_back_to_pool(batches)
    corpus.excluded_judges.remove(judge)
    judgments_changed(corpus.pk)
    return deleted.get(Judgment._meta.label, 0)
