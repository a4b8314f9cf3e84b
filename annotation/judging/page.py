"""What the judge's page shows about one judgment: :func:`judging_context` (the candidate
and its edit operations against the new reference, the pool, the live figures, the
judge's order, undo/redo, the SSER scale); the header (corpus, system, judge,
progress) is :mod:`annotation.judging.header`'s.

The page of a judgment is gathered in two queries whatever the corpus size and however
far the judge has got: the done judgments (this sentence's pool and reuse candidates,
and the human counts of the judge's others of this system, for the figures) and the
targets (this sentence's, plus the texts of any judged target whose statistics this
process has not computed yet: :func:`annotation.statistics.live.segment_stats` keeps
them). The alignment is computed once per request. Where the corpus hides the live
figures from judges (``Corpus.shows_live_figures``), none of their rows is read or
computed, and the done judgments are this sentence's only.

A control item (:mod:`annotation.controls`) is drawn as a candidate is. With controls
on, "candidate k of N" is the item's place in its sentence's run of the judge's queue,
controls included (:mod:`annotation.controls.runs`; read from arithmetic and the
sentences' spans, kept per process), and a blind corpus's label is the item's label in
that run; the reference a run would show as a control is left out of the pool of every
item of the sentence, in every run alike. A reference shown as a candidate carries the
live figures of the system it is shown as (``Judgment.shown_as``); a candidate with
injected errors is drawn from its own text (``Judgment.shown_text``), whose statistics
are kept under minus the judgment's pk (never its target's); a candidate shown again (a
repeat made before repeats were retired) is drawn as it was the first time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from annotation.controls.api import (
    Placement,
    RunItem,
    control_kinds,
    run_items,
    run_spans,
)
from annotation.dealt import task_holds
from annotation.judging.boundaries import Neighbours, neighbours
from annotation.judging.edits import OpRef
from annotation.judging.errors import NOTE_REUSED
from annotation.judging.figures import (
    LiveFigures,
    candidate_awer,
    judge_figures,
    known_statistics,
    page_statistics,
)
from annotation.judging.header import shown_as_id
from annotation.judging.items import ShownIer, shown_ier
from annotation.judging.page_rows import document_context, done_judgments, page_targets
from annotation.judging.pool import (
    NO_REFERENCES,
    PoolRef,
    References,
    nearest_in_pool,
    ordered_references,
    pooled_references,
    sentence_pool,
    shown_words,
)
from annotation.judging.stack import load_stack
from annotation.models import Judgment, Translator
from annotation.queue_order import shuffled_systems
from annotation.spans import MINOR, severity_of
from annotation.text import REFERENCE_ROLES, reference_order, words
from metrics.align import Alignment, Op, align
from metrics.human import SSER_MAX, SSER_MIN

#: Seed 001 §2.2 and Figure 1 name these points of the 0–10 scale.
SSER_LABELS = {
    10: "perfect",
    9: "OK, only slight style errors",
    5: "comprehensible, important syntactic errors",
    4: "bad",
    1: "some of the content conveyed",
    0: "nonsense",
}


@dataclass(frozen=True)
class ShownOp:
    """One word of the candidate as the page draws it."""

    op: str
    token: str
    hyp_word: str | None
    ref_word: str | None
    title: str
    #: The error's severity (:mod:`annotation.spans`): minor unless the judge marked it.
    severity: str = MINOR

    @property
    def text(self) -> str:
        """What the button says: the candidate's word, or "–" where a word is missing."""
        return "–" if self.hyp_word is None else self.hyp_word

    @property
    def inline(self) -> str:
        """What the page prints under the word, so no judge has to hover: the reference
        word of a substitution or a missing word, "keep" for an extra word (a click keeps
        it: it goes into the new reference)."""
        return "keep" if self.ref_word is None else self.ref_word


