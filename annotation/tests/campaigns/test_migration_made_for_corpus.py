"""Migration 0025: every campaign made before it was made for one corpus (by 0023 or by
``Corpus.save``), so each is marked ``made_for_corpus`` and goes with its corpus."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("annotation", "0024_corpus_campaign_required")]
AFTER = [("annotation", "0025_campaign_made_for_corpus")]


def test_every_campaign_of_one_corpus_or_none_is_marked_made_for_its_corpus() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    campaign = old.get_model("annotation", "Campaign")
    corpus = old.get_model("annotation", "Corpus")
    alone = campaign.objects.create(name="alone")
    corpus.objects.create(name="alone", campaign=alone)
    shared = campaign.objects.create(name="shared")
    corpus.objects.create(name="one", campaign=shared)
    corpus.objects.create(name="two", campaign=shared)
    campaign.objects.create(name="empty")
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps.get_model("annotation", "Campaign")
        marked = dict(new.objects.values_list("name", "made_for_corpus"))
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert marked == {"alone": True, "shared": False, "empty": True}
