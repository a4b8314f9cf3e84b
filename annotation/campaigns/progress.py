"""The campaign page's figures: each judge's progress (done / assigned, active time,
pace, time to finish), the corpus's progress, and who judged what (judge × system).

Read in a fixed number of queries whatever the corpus's size: the corpus with its
campaign progress (``Corpus.objects.with_judges_progress``, the rule the lead's home
shows too), its systems, its judges, those left out of the figures, and the done
judgments grouped per judge and system
(``JudgmentQuerySet.per_evaluator_and_translator``): judges × systems rows, never one per
sentence; where the corpus's campaign splits the work, each judge's batches with their
row (:func:`annotation.campaigns.batch_progress.judge_batch_annotations`). The pace
is the one every page shows (:data:`annotation.pace.PACE_LABEL`): active seconds
per done candidate.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from annotation.campaigns.batch_progress import (
    AnnotatorBatches,
    batches_of,
    judge_batch_annotations,
)
from annotation.models import Corpus, Judgment, Translator
from annotation.pace import seconds_per_candidate, sentences_per_hour


@dataclass(frozen=True)
class JudgeProgress:
    """One judge of the campaign (or an evaluator with judgments who is not assigned:
    an import's, or a judge taken off the corpus)."""

    user_id: int
    username: str
    assigned: bool
    is_active: bool | None  # None: not read (an evaluator who is not assigned)
    must_change_password: bool
    done: int
    #: The judge's work: every candidate of the corpus when assigned (where every judge
    #: judges every candidate), else nothing.
    to_do: int | None
    #: Active time of the done judgments (the time the dashboard counts).
    seconds: float
    #: (system, done judgments) in the order of :attr:`Campaign.systems`.
    per_system: tuple[tuple[str, int], ...]
    #: The active seconds of those judgments, in the same order.
    per_system_seconds: tuple[float, ...] = ()
    #: Where the work is split, the judge's batches of the corpus (None otherwise).
    batches: AnnotatorBatches | None = None

    @property
    def share(self) -> float | None:
        return self.done / self.to_do if self.to_do else None

    @property
    def per_hour(self) -> float | None:
        return sentences_per_hour(self.done, self.seconds)

    @property
    def pace(self) -> float | None:
        return seconds_per_candidate(self.done, self.seconds)

    @property
    def remaining(self) -> int | None:
        """What the judge has left: of their work, or where the work is split, of the
        batch they hold (None: they hold none)."""
        if self.batches is not None:
            return self.batches.left
        return None if self.to_do is None else max(0, self.to_do - self.done)

    @property
    def seconds_to_finish(self) -> float | None:
        """The remaining candidates (of the judge's batch, where the work is split) at the
        judge's pace so far; None before any measured time (no pace to extrapolate), 0
        when nothing remains."""
        if self.remaining == 0:
            return 0.0
        if self.remaining is None or self.done == 0 or self.seconds <= 0:
            return None
        return self.remaining * self.seconds / self.done


@dataclass(frozen=True)
class Campaign:
    """A corpus's campaign: its judges, its systems and its progress."""

    corpus: Corpus
    systems: tuple[str, ...]
    judges: tuple[JudgeProgress, ...]
    #: The evaluators (ids) the lead left out of every figure (``Corpus.excluded_judges``).
    left_out: frozenset[int] = frozenset()

    @property
    def done(self) -> int:
        """Done judgments of the assigned judges (``with_judges_progress``)."""
        return int(self.corpus.n_judges_done)  # type: ignore[attr-defined]

    @property
    def to_do(self) -> int:
        return int(self.corpus.n_judges_assigned)  # type: ignore[attr-defined]

    @property
    def share(self) -> float | None:
        return self.done / self.to_do if self.to_do else None

    @property
    def all_done(self) -> int:
        """Every done judgment of the corpus by anyone not left out: what the figures count."""
        return sum(j.done for j in self.judges if j.user_id not in self.left_out)

    @property
    def pace(self) -> float | None:
        """Active seconds per done judgment of everyone counted (None before any)."""
        counted = [j for j in self.judges if j.user_id not in self.left_out]
        return seconds_per_candidate(sum(j.done for j in counted), sum(j.seconds for j in counted))

    @property
    def left_out_judges(self) -> tuple[JudgeProgress, ...]:
        return tuple(j for j in self.judges if j.user_id in self.left_out)


def _batches(judge: Any) -> AnnotatorBatches:
    """A judge's batches from their row annotated with ``judge_batch_annotations``."""
    counts = judge._asdict()
    return batches_of(counts, done_apart=judge.done_apart, done_in_open=judge.done_in_open)


def campaign_of(corpus: Corpus) -> Campaign:
    """The campaign of ``corpus``, read with ``Corpus.objects.with_judges_progress()``."""
    rows = (
        corpus.translators.filter(role=Translator.Role.SYSTEM)
        .order_by("position")
        .values_list("pk", "name", named=True)
    )
    systems = list(rows)
    column = {s.pk: k for k, s in enumerate(systems)}
    system_names = [s.name for s in systems]
    done: dict[int, int] = defaultdict(int)
    seconds: dict[int, float] = defaultdict(float)
    cells: dict[int, list[int]] = defaultdict(lambda: [0] * len(systems))
    cell_seconds: dict[int, list[float]] = defaultdict(lambda: [0.0] * len(systems))
    names: dict[int, str] = {}
    for row in Judgment.objects.counted().of_corpus(corpus.pk).per_evaluator_and_translator():
        user = row["evaluator_id"]
        names[user] = row["username"]
        done[user] += row["n"]
        seconds[user] += row["seconds"]
        cells[user][column[row["translator_id"]]] += row["n"]
        cell_seconds[user][column[row["translator_id"]]] += row["seconds"]
    split = corpus.campaign.splits_work
    batches = judge_batch_annotations(corpus.pk) if split else {}
    assigned = (
        corpus.judges.order_by("username")
        .annotate(**batches)
        .values_list("pk", "username", "is_active", "must_change_password", *batches, named=True)
    )
    judges = [
        JudgeProgress(
            user_id=j.pk,
            username=j.username,
            assigned=True,
            is_active=j.is_active,
            must_change_password=j.must_change_password,
            done=done[j.pk],
            to_do=None if split else corpus.n_candidates,
            seconds=seconds[j.pk],
            per_system=tuple(zip(system_names, cells[j.pk], strict=True)),
            per_system_seconds=tuple(cell_seconds[j.pk]),
            batches=_batches(j) if split else None,
        )
        for j in assigned
    ]
    seen = {j.user_id for j in judges}
    judges += [
        JudgeProgress(
            user_id=user,
            username=name,
            assigned=False,
            is_active=None,
            must_change_password=False,
            done=done[user],
            to_do=None,
            seconds=seconds[user],
            per_system=tuple(zip(system_names, cells[user], strict=True)),
            per_system_seconds=tuple(cell_seconds[user]),
        )
        for user, name in sorted(names.items(), key=lambda item: item[1])
        if user not in seen
    ]
    left_out = frozenset(corpus.excluded_judges.values_list("pk", flat=True))
    return Campaign(
        corpus=corpus, systems=tuple(system_names), judges=tuple(judges), left_out=left_out
    )
