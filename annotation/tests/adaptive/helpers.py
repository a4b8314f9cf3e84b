"""Test helpers for adaptive dealing: a campaign dealt adaptively over a corpus written as
rows, and judges whose SSER scores depend on the system (so pairs resolve)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from annotation.campaigns.drawing import draw_campaign_tasks
from annotation.dealt import task_targets
from annotation.models import Campaign, Corpus, Judgment, Target, Task, Translator, User
from annotation.tests.campaigns.split import corpus_of_documents, split_campaign


def adaptive_corpus(
    name: str,
    documents: Sequence[int],
    *,
    systems: int,
    judges: Sequence[User],
    batch_size: int | None = None,
    warm_up_percent: int = 25,
    adaptive: bool = True,
    judges_per_item: int = 1,
) -> tuple[Campaign, Corpus]:
    """A campaign of one corpus (``documents`` of so many sentences, ``systems``
    systems), ``judges_per_item`` annotators per item and no overlap, dealt adaptively
    (or not), its tasks drawn; a batch a document by default."""
    campaign = split_campaign(
        f"{name} campaign",
        judges_per_item=judges_per_item,
        batch_size=batch_size or max(10, systems * max(documents)),
        overlap_percent=0,
        adaptive=adaptive,
        warm_up_percent=warm_up_percent,
    )
    corpus = corpus_of_documents(name, documents, systems=systems, campaign=campaign, judges=judges)
    vary_texts(corpus)
    draw_campaign_tasks(campaign)
    return campaign, corpus


WORDS = ["the", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog", "again", "today"]


def vary_texts(corpus: Corpus) -> None:
    """Each sentence's reference ten words, each system's candidate the reference with
    as many words replaced as :func:`system_score` leaves short of 10: the automatic
    scores then vary from sentence to sentence and follow the judges' (covariates)."""
    targets = list(
        Target.objects.filter(sentence__corpus=corpus).select_related("sentence", "translator")
    )
    for t in targets:
        words = [f"{w}{t.sentence.position}" for w in WORDS[:10]]
        if t.translator.role == Translator.Role.SYSTEM:
            wrong = 10 - system_score(t.translator.position, t.sentence.position)
            words = [f"x{k}" if k < wrong else w for k, w in enumerate(words)]
        t.text = " ".join(words)
    Target.objects.bulk_update(targets, ["text"])


def system_score(system_position: int, sentence: int, seed: int = 0, spread: float = 1.5) -> int:
    """A judge's SSER score of a system's candidate: systems far apart (the later the
    system, the higher its score: the fewer edits its sentences need), a sentence's own
    difficulty, and noise; within 0–10. ``spread``: the difference between neighbouring
    systems."""
    noise = random.Random(f"{seed}/{system_position}/{sentence}").gauss(0.0, 1.0)
    difficulty = (sentence * 7919) % 5 - 2
    return max(0, min(10, round(2 + spread * system_position + difficulty * 0.5 + noise)))


def judge_task(task: Task, user: User, *, seed: int = 0, spread: float = 1.5) -> int:
    """``user`` judges every item of ``task`` (done SSER judgments under it, scored by
    :func:`system_score`); the task is finished. How many."""
    targets = list(
        task_targets(task).values_list("pk", "translator__position", "sentence__position")
    )
    opened = Judgment.objects.filter(evaluator=user, target_id__in=[t[0] for t in targets])
    opened.filter(state=Judgment.State.PENDING).delete()  # the page the judge opened
    Judgment.objects.bulk_create(
        Judgment(
            target_id=pk,
            evaluator=user,
            task=task,
            state=Judgment.State.DONE,
            sser=system_score(position, sentence, seed, spread),
            new_ref="x",
        )
        for pk, position, sentence in targets
    )
    Task.objects.filter(pk=task.pk).update(finished_at=task.assigned_at)
    return len(targets)
