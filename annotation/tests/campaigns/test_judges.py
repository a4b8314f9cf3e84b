"""What a lead does to judges, as services: accounts with one-time passwords, never a
takeover of another account, assignments that keep the judgments."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

from annotation.campaigns.judges import (
    ERR_NOT_A_JUDGE,
    ERR_USERNAME_TAKEN,
    AccountRefused,
    corpus_assign_judges,
    corpus_unassign_judge,
    judge_create,
    judge_give_one_time_password,
)
from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, User
from annotation.tests.factories import JUDGED, SEED_XML, done_judgment

pytestmark = pytest.mark.django_db


def test_a_new_judge_has_a_one_time_password_and_the_corpora_given() -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus

    login = judge_create(username="ana", corpora=[corpus])

    ana = User.objects.get(username="ana")
    assert login.created
    assert login.user == ana
    assert ana.check_password(login.password)
    assert (ana.role, ana.is_active, ana.must_change_password) == ("judge", True, True)
    assert list(Corpus.objects.visible_to(ana)) == [corpus]


@pytest.mark.parametrize("taken", ["ana", "ANA", "Ana"])
def test_an_existing_name_is_refused_in_any_case_and_the_account_is_untouched(
    user_factory: Callable[..., User], taken: str
) -> None:
    ana = user_factory("ana", role=User.Role.LEAD)
    before = ana.password

    with pytest.raises(AccountRefused) as refused:
        judge_create(username=taken)

    ana.refresh_from_db()
    assert str(refused.value) == ERR_USERNAME_TAKEN.format(username=taken)
    assert (ana.password, ana.role) == (before, User.Role.LEAD)
    assert User.objects.count() == 1


def test_a_one_time_password_activates_an_evaluator_the_import_created() -> None:
    corpus_import(source=io.BytesIO(JUDGED), name="judged")
    ab = User.objects.get(username="AB")
    assert not ab.is_active
    assert not ab.has_usable_password()

    login = judge_give_one_time_password(judge=ab)

    ab.refresh_from_db()
    assert not login.created
    assert ab.is_active
    assert ab.must_change_password
    assert ab.check_password(login.password)
    assert ab.judgments.count() == 1  # the imported judgment stays the evaluator's


def test_a_new_one_time_password_replaces_a_forgotten_one(judge: User) -> None:
    first = judge_give_one_time_password(judge=judge).password
    second = judge_give_one_time_password(judge=judge).password

    judge.refresh_from_db()
    assert first != second
    assert judge.check_password(second)
    assert not judge.check_password(first)


@pytest.mark.parametrize("kind", ["lead", "superuser"])
def test_no_one_time_password_for_a_lead_or_a_superuser(
    user_factory: Callable[..., User], kind: str
) -> None:
    other = (
        user_factory("root", role=User.Role.JUDGE, is_superuser=True)
        if kind == "superuser"
        else user_factory("boss", role=User.Role.LEAD)
    )
    before = other.password

    with pytest.raises(AccountRefused, match=ERR_NOT_A_JUDGE.format(username=other.username)):
        judge_give_one_time_password(judge=other)

    other.refresh_from_db()
    assert other.password == before
    assert not other.must_change_password


def test_unassigning_hides_the_corpus_and_keeps_the_judgments(judge: User) -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus
    corpus_assign_judges(corpus=corpus, judges=[judge])
    done_judgment(corpus, judge, "a translator", 0, sser=6)

    corpus_unassign_judge(corpus=corpus, judge=judge)

    assert list(Corpus.objects.visible_to(judge)) == []
    assert judge.judgments.done().count() == 1
    corpus_assign_judges(corpus=corpus, judges=[judge])
    assert list(Corpus.objects.visible_to(judge)) == [corpus]
