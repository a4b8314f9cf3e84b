"""Test helpers for campaigns that split the work: a corpus of given documents written
straight as rows (fast enough for property tests that build dozens of them), judging a
task's items, and a task left untouched past its campaign's timeout."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta

from django.utils import timezone

from annotation.campaigns.dealing import deal_next
from annotation.models import (
    Campaign,
    Corpus,
    Judgment,
    Sentence,
    Target,
    Task,
    Translator,
    User,
)


def split_campaign(name: str, *, judges_per_item: int = 1, **rules: int | None) -> Campaign:
    """A campaign that deals its work, ``judges_per_item`` annotators per item."""
    return Campaign.objects.create(name=name, judges_per_item=judges_per_item, **rules)


def corpus_of_documents(
    name: str,
    documents: Sequence[int],
    *,
    systems: int,
    campaign: Campaign | None = None,
    judges: Iterable[User] = (),
) -> Corpus:
    """A corpus of ``len(documents)`` documents of ``documents[d]`` sentences each (one
    reference and ``systems`` systems a sentence), in ``campaign`` (one of its own if
    None), judged by ``judges``. Written as rows: no file is parsed."""
    n = sum(documents)
    corpus = Corpus.objects.create(
        name=name, campaign=campaign, n_sentences=n, n_systems=systems, n_candidates=n * systems
    )
    translators = Translator.objects.bulk_create(
        [Translator(corpus=corpus, name="ref", role=Translator.Role.FIRST_REFERENCE, position=0)]
        + [
            Translator(corpus=corpus, name=f"system {s}", role=Translator.Role.SYSTEM, position=s)
            for s in range(1, systems + 1)
        ]
    )
    docs = [f"doc {d}" for d, size in enumerate(documents) for _ in range(size)]
    sentences = Sentence.objects.bulk_create(
        Sentence(corpus=corpus, position=p, doc=doc, source=f"source {p}", queue_position=p)
        for p, doc in enumerate(docs)
    )
    Target.objects.bulk_create(
        Target(sentence=s, translator=t, position=t.position, text=f"{t.name} says {s.position}")
        for s in sentences
        for t in translators
    )
    corpus.judges.add(*judges)
    return corpus


def dealt(user: User, campaign: Campaign) -> Task:
    """The task :func:`~annotation.campaigns.dealing.deal_next` deals ``user`` (one must be)."""
    task = deal_next(user=user, campaign=campaign)
    assert task is not None, f"nothing was dealt to {user}"
    return task


def judge_items(task: Task, user: User, target_ids: Iterable[int]) -> None:
    """``user``'s done judgments of ``target_ids`` under ``task`` (as the judge's page
    stores them, without the clicks)."""
    Judgment.objects.bulk_create(
        Judgment(
            target_id=pk, evaluator=user, task=task, state=Judgment.State.DONE, sser=5, new_ref="x"
        )
        for pk in target_ids
    )


def leave_untouched(task: Task, campaign: Campaign) -> None:
    """``task`` as if nobody had touched it for longer than the campaign's timeout."""
    long_ago = timezone.now() - timedelta(hours=campaign.batch_timeout_hours, minutes=1)
    Task.objects.filter(pk=task.pk).update(touched_at=long_ago, assigned_at=long_ago)


def system_targets(corpus: Corpus) -> list[int]:
    """The ids of the corpus's candidates."""
    return list(
        Target.objects.filter(
            sentence__corpus=corpus, translator__role=Translator.Role.SYSTEM
        ).values_list("pk", flat=True)
    )
