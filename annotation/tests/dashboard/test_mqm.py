"""The MQM-style column of the dashboard: per system the mean penalty of its done
judgments (minor 1, major 5 points), as `manage.py scores` computes it, read with the
judgments in the same query (the page's query count does not change with severities)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from annotation.judging.severity import judgment_toggle_severity
from annotation.judging.start import judgment_open
from annotation.models import Corpus, User
from annotation.spans import major_count
from annotation.statistics import fill_hter_counts, judgment_rows
from annotation.tests.factories import FIGURE_1_RESULT, finish, target_of
from annotation.tests.stored import automatic_statistics

pytestmark = pytest.mark.django_db


def page_queries(client: Client, corpus: Corpus) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/dashboard/{corpus.pk}/").status_code == 200
    return len(queries)


def test_the_column_is_the_mean_penalty_and_costs_no_query(
    seed: Corpus, judge: User, lead_client: Client
) -> None:
    automatic_statistics(seed)  # stored, as once its import's job is done
    page_queries(lead_client, seed)  # and decoded, kept by this process from now on
    first = judgment_open(user=judge, target=target_of(seed, "a translator", 0))
    finish(first, judge, FIGURE_1_RESULT, 7)  # "show" and "for": 2 minor errors
    second = judgment_open(user=judge, target=target_of(seed, "a translator", 1))
    finish(second, judge, "Chart represents the method.", 8)  # 1 minor error
    fill_hter_counts()  # as the workers do: the page then reads, writes nothing
    # after a change of the judgments (the figures computed again), then from the cache
    before = page_queries(lead_client, seed), page_queries(lead_client, seed)
    table = json.loads(lead_client.get(f"/dashboard/{seed.pk}/table.json").content)
    assert table["translators"]["a translator"]["mqm"]["score"] == pytest.approx(1.5)

    judgment_toggle_severity(
        judgment=first, user=judge, version=first.version, op="substitution:1:1"
    )
    assert (page_queries(lead_client, seed), page_queries(lead_client, seed)) == before
    table = json.loads(lead_client.get(f"/dashboard/{seed.pk}/table.json").content)
    assert table["translators"]["a translator"]["mqm"]["score"] == pytest.approx(3.5)
    page = lead_client.get(f"/dashboard/{seed.pk}/").content.decode()
    assert "MQM-style" in page


def test_the_judgments_are_read_with_the_severities_marked_and_none_where_none_is(
    seed: Corpus, judge: User
) -> None:
    """The judgments' query reads the severities as text and decodes only those marked
    (most are not): a marked one comes back as stored, an unmarked one as None."""
    first = judgment_open(user=judge, target=target_of(seed, "a translator", 0))
    finish(first, judge, FIGURE_1_RESULT, 7)
    second = judgment_open(user=judge, target=target_of(seed, "a translator", 1))
    finish(second, judge, "Chart represents the method.", 8)
    judgment_toggle_severity(
        judgment=first, user=judge, version=first.version, op="substitution:1:1"
    )

    read = {r.segment: r.severities for r in judgment_rows(seed)}
    assert read == {0: {"substitution:1": "major"}, 1: None}
    assert [major_count(s) for s in read.values()] == [1, 0]
