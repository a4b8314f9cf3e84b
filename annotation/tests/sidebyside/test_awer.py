"""Side by side on an aWER corpus (issue 42, point 1): each panel holds the single aWER
page's editor (its marked words, the new reference, the SSER), each candidate its own
judgment changed by the single page's services; every panel starts from the sentence's
pool as it stood when the screen opened; accept & next saves every panel's SSER and
typed text, and is refused, keeping them, where an SSER is missing; with IER on, each
panel holds its candidate's information items."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from annotation.judging.errors import ERR_NO_SSER
from annotation.models import Comparison, Corpus, Judgment, User
from annotation.models.corpus import Protocol
from annotation.sidebyside.actions import ERR_NO_SSERS, comparison_judgments
from annotation.sidebyside.queue import next_comparison
from annotation.sidebyside.screen import panel_of
from annotation.tests.sidebyside.corpora import side_by_side_corpus
from annotation.text import REFERENCE_ROLES

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def corpus(judge: User) -> Corpus:
    return side_by_side_corpus(judge, name="awer", protocol=Protocol.AWER)


def screen(corpus: Corpus, judge: User) -> tuple[Comparison, list[Judgment]]:
    comparison = next_comparison(setting=corpus.side_by_side, user=judge)
    assert comparison is not None
    return comparison, comparison_judgments(comparison=comparison, user=judge)


def change(client: Client, comparison: Comparison, judgment: Judgment, action: str, **data: str):
    url = f"/comparisons/{comparison.pk}/judgments/{judgment.pk}/{action}/"
    return client.post(url, data, **HTMX)


def marked(judgment: Judgment) -> list[str]:
    """The tokens of the candidate's marked words, as its panel draws them."""
    awer = panel_of(judgment, "a").awer
    assert awer is not None
    return [o.token for o in awer.ops if o.op != "match"]


def test_every_panel_holds_the_aWER_editor_with_ids_of_its_letter(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison, _ = screen(corpus, judge)
    html = judge_client.get(f"/comparisons/{comparison.pk}/").content.decode()

    for x in "ab":
        for block in ("candidate-form", "candidate", "new-ref", "new-ref-text", "sser-form"):
            assert html.count(f'id="{block}-{x}"') == 1
        assert f'form="severity-form-{x}"' in html
    assert 'data-protocol="awer"' in html
    assert html.count('data-sser="10"') == 2  # a scale a panel
    assert 'id="sbs-pool-rule"' in html
    assert '"sser-10": "+"' in html
    assert 'class="sbs-typed-sser"' in html
    assert 'id="esa-score' not in html
    assert 'id="judge"' not in html  # no single page's ids


def test_a_click_on_a_marked_word_changes_that_panel_alone(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison, (a, b) = screen(corpus, judge)
    before, edits = b.new_ref, a.edits
    token = marked(a)[0]

    answer = change(judge_client, comparison, a, "op", op=token)

    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'id="sbs-panel-a"' in html
    assert 'id="sbs-panel-b"' not in html
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.new_ref != before  # the candidate's version taken into A's new reference
    assert a.edits == edits - 1
    assert token not in marked(a)
    assert b.new_ref == before
    severity = change(judge_client, comparison, b, "severity", op=marked(b)[0])
    assert severity.status_code == 200
    b.refresh_from_db()
    assert "major" in b.severities.values()


def test_every_panel_starts_from_the_pool_as_it_stood_when_the_screen_opened(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison, (a, b) = screen(corpus, judge)
    reference = comparison.sentence.targets.get(translator__role=REFERENCE_ROLES[0]).text
    assert a.new_ref == b.new_ref == reference  # the pool's nearest: the one reference

    change(judge_client, comparison, a, "new-ref", text="my own new reference")
    change(judge_client, comparison, a, "sser", sser="3")
    judge_client.get(f"/comparisons/{comparison.pk}/")  # the screen again

    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.new_ref, a.sser) == ("my own new reference", 3)
    assert b.new_ref == reference  # B does not start again from A's


def test_accept_saves_every_panels_sser_and_text_typed_and_goes_on(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison, (a, b) = screen(corpus, judge)
    typed = {f"sser-{a.pk}": "7", f"sser-{b.pk}": "4", f"new-ref-{b.pk}": "typed here"}
    answer = judge_client.post(f"/comparisons/{comparison.pk}/accept/", typed | {"preference": "a"})

    assert answer.status_code == 303
    a.refresh_from_db()
    b.refresh_from_db()
    comparison.refresh_from_db()
    assert (a.state, a.sser, b.state, b.sser) == ("done", 7, "done", 4)
    assert b.new_ref == "typed here"
    assert (comparison.state, comparison.preference) == ("done", "a")


def test_accept_without_a_panels_sser_is_refused_and_keeps_what_was_typed(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison, (a, b) = screen(corpus, judge)
    typed = {f"sser-{a.pk}": "8", f"new-ref-{b.pk}": "typed before", "preference": "b"}
    refused = judge_client.post(f"/comparisons/{comparison.pk}/accept/", typed)

    assert refused.status_code == 422
    html = refused.content.decode()
    assert ERR_NO_SSERS.format(letters="B") in html
    assert ERR_NO_SSER not in html
    comparison.refresh_from_db()
    a.refresh_from_db()
    b.refresh_from_db()
    assert (comparison.state, comparison.preference) == ("pending", "b")
    assert (a.state, a.sser, b.state, b.sser) == ("pending", 8, "pending", None)
    assert b.new_ref == "typed before"
    panel_a = re.search(r'id="sbs-panel-a".*?</section>', html, re.S)
    assert panel_a is not None
    assert 'data-sser="8" data-action="sser" class="sser pressed" aria-pressed="true"' in panel_a[0]
    assert ">typed before</textarea>" in html


def test_with_IER_on_each_panel_splits_and_marks_its_own_candidate_s_items(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    """IER turned on after the queue was drawn: the screen shows each panel's items
    (ids of its letter), a split and a mark in B's change B's judgment alone and answer
    with B's panel, and accept & next keeps them (A's its default split, all OK)."""
    comparison, (a, b) = screen(corpus, judge)
    Corpus.objects.filter(pk=corpus.pk).update(ier_enabled=True)
    html = judge_client.get(f"/comparisons/{comparison.pk}/").content.decode()
    for x in "ab":
        for block in ("ier", "ier-form", "ier-items", "h-ier"):
            assert html.count(f'id="{block}-{x}"') == 1
    assert 'id="ier"' not in html

    split = change(judge_client, comparison, b, "ier", gap="1")
    marked_b = change(judge_client, comparison, b, "ier", mark="0:meaning")

    assert split.status_code == marked_b.status_code == 200
    assert 'id="sbs-panel-b"' in marked_b.content.decode()
    assert 'id="sbs-panel-a"' not in marked_b.content.decode()
    b.refresh_from_db()
    n = len(b.target.text.split())
    assert b.ier_items == [[0, 1, "meaning"], [1, n, "ok"]]
    accepted = judge_client.post(
        f"/comparisons/{comparison.pk}/accept/",
        {f"sser-{a.pk}": "9", f"sser-{b.pk}": "6", "preference": "a"},
    )
    assert accepted.status_code == 303
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.state, b.state) == ("done", "done")
    assert b.ier_items == [[0, 1, "meaning"], [1, n, "ok"]]
    assert a.ier_items is not None
    assert {label for _, _, label in a.ier_items} == {"ok"}
