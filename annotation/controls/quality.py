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

In an ESA or MQM corpus the judge gives a score, not a new reference: its bad
references and repeats pass by their scores against the original's, within what the
lead sets (:mod:`annotation.controls.scored`), and one whose original the judge has not
accepted yet waits, counted nowhere. MQM's scores are the judge's spans' points (one
more query, for the spans).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace

from django.db.models import OuterRef, Subquery

from annotation.controls.degrade import added_words
from annotation.controls.scored import ScoreRule, score_rule, scored_control_passed
from annotation.models import Corpus, Judgment, Span
from annotation.text import words
from metrics.human import SSER_MIN
from metrics.mqm import segment_points

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
    #: An ESA / MQM control's score and the judge's accepted score of the original
    #: (ESA's 0–100, MQM's penalty points; None: not scored, not accepted yet).
    score: float | None = None
    original_score: float | None = None

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


def row_passed(row: ControlRow, rule: ScoreRule | None) -> bool | None:
    """Whether ``row`` passed: by the corpus's score ``rule`` in an ESA / MQM corpus
    (None while it awaits its original), else :func:`control_passed`."""
    if rule is None:
        return control_passed(row)
    return scored_control_passed(row.kind, row.score, row.original_score, rule)


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
        """Repeats passed (aWER: the same new reference and an SSER within 1; ESA / MQM:
        a score within the corpus's tolerance), in percent."""
        return 100 * self.consistent / self.repeats if self.repeats else None

    @property
    def flagged(self) -> bool:
        """The pass rate is below the threshold (never before a control is done)."""
        return self.pass_rate is not None and self.pass_rate < self.threshold


def judge_controls(
    rows: Iterable[ControlRow], *, threshold: int, rule: ScoreRule | None = None
) -> tuple[JudgeControls, ...]:
    """Every judge's :class:`JudgeControls` (by name) from their done control items,
    by the score ``rule`` of an ESA / MQM corpus (:func:`row_passed`): a control awaiting
    its original counts nowhere yet."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for row in rows:
        passed = row_passed(row, rule)
        if passed is None:
            continue
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


def batch_controls(
    rows: Iterable[ControlRow], *, threshold: int, rule: ScoreRule | None = None
) -> tuple[JudgeControls, ...]:
    """Each dealt batch's control results (:class:`JudgeControls` named after the batch:
    :attr:`ControlRow.batch_name`), in batch order, from the control items made in one.
    Every batch holds controls at the corpus's rate (one run of items a sentence, each
    with as many), so where a campaign splits the work a batch's pass rate is what the
    lead reads before accepting it, as a crowd platform's task is."""
    dealt = [row for row in rows if row.task is not None]
    order = {row.batch_name: (row.batch is None, row.batch or 0, row.copy or 0) for row in dealt}
    named = [replace(row, evaluator=row.batch_name) for row in dealt]
    results = judge_controls(named, threshold=threshold, rule=rule)
    return tuple(sorted(results, key=lambda c: order[c.name]))


def control_rows(corpus: Corpus, judges: Collection[str] | None = None) -> list[ControlRow]:
    """The corpus's done control items in one query (of ``judges`` only, by username, if
    given), each repeat and bad reference with its original (the judge's real judgment
    of the same candidate, read as a subquery); in an ESA / MQM corpus with their scores
    (:func:`_scored`)."""
    original = Judgment.objects.real().filter(
        target_id=OuterRef("target_id"), evaluator_id=OuterRef("evaluator_id")
    )
    accepted = original.done()
    mine = Judgment.objects.controls().done().filter(target__sentence__corpus_id=corpus.pk)
    if judges is not None:
        mine = mine.filter(evaluator__username__in=judges)
    rows = (
        mine.order_by()
        .annotate(
            original_sser=Subquery(original.values("sser")[:1]),
            original_new_ref=Subquery(original.values("new_ref")[:1]),
            original_pk=Subquery(accepted.values("pk")[:1]),
            original_esa=Subquery(accepted.values("esa_score")[:1]),
        )
        .values_list(
            "pk",
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
            "esa_score",
            "original_pk",
            "original_esa",
            named=True,
        )
    )
    read = list(rows)
    out = [
        ControlRow(
            evaluator=r.evaluator__username,
            kind=r.control,
            sser=r.sser,
            edits=r.edits,
            new_ref=r.new_ref,
            original_sser=r.original_sser,
            original_new_ref=r.original_new_ref,
            candidate=r.target__text,
            shown_text=r.shown_text,
            task=r.task_id,
            batch=r.task__batch,
            copy=r.task__copy,
        )
        for r in read
    ]
    if not corpus.marks_spans:
        return out
    return _scored(
        corpus, out, [Scores(r.pk, r.esa_score, r.original_pk, r.original_esa) for r in read]
    )


@dataclass(frozen=True)
class Scores:
    """What an ESA / MQM control's scores are read from: its pk and ESA score, and its
    original's where the judge accepted it (None where not)."""

    pk: int
    esa: int | None
    original_pk: int | None
    original_esa: int | None


def _scored(corpus: Corpus, rows: list[ControlRow], scores: list[Scores]) -> list[ControlRow]:
    """``rows`` with their scores (``scores``, read beside them): ESA's as read; MQM's
    the points of the judge's spans of each (one query)."""
    taxonomy = corpus.span_taxonomy
    if taxonomy is None:
        return [
            replace(row, score=s.esa, original_score=s.original_esa if s.original_pk else None)
            for row, s in zip(rows, scores, strict=True)
        ]
    ids = {s.pk for s in scores} | {s.original_pk for s in scores if s.original_pk is not None}
    errors: dict[int, list[tuple[str, str]]] = defaultdict(list)
    spans = Span.objects.filter(judgment_id__in=ids, origin=Span.Origin.JUDGE).order_by()
    for judgment, severity, category in spans.values_list("judgment_id", "severity", "category"):
        errors[judgment].append((severity, category))
    return [
        replace(
            row,
            score=segment_points(errors[s.pk], taxonomy),
            original_score=(
                None if s.original_pk is None else segment_points(errors[s.original_pk], taxonomy)
            ),
        )
        for row, s in zip(rows, scores, strict=True)
    ]


def corpus_controls(
    corpus: Corpus, judges: Collection[str] | None = None
) -> tuple[JudgeControls, ...]:
    """Every judge's control results in ``corpus`` (of ``judges`` only, by username, if
    given), flagged against its threshold."""
    return judge_controls(
        control_rows(corpus, judges),
        threshold=corpus.control_pass_threshold,
        rule=score_rule(corpus),
    )


def corpus_batch_controls(
    corpus: Corpus,
) -> tuple[tuple[JudgeControls, ...], tuple[JudgeControls, ...]]:
    """Every judge's and every dealt batch's control results in ``corpus`` (one query;
    in MQM one more, the spans)."""
    rows = control_rows(corpus)
    threshold, rule = corpus.control_pass_threshold, score_rule(corpus)
    return (
        judge_controls(rows, threshold=threshold, rule=rule),
        batch_controls(rows, threshold=threshold, rule=rule),
    )
