"""The load bench's crowd: its judges' accounts made in one process, each as
``manage.py add_user --role judge --corpus`` makes one."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from annotation.models import User
from annotation.tests.factories import seed_corpus
from bench.load import ACCOUNTS, CORPUS, PASSWORD, crowd_names

pytestmark = pytest.mark.django_db


def test_the_crowds_accounts_are_active_judges_of_the_corpus_who_log_in_with_the_password():
    corpus = seed_corpus(CORPUS)
    seed_corpus("other")
    script = ACCOUNTS.format(corpus=CORPUS, password=PASSWORD, names=crowd_names(3))
    call_command("shell", command=script)
    judges = User.objects.filter(username__startswith="load-judge-").order_by("username")
    assert [u.username for u in judges] == ["load-judge-1", "load-judge-2", "load-judge-3"]
    for judge in judges:
        assert (judge.role, judge.is_active, judge.must_change_password) == ("judge", True, False)
        assert list(judge.assigned_corpora.all()) == [corpus]
    assert judges[0].check_password(PASSWORD)
    assert not judges[0].check_password(PASSWORD + "x")
