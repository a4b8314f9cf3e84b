"""The pages that show every judge cost the same number of queries with 5 judges as with
40: the dashboard (whose judges panel and effort panel list each judge), the judges
panel alone, and the corpus's campaign page (each judge's progress, who judged what,
each judge's effect). A count that grows with the judges fails here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import Client

from annotation.changes import judgments_changed
from annotation.models import Corpus, Judgment, Target, User
from annotation.tests.factories import HTMX, page_queries, sized_corpus
from annotation.tests.stored import scored

pytestmark = pytest.mark.django_db

#: The pages, each with the headers it is asked with.
PAGES = {
    "/dashboard/{pk}/": {},
    "/dashboard/{pk}/panel/judges/": HTMX,
    "/dashboard/{pk}/panel/effort/": HTMX,
    "/campaigns/{pk}/": {},
}


def judged_by(corpus: Corpus, judges: list[User]) -> None:
    """Every candidate of ``corpus`` judged by one of ``judges`` in turn, every third by
    the next one too (a split campaign's overlap), each judge assigned to the corpus."""
    corpus.judges.add(*judges)
    targets = Target.objects.filter(sentence__corpus=corpus, translator__role="system")
    made = []
    for i, target in enumerate(targets.order_by("pk")):
        for j in range(2 if i % 3 == 0 else 1):
            made.append(
                Judgment(
                    target=target,
                    evaluator=judges[(i + j) % len(judges)],
                    sser=(i + 3 * j) % 11,
                    new_ref=target.text,
                    edits=(i + j) % 4,
                    ref_length=8,
                    state="done",
                    active_seconds=20.0 + i,
                )
            )
    Judgment.objects.bulk_create(made)
    judgments_changed(corpus.pk)


def _queries(client: Client, url: str, headers: dict[str, str]) -> int:
    client.defaults.update(headers)
    try:
        return page_queries(client, url)
    finally:
        for key in headers:
            client.defaults.pop(key)


@pytest.mark.parametrize("url", list(PAGES))
def test_a_page_listing_every_judge_costs_the_same_queries_with_5_and_40_judges(
    lead_client: Client, user_factory: Callable[..., User], tmp_path: Path, url: str
) -> None:
    """A first view (every figure computed) and a later one, on two corpora of the same
    size judged by 5 and by 40 judges."""
    counts = {}
    for n in (5, 40):
        corpus = sized_corpus(tmp_path, f"c{n}", 20)
        scored(corpus)  # stored, as once its import's job is done
        judged_by(corpus, [user_factory(f"c{n}-judge{k:02d}") for k in range(n)])
        address = url.format(pk=corpus.pk)
        counts[n] = (
            _queries(lead_client, address, PAGES[url]),
            _queries(lead_client, address, PAGES[url]),
        )

    assert Judgment.objects.values("evaluator").distinct().count() == 45
    assert counts[5] == counts[40]
