"""The judge's work on one candidate: click-to-accept aWER, SSER, undo/redo, live figures.

Seed 001 §3 is the rule book. The candidate is aligned against the judgment's *new
reference* (``metrics.align.align``, 13a words from ``annotation.text``); the judge clicks
an edit operation to accept the candidate's version there (:func:`judgment_accept_op`):

* a **substitution** puts the candidate's word into the new reference in place of the
  reference word;
* an **extra** candidate word is inserted into the new reference at that place;
* a **missing** reference word ("–" in the candidate) is removed from the new reference.

The new reference can also be edited word by word (:func:`judgment_edit_word`), rewritten
as a whole (:func:`judgment_edit_ref`) or replaced by a reference of the pool
(:func:`judgment_use_ref`). Every change is saved at once as one
:class:`~annotation.models.JudgmentEvent` row (who, when, state before and after) and moves
the judgment's ``version`` by one; a change that names another version than the stored
one is refused (:class:`StaleJudgment`), so two tabs never overwrite each other. The
version check and the update are one conditional ``UPDATE … WHERE version = v``. The one
exception is the very request that made the latest change, sent again (a retry after a
lost answer, a double submit): it is answered with the saved state (:func:`_to_apply`).

Undo and redo walk through every change: change events are ``applied``, ``undone`` (the
redo stack) or ``discarded`` (a new change empties the redo stack). Active time is
measured from the event timestamps (:mod:`annotation.judging.active_time`).

Writes are keyword-only ``judgment_<action>`` functions; reads are :func:`next_target_for`,
:func:`reference_pool`, :func:`live_figures` and :func:`judging_context`, which gathers
everything the page shows in two queries. Refusal messages are the module's ``ERR_*``
constants, which the tests reuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q

from annotation.judging.edits import OpRef, apply_op, apply_word_edit
from annotation.judging.errors import (
    ERR_NO_SSER,
    ERR_SSER_RANGE,
    NOTE_REUSED,
    ChangeRefused,
)
from annotation.judging.figures import Judged, LiveFigures, live_figures
from annotation.judging.order import shuffled_systems
from annotation.judging.pool import (
    NO_REFERENCES,
    PoolRef,
    nearest_in_pool,
    ordered_references,
    pool_judgments,
    sentence_pool,
)
from annotation.judging.stack import change, load_stack, to_apply, walk
from annotation.models import (
    SSER_MAX,
    SSER_MIN,
    Corpus,
    Judgment,
    JudgmentEvent,
    Target,
    Translator,
    User,
)
from annotation.text import (
    REFERENCE_ROLES,
    normalize_new_ref,
    words,
)
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


# --- the reference pool ----------------------------------------------------------------------


def reference_pool(judgment: Judgment) -> list[PoolRef]:
    """The whole pool of ``judgment``'s sentence, in pool order (see :func:`build_pool`)."""
    return judging_context(judgment).pool


# --- changes ---------------------------------------------------------------------------------


def judgment_accept_op(
    *, judgment: Judgment, user: User, version: int, op: OpRef | str, at: datetime | None = None
) -> Judgment:
    """Accept the candidate's version at one edit operation (seed 001 §3, see the module)."""
    op = OpRef.parse(op) if isinstance(op, str) else op
    kind = JudgmentEvent.Kind.ACCEPT_OP
    if not to_apply(judgment, user=user, version=version, kind=kind, request={"op": op.token}):
        return judgment
    candidate = words(judgment.target.text)
    ref = words(judgment.new_ref)
    new_ref = apply_op(candidate, ref, op)
    detail = {
        "op": op.token,
        "word": candidate[op.hyp_pos] if op.op is not Op.MISSING else None,
        "ref_word": ref[op.ref_pos] if op.op is not Op.EXTRA else None,
    }
    return change(
        judgment,
        user=user,
        version=version,
        kind=kind,
        at=at,
        detail=detail,
        new_ref=" ".join(new_ref),
    )


