"""How each judge does on the control items: passed, pass rate, consistency, flagged.

A done control item *passes* when the judge gave the known answer (issue 11):

* a reference shown as a candidate: no edit left (its new reference is the candidate)
  and SSER 9 or 10 (:data:`REFERENCE_MIN_SSER`, seed 001 §2.2: "OK, only slight style
  errors" or "perfect");
* a candidate shown again: the same new reference as the judge's own judgment of it (13a
  words) and an SSER within :data:`REPEAT_SSER_SLACK` of it. These are also the judge's
  *consistency*;
* a candidate with injected errors (a "bad reference", :mod:`annotation.controls.
  degrade`): the injected errors left unaccepted, i.e. the new reference does not take
  the words they added (no more copies of a duplicated or brought-in word than the
  original candidate has, :func:`injected_left_out`), and an SSER below the judge's own
  SSER of the original candidate (0 where that is 0: nothing is below), or at most
  :data:`DEGRADED_MAX_SSER` while the original is not judged.

Each judge's **pass rate** is passed / done control items, **consistency** the share of
repeats passed; a judge whose pass rate is below the corpus's threshold
(``Corpus.control_pass_threshold``) is **flagged**. Pending control items are not
counted: only what the judge accepted. Read in one query (:func:`control_rows`);
:func:`judge_controls` is plain Python over the rows, so it is tested by hand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.db.models import OuterRef, Subquery

from annotation.controls.degrade import added_words
from annotation.models import Corpus, Judgment
from annotation.text import words
from metrics.human import SSER_MIN

#: A reference shown as a candidate is a correct translation: 9 ("OK, only slight style
#: errors") or 10 ("perfect") on seed 001's scale.
REFERENCE_MIN_SSER = 9
#: A candidate shown again passes with a score at most this far from the first one.
REPEAT_SSER_SLACK = 1
#: A candidate with injected errors, before the judge has scored its original: at best
#: "comprehensible, important syntactic errors" (seed 001 §2.2).
DEGRADED_MAX_SSER = 5


@dataclass(frozen=True)
class ControlRow:
    """One done control item and, for a repeat, the judge's judgment of the candidate
    as it stands now (``original_*``: None for a reference control)."""

    evaluator: str
    kind: str
    sser: int | None
    edits: int | None
    new_ref: str
    original_sser: int | None = None
    original_new_ref: str | None = None
    #: A bad reference's original candidate (its target's text) and its own text.
    candidate: str = ""
    shown_text: str = ""
    #: The dealt batch it was made in (a split campaign's; None outside any): the task,
    #: its batch (None: overlap items only) and copy.
    task: int | None = None
    batch: int | None = None
    copy: int | None = None

    @property
    def batch_name(self) -> str:
        """What the lead reads for its batch: "batch 12", "batch 12 (2nd annotator)",
        "overlap"."""
        if self.batch is None:
            return "overlap"
        return f"batch {self.batch}" + (f" ({self.copy + 1}. annotator)" if self.copy else "")


def injected_left_out(new_ref: str, original: str, shown: str) -> bool:
    """Whether ``new_ref`` leaves out what the errors added to ``original`` (giving
    ``shown``): for every added word, the new reference has no more copies of it than
    the original has (13a words)."""
    added = added_words(words(original), words(shown))
    mine = words(new_ref)
    return all(mine.count(w) <= words(original).count(w) for w in added)


def control_passed(row: ControlRow) -> bool:
    """Whether ``row`` gave the known answer (see the module)."""
    if row.kind == Judgment.Control.REFERENCE:
        return row.edits == 0 and row.sser is not None and row.sser >= REFERENCE_MIN_SSER
    if row.kind == Judgment.Control.REPEAT:
        if row.sser is None or row.original_sser is None or row.original_new_ref is None:
            return False
        same_ref = words(row.new_ref) == words(row.original_new_ref)
        return same_ref and abs(row.sser - row.original_sser) <= REPEAT_SSER_SLACK
    if row.kind == Judgment.Control.DEGRADED:
        if row.sser is None or not injected_left_out(row.new_ref, row.candidate, row.shown_text):
            return False
        if row.original_sser is None:
            return row.sser <= DEGRADED_MAX_SSER
        return row.sser < row.original_sser or row.sser == SSER_MIN
    raise ValueError(f"{row.kind!r} is not a kind of control item")


@dataclass(frozen=True)
class JudgeControls:
    """One judge's control items: done, passed; of them the repeats and the consistent
    repeats; ``threshold`` is the corpus's pass threshold in percent; of the control
    items, the bad references (candidates with injected errors) and those passed."""

    name: str
    done: int
    passed: int
    repeats: int
    consistent: int
    threshold: int
    bad_references: int = 0
    bad_references_passed: int = 0

    @property
    def pass_rate(self) -> float | None:
        """Passed / done control items, in percent (None before the first one)."""
        return 100 * self.passed / self.done if self.done else None

    @property
    def consistency(self) -> float | None:
        """Repeats with the same new reference and an SSER within 1, in percent."""
        return 100 * self.consistent / self.repeats if self.repeats else None

    @property
    def flagged(self) -> bool:
        """The pass rate is below the threshold (never before a control is done)."""
        return self.pass_rate is not None and self.pass_rate < self.threshold


def judge_controls(rows: Iterable[ControlRow], *, threshold: int) -> tuple[JudgeControls, ...]:
    """Every judge's :class:`JudgeControls` (by name) from their done control items."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for row in rows:
        passed = control_passed(row)
        mine = counts[row.evaluator]
        mine[0] += 1
        mine[1] += passed
        if row.kind == Judgment.Control.REPEAT:
            mine[2] += 1
            mine[3] += passed
        if row.kind == Judgment.Control.DEGRADED:
            mine[4] += 1
            mine[5] += passed
    out = []
    for name in sorted(counts):
        done, ok, repeats, consistent, bad, bad_ok = counts[name]
        out.append(JudgeControls(name, done, ok, repeats, consistent, threshold, bad, bad_ok))
    return tuple(out)