@dataclass
class JudgingContext:
    """Everything the judge's page shows about one judgment (two queries to build)."""

    judgment: Judgment
    candidate: tuple[str, ...]
    new_ref_words: tuple[str, ...]
    alignment: Alignment
    ops: list[ShownOp]
    pool: list[PoolRef]
    pool_shown: list[PoolRef]
    #: The system's live figures; None where the corpus hides them from judges.
    figures: LiveFigures | None
    reuse_label: str | None
    order_index: int
    order_total: int
    can_undo: bool
    can_redo: bool
    sser_scale: list[dict[str, Any]] = field(default_factory=list)
    #: A system imported as one document: the candidates around this one, whose words
    #: the judge may move across the boundary (None for any other system).
    neighbours: Neighbours | None = None
    #: The sources before and after this one in its document (None at its ends, and for
    #: a sentence without a ``doc``, which is a document of its own).
    source_before: str | None = None
    source_after: str | None = None
    flags: list[tuple[str, str]] = field(default_factory=lambda: Judgment.Flag.choices)
    #: IER's items (:mod:`annotation.judging.items`), None where the corpus has IER off.
    ier: ShownIer | None = None
    #: Where the item stands in its sentence's run of the judge's queue, controls
    #: included (:mod:`annotation.controls.runs`): None while controls are off.
    run_item: RunItem | None = None

    @property
    def candidate_awer(self) -> str:
        """This candidate's own aWER (its edits over its new reference's words), which
        the judge sees whether or not the corpus shows the system's figures."""
        return candidate_awer(self.judgment.edits, self.judgment.ref_length)

    @property
    def reuse_note(self) -> str | None:
        return None if self.reuse_label is None else NOTE_REUSED.format(label=self.reuse_label)


def _shown_ops(alignment: Alignment, ref: Sequence[str]) -> list[ShownOp]:
    """The candidate's words with their operations, and a tooltip saying what a click does."""
    out = []
    for e in alignment.ops:
        if e.op is Op.SUBSTITUTION:
            title = (
                f"Substitution: the reference has “{e.ref_word}” here. "
                f"Click to accept “{e.hyp_word}” in the new reference."
            )
        elif e.op is Op.EXTRA:
            where = f"before “{ref[e.ref_pos]}”" if e.ref_pos < len(ref) else "at its end"
            title = (
                f"Extra word: the reference has nothing here ({where}). "
                f"Click to insert “{e.hyp_word}” into the new reference."
            )
        elif e.op is Op.MISSING:
            title = (
                f"Missing: the reference word “{e.ref_word}” is not in the candidate. "
                "Click to remove it from the new reference."
            )
        else:
            title = ""
        out.append(ShownOp(e.op.value, OpRef.of(e).token, e.hyp_word, e.ref_word, title))
    return out


def _with_severities(ops: list[ShownOp], alignment: Alignment, judgment: Judgment) -> list[ShownOp]:
    """The shown operations with the severities the judge gave them (one per alignment
    operation, in order; :func:`annotation.spans.severity_of`)."""
    if not judgment.severities:
        return ops
    return [
        replace(o, severity=severity_of(e, judgment.severities))
        for o, e in zip(ops, alignment.ops, strict=True)
    ]


def judging_context(judgment: Judgment) -> JudgingContext:
    """Gather the page of ``judgment``: alignment (computed once), pool, figures, order.

    Two queries read what the builders below build from: the done judgments, then the
    targets (whose second part is the targets whose statistics the live figures still
    miss: :func:`~annotation.judging.figures.known_statistics`)."""
    target = judgment.target
    shows_figures = target.sentence.corpus.shows_live_figures
    done = done_judgments(judgment, for_figures=shows_figures)
    here = [r for r in done if r.pooled]
    mine = [r for r in done if not r.pooled]
    known = known_statistics(judgment, mine, shows_figures=shows_figures)
    targets = page_targets(judgment, {t: known.sentence_of[t] for t in known.missing if t > 0})
    text_of = {r.pk: r.text for r in targets}
    text_of[known.stats_id] = judgment.candidate_text
    refs_of = _references_of(targets)
    place = _place_in_order(judgment, targets)
    # A reference shown as a candidate is compared with the sentence's other references
    # (its pool and its live figures): against itself it would score perfect. The judge's
    # every item of the sentence lacks one as well (same pool, same count).
    references = refs_of.get(target.sentence_id, NO_REFERENCES)
    references = _pooled_references(judgment, references)
    stats = page_statistics(known, refs_of, references, text_of)
    candidate = words(judgment.candidate_text)
    new_ref_words = words(judgment.new_ref)
    alignment = align(candidate, new_ref_words)
    pool = _pool_shown(judgment, candidate, references, here, place, text_of)
    controls = _page_controls(judgment)
    context = document_context(target.sentence)
    degraded = judgment.control == Judgment.Control.DEGRADED
    segmented = target.translator.segmentation is not None and not degraded
    return JudgingContext(
        judgment=judgment,
        candidate=candidate,
        new_ref_words=new_ref_words,
        alignment=alignment,
        ops=_with_severities(_shown_ops(alignment, new_ref_words), alignment, judgment),
        pool=pool.pool,
        pool_shown=pool.nearest,
        figures=judge_figures(judgment, known, mine, stats) if shows_figures else None,
        reuse_label=pool.reuse_label,
        order_index=place.index,
        order_total=place.total,
        can_undo=controls.can_undo,
        can_redo=controls.can_redo,
        sser_scale=controls.sser_scale,
        neighbours=neighbours(target) if segmented else None,
        source_before=context[0],
        source_after=context[1],
        ier=shown_ier(judgment, candidate),
        run_item=place.item,
    )


