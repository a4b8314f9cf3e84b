"""Migrations 0023–0024: every corpus made before campaigns held several becomes a
campaign of its own, named after it, in which every judge of the corpus judges every
candidate as before; nothing a judge did is lost or changes meaning."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("annotation", "0022_control_rate_per_run")]
AFTER = [("annotation", "0024_corpus_campaign_required")]


def test_each_corpus_becomes_a_campaign_of_its_own_with_its_judgments_as_they_were() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("annotation", "User").objects.create(username="ana")
    corpus_model = old.get_model("annotation", "Corpus")
    judged = {}
    for name in ("zh-en", "de-en"):
        corpus = corpus_model.objects.create(name=name, n_sentences=1, n_systems=1)
        corpus.judges.add(user)
        system = corpus.translators.create(name="sys", role="system", position=0)
        sentence = corpus.sentences.create(position=0, source="源", queue_position=0)
        target = sentence.targets.create(translator=system, position=0, text="a source")
        judgment = target.judgments.create(
            evaluator=user, sser=7, new_ref="the source", edits=1, ref_length=2, state="done"
        )
        judged[name] = judgment.pk
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        corpora = new.get_model("annotation", "Corpus").objects.order_by("name")
        campaigns = {c.name: (c.campaign.name, c.campaign.judges_per_item) for c in corpora}
        judges = {c.name: list(c.judges.values_list("username", flat=True)) for c in corpora}
        judgments = new.get_model("annotation", "Judgment").objects.order_by("pk")
        stored = [(j.pk, j.sser, j.new_ref, j.state, j.task_id) for j in judgments]
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert campaigns == {"de-en": ("de-en", None), "zh-en": ("zh-en", None)}
    assert judges == {"de-en": ["ana"], "zh-en": ["ana"]}
    assert stored == [
        (judged["zh-en"], 7, "the source", "done", None),
        (judged["de-en"], 7, "the source", "done", None),
    ]