def judgment_edit_word(
    *,
    judgment: Judgment,
    user: User,
    version: int,
    pos: int,
    action: str,
    text: str = "",
    at: datetime | None = None,
) -> Judgment:
    """Change or delete word ``pos`` of the new reference, or insert words beside it."""
    kind, request = JudgmentEvent.Kind.EDIT_WORD, {"pos": pos, "action": action, "text": text}
    if not to_apply(judgment, user=user, version=version, kind=kind, request=request):
        return judgment
    new_ref = apply_word_edit(words(judgment.new_ref), pos=pos, action=action, text=text)
    return change(
        judgment,
        user=user,
        version=version,
        kind=kind,
        at=at,
        detail=request,
        new_ref=" ".join(new_ref),
    )


def _set_new_ref(
    judgment: Judgment, *, user: User, version: int, kind: str, text: str, at: datetime | None
) -> Judgment:
    """The whole-text edit and the pool choice store the same thing, the normalised text
    (kept in the event's detail, which is what tells a repeated request apart)."""
    request = {"text": normalize_new_ref(text)}
    if not to_apply(judgment, user=user, version=version, kind=kind, request=request):
        return judgment
    return change(
        judgment,
        user=user,
        version=version,
        kind=kind,
        at=at,
        detail=request,
        new_ref=request["text"],
    )


def judgment_edit_ref(
    *, judgment: Judgment, user: User, version: int, text: str, at: datetime | None = None
) -> Judgment:
    """Replace the new reference by ``text`` (normalised to its 13a words)."""
    return _set_new_ref(
        judgment, user=user, version=version, kind=JudgmentEvent.Kind.EDIT_REF, text=text, at=at
    )


def judgment_use_ref(
    *, judgment: Judgment, user: User, version: int, text: str, at: datetime | None = None
) -> Judgment:
    """Make a reference of the pool the new reference (the judge clicked it)."""
    return _set_new_ref(
        judgment, user=user, version=version, kind=JudgmentEvent.Kind.USE_REF, text=text, at=at
    )


def judgment_set_sser(
    *, judgment: Judgment, user: User, version: int, sser: int, at: datetime | None = None
) -> Judgment:
    """Score the candidate on seed 001's 0–10 scale (10 perfect)."""
    if isinstance(sser, bool) or not isinstance(sser, int) or not SSER_MIN <= sser <= SSER_MAX:
        raise ChangeRefused(ERR_SSER_RANGE.format(value=sser))
    kind, request = JudgmentEvent.Kind.SET_SSER, {"sser": sser}
    if not to_apply(judgment, user=user, version=version, kind=kind, request=request):
        return judgment
    return change(judgment, user=user, version=version, kind=kind, at=at, detail=request, sser=sser)


def judgment_finish(
    *, judgment: Judgment, user: User, version: int, at: datetime | None = None
) -> Judgment:
    """Accept the judgment as it stands (state ``done``); the view then opens the next one.

    An SSER score is required: a done judgment feeds both SSER and aWER.
    """
    kind = JudgmentEvent.Kind.FINISH
    if not to_apply(judgment, user=user, version=version, kind=kind, request={}):
        return judgment
    if judgment.sser is None:
        raise ChangeRefused(ERR_NO_SSER)
    return change(
        judgment,
        user=user,
        version=version,
        kind=kind,
        at=at,
        state=Judgment.State.DONE,
    )


def judgment_undo(
    *, judgment: Judgment, user: User, version: int, at: datetime | None = None
) -> Judgment:
    """Undo the latest applied change: restore its ``before`` state."""
    return walk(judgment, user=user, version=version, at=at, kind=JudgmentEvent.Kind.UNDO)


def judgment_redo(
    *, judgment: Judgment, user: User, version: int, at: datetime | None = None
) -> Judgment:
    """Redo the change undone last: restore its ``after`` state."""
    return walk(judgment, user=user, version=version, at=at, kind=JudgmentEvent.Kind.REDO)