@dataclass(frozen=True)
class _Place:
    """Where the candidate stands in the judge's order ("candidate k of N"), where each
    item of the sentence does (by control kind and target id, for the reuse note), and
    the run's item it is (None while controls are off)."""

    index: int
    total: int
    place_of: dict[tuple[str, int], int]
    item: RunItem | None


def order_place(judgment: Judgment) -> tuple[int, int, RunItem | None]:
    """Where the candidate stands in the judge's order ("candidate k of N") and the run's
    item it is (None while controls are off), from this sentence's targets (one query):
    what a page without the aWER page's pool and figures (the ESA / MQM page) reads."""
    place = _place_in_order(judgment, page_targets(judgment, {}))
    return place.index, place.total, place.item


def undo_redo(judgment: Judgment) -> tuple[bool, bool]:
    """Whether the page's undo and redo buttons have something to do."""
    controls = _page_controls(judgment)
    return controls.can_undo, controls.can_redo


def _place_in_order(judgment: Judgment, targets: Sequence[Any]) -> _Place:
    order = _judge_order(judgment, targets)
    place_of, item = _place_in_run(judgment, order, targets)
    if item is not None:
        return _Place(item.number, item.total, place_of, item)
    # A reference shown as a candidate (controls mixed the old way) stands where the
    # system it is shown as stands.
    slot = next((r.pk for r in order if r.translator_id == shown_as_id(judgment)), 0)
    return _Place(place_of.get(("", slot), 0), len(order), place_of, None)


@dataclass(frozen=True)
class _PoolShown:
    """The candidate's pool (:mod:`annotation.judging.pool`), the nearest entries the
    page shows of it, and the item a pending judgment was pre-filled from."""

    pool: list[PoolRef]
    nearest: list[PoolRef]
    reuse_label: str | None


def _pool_shown(
    judgment: Judgment,
    candidate: tuple[str, ...],
    references: References,
    here: Sequence[Any],
    place: _Place,
    text_of: dict[int, str],
) -> _PoolShown:
    pool = sentence_pool(candidate, references, [r.new_ref for r in here])
    reuse = _reuse_label(judgment, here, candidate, place.place_of, text_of)
    return _PoolShown(pool, nearest_in_pool(pool), reuse)


@dataclass(frozen=True)
class _Controls:
    """The page's undo and redo buttons and its SSER scale (the pressed score)."""

    can_undo: bool
    can_redo: bool
    sser_scale: list[dict[str, Any]]


def _page_controls(judgment: Judgment) -> _Controls:
    load_stack(judgment)
    return _Controls(
        can_undo=bool(judgment.stack_applied),
        can_redo=bool(judgment.stack_undone),
        sser_scale=[
            {"value": v, "label": SSER_LABELS.get(v, ""), "pressed": judgment.sser == v}
            for v in range(SSER_MAX, SSER_MIN - 1, -1)
        ],
    )


def _judge_order(judgment: Judgment, targets: Sequence[Any]) -> list[Any]:
    """The sentence's candidates (of the page's target rows) in the judge's order: those
    of the judgment's batch, where it was made in one (:func:`annotation.dealt.
    task_holds`; no query, its row is read with the judgment's)."""
    sentence = judgment.target.sentence
    sentence_id, task = sentence.pk, judgment.task
    return shuffled_systems(
        [
            r
            for r in targets
            if r.sentence_id == sentence_id
            and r.translator__role == Translator.Role.SYSTEM
            and (task is None or task_holds(task, position=sentence.position, target_id=r.pk))
        ],
        user_id=judgment.evaluator_id,
        sentence_id=sentence_id,
        place=lambda r: (r.translator__position, r.ordinal, r.pk),
    )


