"""The judge's header: corpus, system label, judge, position, progress and pace
(:func:`judge_header`, one query), beside :mod:`annotation.judging.page`, which gathers
the rest of the page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import (
    F,
    FloatField,
    Func,
    IntegerField,
    OuterRef,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from annotation.controls.api import RunItem, queue_progress
from annotation.judging.batches import batch_annotations
from annotation.models import Corpus, Judgment, Translator, User
from annotation.models.prepared import Prepared
from annotation.pace import Pace


@dataclass(frozen=True)
class JudgeHeader:
    corpus: Corpus
    translator_label: str
    judge: str
    sentence_number: int
    sentence_total: int
    done: int
    total: int
    pace: Pace
    #: Which of the judge's batches of the corpus the judgment is in, where the campaign
    #: splits the work (:mod:`annotation.judging.batches`); None elsewhere.
    batch: int | None = None


def shown_as_id(judgment: Judgment) -> int:
    """The system whose candidate ``judgment`` is shown as: its target's, or for a
    reference shown as a candidate (a control item) the system it is labelled as."""
    return judgment.shown_as_id or judgment.target.translator_id


def judge_header(judgment: Judgment, run_item: RunItem | None = None) -> JudgeHeader:
    """Corpus, translator ("System N" in a blind corpus), judge and position (one query).
    A reference shown as a candidate carries its system's label (:func:`shown_as_id`).

    With controls on, the position counts items, controls included ("done x / T", T the
    judge's queue: :func:`annotation.controls.runs.queue_progress`), so it moves after a
    control as after any item; the pace reads the same items. A blind corpus's label is
    then the item's label in its run (``run_item``, the page's: :class:`JudgingContext`),
    so a control carries one no other item of its run shows. A judgment made in a batch
    (a campaign that splits the work) counts the batch's items, and says which batch."""
    target = judgment.target
    corpus = target.sentence.corpus
    translator = judgment.shown_as or target.translator
    counts = _header_counts(judgment, translator)
    label = f"System {counts['rank'] + 1}" if corpus.blind else translator.name
    progress = queue_progress(
        corpus, counted=counts["n_done"], controls=counts["n_controls_done"], task=judgment.task
    )
    done, total = progress.done, progress.total
    if corpus.controls_enabled and corpus.blind and run_item is not None:
        label = f"System {run_item.label}"
    return JudgeHeader(
        corpus=corpus,
        translator_label=label,
        judge=judgment.evaluator.get_username(),
        sentence_number=target.sentence.position + 1,
        sentence_total=counts["n_sentences"],
        done=done,
        total=total,
        pace=Pace(done, total, counts["seconds"]),
        batch=counts.get("number"),
    )


def _header_counts(judgment: Judgment, translator: Translator) -> dict[str, Any]:
    """The header's counts in one query: the judge's done candidates of the corpus
    (:meth:`~annotation.models.CorpusQuerySet.with_progress`) and, while controls are on,
    done control items (``n_controls_done``), the active ``seconds`` of the items the header
    counts (the pace, :mod:`annotation.pace`) and ``translator``'s rank among the
    corpus's systems; the corpus sizes are stored on the corpus (no query). In a batch,
    the batch's counts and number instead (:func:`annotation.judging.batches.
    batch_annotations`), in the same one query."""
    corpus = judgment.target.sentence.corpus
    if judgment.task is not None:
        rank = _rank(OuterRef("pk"), translator.position)
        counts = batch_annotations(
            judgment.task, user_id=judgment.evaluator_id, controls=corpus.controls_enabled
        )
        rows = Corpus.objects.filter(pk=corpus.pk).order_by()
        row = rows.annotate(rank=rank, **counts).values(*counts, "rank").get()
    else:
        (row,) = _HEADER_COUNTS(
            corpus.pk, judgment.evaluator_id, translator.position, shape=corpus.controls_enabled
        )
    return {**row, "n_sentences": corpus.n_sentences, "n_candidates": corpus.n_candidates}


def _rank(corpus_id: int | OuterRef, position: int) -> Subquery:
    """How many of the corpus's systems come before the one at ``position``."""
    return _count(
        Translator.objects.filter(
            corpus_id=corpus_id, role=Translator.Role.SYSTEM, position__lt=position
        )
    )


def _header_query(
    corpus_id: int, evaluator_id: int, position: int, *, shape: bool
) -> QuerySet[Any]:
    """:func:`_header_counts`' one query outside a batch, ``shape`` whether the corpus has
    controls on (the judge's done items are then counted, and their done controls)."""
    evaluator = User(pk=evaluator_id)
    mine = Judgment.objects.of_corpus(OuterRef("pk")).filter(evaluator=evaluator)
    rows = Corpus.objects.filter(pk=corpus_id).order_by()
    if shape:
        counted, rows = mine.done(), rows.with_items_progress(evaluator)
    else:
        counted = mine.counted()
        rows = rows.with_progress(evaluator).annotate(n_controls_done=Value(0))
    return rows.annotate(rank=_rank(OuterRef("pk"), position), seconds=_seconds(counted)).values(
        "n_done", "n_controls_done", "rank", "seconds"
    )


#: Compiled once per process (:mod:`annotation.models.prepared`): the ORM took longer to
#: build its subqueries than the database to count them.
_HEADER_COUNTS = Prepared(_header_query)


def _seconds(judgments: QuerySet[Any]) -> Coalesce:
    """The active seconds of ``judgments`` (one evaluator's) as a scalar subquery."""
    spent = (
        judgments.order_by().values("evaluator_id").annotate(s=Sum("active_seconds")).values("s")
    )
    return Coalesce(Subquery(spent), Value(0.0), output_field=FloatField())


def _count(rows: QuerySet[Any]) -> Subquery:
    """``COUNT(*)`` of ``rows`` (filtered on an ``OuterRef``) as a scalar subquery."""
    count = Func(F("pk"), function="COUNT", output_field=IntegerField())
    return Subquery(rows.order_by().values(n=count))