# --- what the page shows ---------------------------------------------------------------------


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
    """Gather the page of ``judgment``: alignment (computed once), pool, figures, order.

    Two queries: the targets (this sentence's, and the references of every sentence the
    evaluator has finished for this translator) and the done judgments (this sentence's
    pool and reuse candidates, and this translator's figures).
    """
    owner_id = judgment.evaluator_id
    target = judgment.target
    sentence_id = target.sentence_id
    translator_id = target.translator_id
    corpus = target.sentence.corpus
    done = Judgment.objects.filter(state=Judgment.State.DONE)
    finished_sentences = done.filter(evaluator_id=owner_id, target__translator_id=translator_id)
    target_rows = list(
        Target.objects.filter(
            Q(sentence_id=sentence_id)
            | Q(
                sentence_id__in=finished_sentences.values("target__sentence_id"),
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
        )
    )
    here = pool_judgments(target=target, evaluator_id=owner_id, share=corpus.share_new_refs)
    judgment_rows = list(
        done.filter(here | Q(evaluator_id=owner_id, target__translator_id=translator_id))
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
        )
    )

    systems_here: list[Target] = []
    reference_rows = []
    for pk, sid, tid, role, tpos, ordinal, pos, text in target_rows:
        if role == Translator.Role.SYSTEM:
            if sid == sentence_id:
                t = Target(pk=pk, sentence_id=sid, translator_id=tid, ordinal=ordinal, text=text)
                t.translator = Translator(pk=tid, position=tpos, role=role)
                systems_here.append(t)
            continue
        reference_rows.append((sid, role, pos, text))
    refs_of = ordered_references(reference_rows)

    candidate = words(target.text)
    new_ref_words = words(judgment.new_ref)
    alignment = align(candidate, new_ref_words)

    # This sentence's rows are the pooled ones: the judge's other rows of this translator
    # are other sentences (one target per system and sentence).
    pool_new_refs = [r[5] for r in judgment_rows if r[2] == sentence_id]
    pool = sentence_pool(candidate, refs_of.get(sentence_id, NO_REFERENCES), pool_new_refs)

    order = shuffled_systems(systems_here, user_id=owner_id, sentence_id=sentence_id)
    place_of = {t.pk: i + 1 for i, t in enumerate(order)}

    reuse_label = None
    if judgment.state == Judgment.State.PENDING:
        for ev, tid, sid, _, text, new_ref, sser, _, _ in reversed(judgment_rows):
            if ev == owner_id and sid == sentence_id and words(text) == candidate:
                if new_ref == judgment.new_ref and sser == judgment.sser:  # not changed since
                    reuse_label = f"candidate {place_of.get(tid, '?')} of this sentence"
                break

    mine = [
        r for r in judgment_rows if r[0] == owner_id and r[3] == translator_id and r[1] != target.pk
    ]
    judged = [
        Judged(r[4], refs_of.get(r[2], NO_REFERENCES).texts, r[7], r[8], r[6]) for r in mine
    ] + [
        Judged(
            target.text,
            refs_of.get(sentence_id, NO_REFERENCES).texts,
            judgment.edits,
            judgment.ref_length,
            judgment.sser,
        )
    ]
    figures = live_figures(judged)
    load_stack(judgment)
    return JudgingContext(
        judgment=judgment,
        candidate=candidate,
        new_ref_words=new_ref_words,
        alignment=alignment,
        ops=_shown_ops(alignment, new_ref_words),
        pool=pool,
        pool_shown=nearest_in_pool(pool),
        figures=figures,
        reuse_label=reuse_label,
        order_index=place_of.get(target.pk, 0),
        order_total=len(order),
        can_undo=bool(judgment.stack_applied),
        can_redo=bool(judgment.stack_undone),
        sser_scale=[
            {"value": v, "label": SSER_LABELS.get(v, ""), "pressed": judgment.sser == v}
            for v in range(SSER_MAX, SSER_MIN - 1, -1)
        ],
    )


# --- header and home page --------------------------------------------------------------------


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