def _place_in_run(
    judgment: Judgment, order: Sequence[Any], targets: Sequence[Any]
) -> tuple[dict[tuple[str, int], int], RunItem | None]:
    """Where each item of the judge's run of the sentence stands ("candidate k"), by
    (control kind, target id): a control's target may be a candidate's too (a bad
    reference); and the run's item this judgment is (None while controls are off)."""
    target = judgment.target
    run = _run(judgment, [t.pk for t in order], targets)
    if not run:
        return {("", t.pk): k + 1 for k, t in enumerate(order)}, None
    item = next((i for i in run if (i.kind, i.target) == (judgment.control, target.pk)), None)
    return {(i.kind, i.target): i.number for i in run}, item


def judgment_pool(judgment: Judgment) -> list[PoolRef]:
    """Every entry of ``judgment``'s pool as its page draws it (:func:`judging_context`,
    which shows the nearest), without the rest of the page: what the judge's click on the
    pool may take (:func:`~annotation.judging.changes.judgment_use_ref`). Two queries:
    the sentence's targets, and its pooled judgments."""
    target = judgment.target
    targets = page_targets(judgment, {})
    references = _references_of(targets).get(target.sentence_id, NO_REFERENCES)
    here = done_judgments(judgment, for_figures=False)
    return sentence_pool(
        words(judgment.candidate_text),
        _pooled_references(judgment, references),
        [r.new_ref for r in here],
    )


def _references_of(targets: Sequence[Any]) -> dict[int, References]:
    """The references of each sentence of the page's target rows, in reference order."""
    return ordered_references(
        (r.sentence_id, r.translator__role, r.position, r.text)
        for r in targets
        if r.translator__role != Translator.Role.SYSTEM
    )


def _pooled_references(judgment: Judgment, references: References) -> References:
    """The references of ``judgment``'s sentence that join its pool
    (:func:`~annotation.judging.pool.pooled_references`)."""
    target = judgment.target
    return pooled_references(
        references,
        corpus=target.sentence.corpus,
        user_id=judgment.evaluator_id,
        sentence_id=target.sentence_id,
        shown=target.text if judgment.control == Judgment.Control.REFERENCE else None,
    )


def _run(judgment: Judgment, order: list[int], targets: Sequence[Any]) -> list[RunItem]:
    """The items of the run of ``judgment``'s sentence in the judge's queue, candidates
    and controls (:func:`annotation.controls.runs.run_items`, by target id; ``order``:
    the sentence's candidates in the judge's order, ``targets``: the page's target rows).
    Empty while the corpus has controls off (no query) or its sentences are unknown.
    The runs of a batch's judgment are the batch's (:func:`annotation.controls.runs.
    task_queue`)."""
    target = judgment.target
    corpus = target.sentence.corpus
    if not corpus.controls_enabled:
        return []
    span = run_spans(corpus, judgment.task).get(target.sentence_id)
    if span is None:
        return []
    references = [
        r.pk
        for r in sorted(
            (
                r
                for r in targets
                if r.sentence_id == target.sentence_id and r.translator__role in REFERENCE_ROLES
            ),
            key=lambda r: reference_order(r.translator__role, r.position),
        )
    ]
    return run_items(
        Placement.of(corpus, judgment.evaluator_id),
        blind=corpus.blind,
        sentence_id=target.sentence_id,
        span=span,
        order=order,
        references=references,
        kinds=control_kinds(corpus),
    )


def _reuse_label(
    judgment: Judgment,
    here: Sequence[Any],
    candidate: tuple[str, ...],
    place_of: dict[tuple[str, int], int],
    text_of: dict[int, str],
) -> str | None:
    """Which item of this sentence a pending judgment was pre-filled from (the judge's
    latest done judgment of an identical candidate, a control item's as a real one's:
    :func:`annotation.judging.start.judgment_open`), while it is unchanged since."""
    if judgment.state != Judgment.State.PENDING:
        return None
    for r in reversed(here):
        shown = shown_words(text_of[r.target_id], r.shown_text)
        if r.evaluator_id == judgment.evaluator_id and shown == candidate:
            if r.new_ref == judgment.new_ref and r.sser == judgment.sser:
                return f"candidate {place_of.get((r.control, r.target_id), '?')} of this sentence"
            return None
    return None
