"""The Django admin (superusers only): a judgment changed or deleted there moves its
corpus's judgments stamp, as a change on the judge's page does, so the dashboard's
figures are computed afresh and never show the judgment as it was."""

from __future__ import annotations

from collections.abc import Callable
from html import unescape

import pytest
from django.http import HttpResponse
from django.test import Client

from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import done_judgment
from metrics.numerals import ERR_NOT_WHOLE

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client: Client, user_factory: Callable[..., User]) -> Client:
    client.force_login(user_factory("root", is_staff=True, is_superuser=True))
    return client


def stamp(corpus: Corpus) -> int:
    return Corpus.objects.get(pk=corpus.pk).judgments_stamp


def change_judgment(client: Client, judgment: Judgment, *, sser: str) -> HttpResponse:
    """The admin's change form of ``judgment`` posted as it shows it, but its ``sser``."""
    return client.post(
        f"/admin/annotation/judgment/{judgment.pk}/change/",
        {
            "target": judgment.target_id,
            "evaluator": judgment.evaluator_id,
            "sser": sser,
            "new_ref": "",
            "edits": "",
            "ref_length": "",
            "state": Judgment.State.DONE,
            "active_seconds": 0,
            "version": judgment.version,
        },
    )


def test_changing_a_judgment_in_the_admin_moves_the_stamp(
    admin_client: Client, seed: Corpus, judge: User
) -> None:
    judgment = done_judgment(seed, judge, "a translator", 0, sser=4)
    before = stamp(seed)
    response = change_judgment(admin_client, judgment, sser="9")
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Judgment.objects.get(pk=judgment.pk).sser == 9
    assert stamp(seed) == before + 1


def test_the_admin_reads_numbers_in_the_digits_0_to_9_only(
    admin_client: Client, seed: Corpus, judge: User
) -> None:
    """Issue 36, point 8c: an SSER of "٣" (Arabic-Indic 3) is refused with the reason,
    not stored as 3."""
    judgment = done_judgment(seed, judge, "a translator", 0, sser=4)
    response = change_judgment(admin_client, judgment, sser="٣")
    assert response.status_code == 200  # the form again, with its error
    assert ERR_NOT_WHOLE.format(text="٣") in unescape(response.content.decode())
    assert Judgment.objects.get(pk=judgment.pk).sser == 4


def test_deleting_judgments_in_the_admin_moves_the_stamp(
    admin_client: Client, seed: Corpus, judge: User
) -> None:
    one = done_judgment(seed, judge, "a translator", 0, sser=4)
    two = done_judgment(seed, judge, "a translator", 1, sser=5)
    before = stamp(seed)
    admin_client.post(f"/admin/annotation/judgment/{one.pk}/delete/", {"post": "yes"})
    assert stamp(seed) == before + 1
    admin_client.post(
        "/admin/annotation/judgment/",
        {"action": "delete_selected", "_selected_action": [two.pk], "post": "yes"},
    )
    assert not Judgment.objects.exists()
    assert stamp(seed) == before + 2
