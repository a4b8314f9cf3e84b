"""Taking a corpus away: archive it (hidden from its judges, kept whole, restorable) or
delete it with everything it holds, a hidden corpus left by an interrupted import included.

Services (keyword-only, typed) for the campaign page, the lead's home page and
``manage.py delete_corpus``. Deleting is the one change here that cannot be undone, so
both doors ask for the corpus's name first (the page: typed into a field; the command:
``--yes`` after reading what it will delete).

Rows go as an import writes them: a few sentences (with their targets, judgments and
their events) per transaction, so a large corpus never holds SQLite's write lock for
more than a moment and the judges of other corpora go on clicking meanwhile. A large
corpus takes seconds to delete (``docs/performance.md``), so the deletion is a worker's
job (:mod:`annotation.jobs`): the corpus is hidden at once, and a worker deletes its rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count

from annotation.campaigns.api import campaign_drop_if_left_empty
from annotation.formatting import counted
from annotation.jobs import Job, Progress, enqueue, handler
from annotation.models import Corpus, Judgment

#: Sentences deleted per transaction (the import writes this many per transaction too).
SENTENCES_PER_TRANSACTION = 50
ERR_NAME_MISMATCH = "type the corpus's name, {name!r}, to confirm"
ERR_ONLY_DELETE = "an unfinished import can only be deleted"


class RemovalRefused(ValueError):
    """The corpus was not removed (the reason is the message)."""


@dataclass(frozen=True)
class CorpusContents:
    """What deleting a corpus would take with it, as the confirmation says it."""

    name: str
    sentences: int
    judgments: int
    judges: int
    ready: bool

    def lines(self) -> list[str]:
        state = "" if self.ready else " (left hidden by an unfinished import)"
        return [
            f"Corpus {self.name!r}{state}: {counted(self.sentences, 'sentence')}, "
            f"{counted(self.judgments, 'judgment')} by {counted(self.judges, 'evaluator')}."
        ]


def corpus_contents(corpus: Corpus) -> CorpusContents:
    """What is in ``corpus`` (two queries: its sentences and its judgments), for the
    confirmation a deletion asks first."""
    judged = Judgment.objects.filter(target__sentence__corpus_id=corpus.pk).aggregate(
        n=Count("pk"), judges=Count("evaluator_id", distinct=True)
    )
    return CorpusContents(
        name=corpus.name,
        sentences=corpus.sentences.count(),
        judgments=judged["n"],
        judges=judged["judges"],
        ready=corpus.ready,
    )


def confirmed(corpus: Corpus, typed: str) -> None:
    """Refuse unless ``typed`` is the corpus's name (surrounding spaces aside)."""
    if typed.strip() != corpus.name:
        raise RemovalRefused(ERR_NAME_MISMATCH.format(name=corpus.name))


def corpus_set_archived(*, corpus: Corpus, archived: bool) -> None:
    """Archive ``corpus`` (its judges no longer see it or reach its judgments; leads keep
    its dashboard, campaign page and export) or restore it. Nothing is deleted."""
    Corpus.all_objects.filter(pk=corpus.pk).update(archived=archived)
    corpus.archived = archived


DELETING = "delete_corpus"


def corpus_delete(*, corpus: Corpus, requested_by: Any = None) -> Job:
    """Delete ``corpus`` and everything it holds: sentences, targets, judgments with their
    events, stored statistics. The corpus is hidden at once (``ready`` false), so no page
    shows it half-deleted; a worker then deletes its rows a few sentences a transaction
    (the job returned; see the module). Judges' accounts stay: they may judge other
    corpora."""
    with transaction.atomic():
        Corpus.all_objects.filter(pk=corpus.pk).update(ready=False)
        return enqueue(
            DELETING,
            f"{DELETING}:{corpus.pk}",
            label=f"Deleting {corpus.name}",
            corpus=corpus,
            requested_by=requested_by,
            after_failure=True,
        )


@handler(DELETING)
def _delete_job(job: Job, progress: Progress) -> None:
    corpus = (
        Corpus.all_objects.filter(pk=job.corpus_id).first() if job.corpus_id is not None else None
    )
    if corpus is not None:  # else deleted by an earlier try
        delete_corpus_rows(corpus, progress)


def delete_corpus_rows(
    corpus: Corpus, progress: Callable[[int, int, str], None] | None = None
) -> None:
    """Delete ``corpus``'s rows in short transactions, sentences first (the import's
    removal of an unfinished corpus uses this too), reporting the sentences deleted;
    last its campaign, if it was made for this corpus and holds no other
    (:func:`~annotation.campaigns.membership.campaign_drop_if_left_empty`)."""
    positions = corpus.sentences.order_by("position").values_list("position", flat=True)
    total, deleted = positions.count(), 0
    while True:
        cut = positions[SENTENCES_PER_TRANSACTION - 1 : SENTENCES_PER_TRANSACTION].first()
        with transaction.atomic():
            batch = corpus.sentences.all()
            deleted += (
                (batch if cut is None else batch.filter(position__lte=cut))
                .delete()[1]
                .get("annotation.Sentence", 0)
            )
        if progress is not None:
            progress(deleted, total, "deleting sentences")
        if cut is None:
            break
    with transaction.atomic():
        Corpus.all_objects.filter(pk=corpus.pk).delete()
        campaign_drop_if_left_empty(corpus.campaign_id)