def batch_controls(rows: Iterable[ControlRow], *, threshold: int) -> tuple[JudgeControls, ...]:
    """Each dealt batch's control results (:class:`JudgeControls` named after the batch:
    :attr:`ControlRow.batch_name`), in batch order, from the control items made in one.
    Every batch holds controls at the corpus's rate (one run of items a sentence, each
    with as many), so where a campaign splits the work a batch's pass rate is what the
    lead reads before accepting it, as a crowd platform's task is."""
    dealt = [row for row in rows if row.task is not None]
    order = {row.batch_name: (row.batch is None, row.batch or 0, row.copy or 0) for row in dealt}
    named = [replace(row, evaluator=row.batch_name) for row in dealt]
    results = judge_controls(named, threshold=threshold)
    return tuple(sorted(results, key=lambda c: order[c.name]))


def control_rows(corpus: Corpus) -> list[ControlRow]:
    """The corpus's done control items in one query, each repeat and bad reference with
    its original (the judge's real judgment of the same candidate, read as a subquery)."""
    original = Judgment.objects.real().filter(
        target_id=OuterRef("target_id"), evaluator_id=OuterRef("evaluator_id")
    )
    rows = (
        Judgment.objects.controls()
        .done()
        .filter(target__sentence__corpus_id=corpus.pk)
        .order_by()
        .annotate(
            original_sser=Subquery(original.values("sser")[:1]),
            original_new_ref=Subquery(original.values("new_ref")[:1]),
        )
        .values_list(
            "evaluator__username",
            "control",
            "sser",
            "edits",
            "new_ref",
            "original_sser",
            "original_new_ref",
            "target__text",
            "shown_text",
            "task_id",
            "task__batch",
            "task__copy",
        )
    )
    return [ControlRow(*row) for row in rows]


def corpus_controls(corpus: Corpus) -> tuple[JudgeControls, ...]:
    """Every judge's control results in ``corpus``, flagged against its threshold."""
    return judge_controls(control_rows(corpus), threshold=corpus.control_pass_threshold)


def corpus_batch_controls(
    corpus: Corpus,
) -> tuple[tuple[JudgeControls, ...], tuple[JudgeControls, ...]]:
    """Every judge's and every dealt batch's control results in ``corpus`` (one query)."""
    rows = control_rows(corpus)
    threshold = corpus.control_pass_threshold
    return judge_controls(rows, threshold=threshold), batch_controls(rows, threshold=threshold)
