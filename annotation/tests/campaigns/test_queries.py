"""The campaign pages cost the same number of queries on any corpus: the campaign page
of a small corpus barely started and of a larger one far along (more sentences, more
systems, more judgments) are counted and shown equal; so is the judges page with more
judges and corpora. A count that grows with any of them fails here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from annotation.changes import judgments_changed
from annotation.models import Corpus, User
from annotation.tests.factories import page_queries, sized_corpus

pytestmark = pytest.mark.django_db

#: The campaign page's budget: session and user, the corpus with its progress, its
#: systems, its judges, those left out of the figures, the judgments per judge and
#: system, the control items' results (who is flagged), the forms' choices, and the
#: counted judgments (the power plan: remembered until a judgment changes), and its
#: pending jobs (a failed one with its Retry).
MAX_QUERIES_CAMPAIGN = 13
#: The judges page's: session and user, the judges with their corpora, the corpus
#: choices of the two creation forms (one judge, a list), and the campaigns with their
#: open links.
MAX_QUERIES_JUDGES = 7


def test_the_campaign_page_costs_the_same_queries_on_a_small_and_a_large_corpus(
    lead_client: Client, small_and_large: tuple[Corpus, Corpus]
) -> None:
    small, large = small_and_large

    at_small = page_queries(lead_client, reverse("campaigns:corpus", args=[small.pk]))
    at_large = page_queries(lead_client, reverse("campaigns:corpus", args=[large.pk]))

    assert at_large == at_small <= MAX_QUERIES_CAMPAIGN


def test_a_later_view_of_the_campaign_page_reads_no_judgment_for_the_power_plan(
    lead_client: Client, small_and_large: tuple[Corpus, Corpus]
) -> None:
    """The plan is remembered under the judgments stamp: a later view does not read the
    judgments again; one after a judgment changed does."""
    _, large = small_and_large
    url = reverse("campaigns:corpus", args=[large.pk])
    first = page_queries(lead_client, url)

    later = page_queries(lead_client, url)
    judgments_changed(large.pk)

    assert later == first - 1
    assert page_queries(lead_client, url) == first


def test_the_judges_page_costs_the_same_queries_with_more_judges_and_corpora(
    tmp_path: Path, lead_client: Client, user_factory: Callable[..., User]
) -> None:
    first = sized_corpus(tmp_path, "first", 3)
    first.judges.add(user_factory("ana"))
    few = page_queries(lead_client, reverse("campaigns:judges"))
    second = sized_corpus(tmp_path, "second", 30)
    for k in range(5):
        user_factory(f"judge{k}").assigned_corpora.add(first, second)
    User.objects.filter(username="judge0").update(is_active=False)

    many = page_queries(lead_client, reverse("campaigns:judges"))

    assert many == few <= MAX_QUERIES_JUDGES
    assert Corpus.objects.count() == 2
