"""What the judge's page shows about one judgment: :func:`judging_context` (the candidate
and its edit operations against the new reference, the pool, the live figures, the
judge's order, undo/redo, the SSER scale) and :func:`judge_header` (corpus, system,
judge, progress).

The page of a judgment is gathered in two queries: the targets (this sentence's, and the
references of every sentence the judge has finished for this system) and the done
judgments (this sentence's pool and reuse candidates, and this system's figures). The
alignment is computed once per request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from annotation.judging.edits import OpRef
from annotation.judging.errors import NOTE_REUSED
from annotation.judging.figures import Judged, LiveFigures, live_figures
from annotation.judging.order import shuffled_systems
from annotation.judging.pool import (
    NO_REFERENCES,
    PoolRef,
    References,
    nearest_in_pool,
    ordered_references,
    pool_judgments,
    sentence_pool,
)
from annotation.judging.stack import load_stack
from annotation.models import SSER_MAX, SSER_MIN, Corpus, Judgment, Target, Translator
from annotation.text import REFERENCE_ROLES, words
from metrics.align import Alignment, Op, align

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

    @property
    def text(self) -> str:
        """What the button says: the candidate's word, or "–" where a word is missing."""
        return "–" if self.hyp_word is None else self.hyp_word


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
    figures: LiveFigures
    reuse_label: str | None
    order_index: int
    order_total: int
    can_undo: bool
    can_redo: bool
    sser_scale: list[dict[str, Any]] = field(default_factory=list)

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


def judging_context(judgment: Judgment) -> JudgingContext:
    """Gather the page of ``judgment``: alignment (computed once), pool, figures, order."""
    target = judgment.target
    targets = _targets(judgment)
    done = _done_judgments(judgment)
    refs_of = ordered_references(
        (r.sentence_id, r.translator__role, r.position, r.text)
        for r in targets
        if r.translator__role != Translator.Role.SYSTEM
    )
    order = shuffled_systems(
        _systems_here(targets, target.sentence_id),
        user_id=judgment.evaluator_id,
        sentence_id=target.sentence_id,
    )
    place_of = {t.pk: i + 1 for i, t in enumerate(order)}
    candidate = words(target.text)
    new_ref_words = words(judgment.new_ref)
    alignment = align(candidate, new_ref_words)
    # This sentence's rows are the pooled ones: the judge's other rows of this system are
    # other sentences (one target per system and sentence).
    here = [r for r in done if r.target__sentence_id == target.sentence_id]
    pool = sentence_pool(
        candidate, refs_of.get(target.sentence_id, NO_REFERENCES), [r.new_ref for r in here]
    )
    load_stack(judgment)
    return JudgingContext(
        judgment=judgment,
        candidate=candidate,
        new_ref_words=new_ref_words,
        alignment=alignment,
        ops=_shown_ops(alignment, new_ref_words),
        pool=pool,
        pool_shown=nearest_in_pool(pool),
        figures=_figures(judgment, done, refs_of),
        reuse_label=_reuse_label(judgment, here, candidate, place_of),
        order_index=place_of.get(target.pk, 0),
        order_total=len(order),
        can_undo=bool(judgment.stack_applied),
        can_redo=bool(judgment.stack_undone),
        sser_scale=[
            {"value": v, "label": SSER_LABELS.get(v, ""), "pressed": judgment.sser == v}
            for v in range(SSER_MAX, SSER_MIN - 1, -1)
        ],
    )


def _targets(judgment: Judgment) -> list[Any]:
    """Named rows of this sentence's targets and of the references of every sentence the
    judge has finished for this system (one query)."""
    target = judgment.target
    finished = Judgment.objects.done().filter(
        evaluator_id=judgment.evaluator_id, target__translator_id=target.translator_id
    )
    return list(
        Target.objects.filter(
            Q(sentence_id=target.sentence_id)
            | Q(
                sentence_id__in=finished.values("target__sentence_id"),
                translator__role__in=REFERENCE_ROLES,
            )
        ).values_list(
            "pk",
            "sentence_id",
            "translator_id",
            "translator__role",
            "translator__position",
            "ordinal",
            "position",
            "text",
            named=True,
        )
    )


