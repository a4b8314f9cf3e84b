"""Who counts: a lead leaves a judge out of every figure of a corpus (their work stays
stored and exported) or counts them again, and discards a judge's work in two steps
(set aside: unassigned and left out, reversible; then deleted once the name is typed)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from annotation.campaigns.judges import (
    ERR_JUDGE_NAME,
    AccountRefused,
    corpus_discard_judgments,
    corpus_leave_out_judge,
)
from annotation.corpora.mqm import mqm_rows
from annotation.models import Corpus, Judgment, User
from annotation.statistics import judgment_rows, new_references
from annotation.tests.factories import done_judgment, exported

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_judges(seed: Corpus, judge: User, user_factory) -> tuple[User, User]:
    """The judge and bob, each with a done judgment of seed's first candidate."""
    bob = user_factory("bob")
    seed.judges.add(bob)
    done_judgment(seed, judge, "a translator", 0, sser=9, new_ref="a b", edits=0, length=2)
    done_judgment(seed, bob, "a translator", 0, sser=2, new_ref="c d", edits=2, length=2)
    return judge, bob


def evaluators(corpus: Corpus) -> set[str]:
    return {r.evaluator for r in judgment_rows(corpus)}


def test_a_judge_left_out_counts_in_no_figure_and_stays_in_the_export(
    seed: Corpus, two_judges: tuple[User, User]
) -> None:
    judge, bob = two_judges
    stamp = Corpus.objects.get(pk=seed.pk).judgments_stamp

    corpus_leave_out_judge(corpus=seed, judge=bob, left_out=True)

    assert evaluators(seed) == {"judge"}
    assert new_references(seed) == {0: ["a b"]}
    assert all(row["rater"] != "bob" for row in mqm_rows(seed))
    assert Corpus.objects.get(pk=seed.pk).judgments_stamp == stamp + 1  # figures anew
    assert b'evaluator="bob"' in exported(seed)
    assert bob.judgments.count() == 1

    corpus_leave_out_judge(corpus=seed, judge=bob, left_out=False)

    assert evaluators(seed) == {"judge", "bob"}


def test_the_dashboard_and_scores_leave_the_judge_out_and_say_so(
    lead_client: Client, seed: Corpus, two_judges: tuple[User, User]
) -> None:
    _, bob = two_judges
    before = lead_client.get(reverse("dashboard:page", args=[seed.pk])).content.decode()

    lead_client.post(
        reverse("campaigns:leave_out", args=[seed.pk]), {"judge": bob.pk, "left_out": "1"}
    )

    after = lead_client.get(reverse("dashboard:page", args=[seed.pk])).content.decode()
    assert 'data-left-out="bob"' in after
    assert 'data-left-out="bob"' not in before
    campaign = lead_client.get(reverse("campaigns:corpus", args=[seed.pk])).content.decode()
    assert 'data-judge="bob" data-assigned="true" data-counted="false"' in campaign
    assert '<span id="all-done">1</span>' in campaign


def test_discarding_takes_two_steps_and_can_be_undone_before_the_second(
    lead_client: Client, seed: Corpus, two_judges: tuple[User, User]
) -> None:
    _, bob = two_judges
    lead_client.post(reverse("campaigns:set_aside", args=[seed.pk]), {"judge": bob.pk})

    seed = Corpus.objects.get(pk=seed.pk)
    assert bob not in seed.judges.all()
    assert bob in seed.excluded_judges.all()
    assert bob.judgments.count() == 1  # nothing deleted yet

    wrong = lead_client.post(
        reverse("campaigns:discard", args=[seed.pk]), {"judge": bob.pk, "name": "bo"}
    )
    assert wrong.status_code == 400
    assert ERR_JUDGE_NAME.format(username="bob") in wrong.content.decode().replace("&#x27;", "'")
    assert bob.judgments.count() == 1

    lead_client.post(reverse("campaigns:discard", args=[seed.pk]), {"judge": bob.pk, "name": "bob"})

    assert not Judgment.objects.filter(evaluator=bob).exists()
    assert not seed.excluded_judges.exists()
    assert evaluators(seed) == {"judge"}


def test_a_judge_who_counts_cannot_be_discarded(
    seed: Corpus, two_judges: tuple[User, User]
) -> None:
    _, bob = two_judges

    with pytest.raises(AccountRefused, match="leave them out first"):
        corpus_discard_judgments(corpus=seed, judge=bob, typed="bob")

    assert bob.judgments.count() == 1


def test_a_flagged_judge_is_offered_for_exclusion(
    lead_client: Client, seed: Corpus, judge: User
) -> None:
    seed.controls_enabled = True
    seed.save()
    reference = seed.translators.get(name="first reference")
    target = reference.targets.get(sentence__position=0)
    Judgment.objects.create(
        target=target,
        evaluator=judge,
        control=Judgment.Control.REFERENCE,
        shown_as=seed.translators.get(name="a translator"),
        state=Judgment.State.DONE,
        sser=2,
        edits=3,
        ref_length=4,
    )

    html = lead_client.get(reverse("campaigns:corpus", args=[seed.pk])).content.decode()

    assert 'data-judge="judge" data-assigned="true" data-counted="true" data-flagged="true"' in html
    assert 'data-action="leave-out" data-judge="judge"' in html


def test_who_counts_actions_refuse_a_bad_value(
    lead_client: Client, seed: Corpus, two_judges: tuple[User, User]
) -> None:
    url = reverse("campaigns:leave_out", args=[seed.pk])

    assert lead_client.post(url, {"judge": two_judges[1].pk, "left_out": "2"}).status_code == 400
    assert lead_client.post(url, {"judge": 999999, "left_out": "1"}).status_code == 400
    assert not Corpus.objects.get(pk=seed.pk).excluded_judges.exists()