def _done_judgments(judgment: Judgment) -> list[Any]:
    """Named rows of the done judgments the page reads, oldest first (one query): this
    sentence's pooled ones (:func:`~annotation.judging.pool.pool_judgments`) and the
    judge's others of this system (the figures)."""
    target = judgment.target
    pooled = pool_judgments(
        target=target,
        evaluator_id=judgment.evaluator_id,
        share=target.sentence.corpus.share_new_refs,
    )
    mine = Q(evaluator_id=judgment.evaluator_id, target__translator_id=target.translator_id)
    return list(
        Judgment.objects.done()
        .filter(pooled | mine)
        .exclude(pk=judgment.pk)
        .order_by("pk")
        .values_list(
            "evaluator_id",
            "target_id",
            "target__sentence_id",
            "target__translator_id",
            "target__text",
            "new_ref",
            "sser",
            "edits",
            "ref_length",
            named=True,
        )
    )


def _systems_here(targets: Sequence[Any], sentence_id: int) -> list[Target]:
    """The sentence's system targets (unsaved objects built from the rows), to be put in
    the judge's order."""
    out = []
    for r in targets:
        if r.sentence_id == sentence_id and r.translator__role == Translator.Role.SYSTEM:
            t = Target(
                pk=r.pk,
                sentence_id=r.sentence_id,
                translator_id=r.translator_id,
                ordinal=r.ordinal,
                text=r.text,
            )
            t.translator = Translator(
                pk=r.translator_id, position=r.translator__position, role=r.translator__role
            )
            out.append(t)
    return out


def _figures(
    judgment: Judgment, done: Sequence[Any], refs_of: dict[int, References]
) -> LiveFigures:
    """The live figures: the judge's other done judgments of this system, then this one."""
    target = judgment.target

    def references(sentence_id: int) -> tuple[str, ...]:
        return refs_of.get(sentence_id, NO_REFERENCES).texts

    mine = [
        Judged(r.target__text, references(r.target__sentence_id), r.edits, r.ref_length, r.sser)
        for r in done
        if r.evaluator_id == judgment.evaluator_id
        and r.target__translator_id == target.translator_id
        and r.target_id != target.pk
    ]
    current = Judged(
        target.text,
        references(target.sentence_id),
        judgment.edits,
        judgment.ref_length,
        judgment.sser,
    )
    return live_figures([*mine, current])


def _reuse_label(
    judgment: Judgment, here: Sequence[Any], candidate: tuple[str, ...], place_of: dict[int, int]
) -> str | None:
    """Which candidate of this sentence a pending judgment was pre-filled from (the judge's
    latest done judgment of an identical candidate), while it is unchanged since."""
    if judgment.state != Judgment.State.PENDING:
        return None
    for r in reversed(here):
        if r.evaluator_id == judgment.evaluator_id and words(r.target__text) == candidate:
            if r.new_ref == judgment.new_ref and r.sser == judgment.sser:
                return f"candidate {place_of.get(r.target_id, '?')} of this sentence"
            return None
    return None


@dataclass(frozen=True)
class JudgeHeader:
    corpus: Corpus
    translator_label: str
    judge: str
    sentence_number: int
    sentence_total: int
    done: int
    total: int


def judge_header(judgment: Judgment) -> JudgeHeader:
    """Corpus, translator ("System N" in a blind corpus), judge and position."""
    target = judgment.target
    corpus = target.sentence.corpus
    translator = target.translator
    if corpus.blind:
        rank = corpus.translators.filter(
            role=Translator.Role.SYSTEM, position__lt=translator.position
        ).count()
        label = f"System {rank + 1}"
    else:
        label = translator.name
    progress = Corpus.objects.filter(pk=corpus.pk).with_progress(judgment.evaluator)
    counts = progress.values("n_sentences", "n_candidates", "n_done").get()
    return JudgeHeader(
        corpus=corpus,
        translator_label=label,
        judge=judgment.evaluator.get_username(),
        sentence_number=target.sentence.position + 1,
        sentence_total=counts["n_sentences"],
        done=counts["n_done"],
        total=counts["n_candidates"],
    )
