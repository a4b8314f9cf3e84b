"""What a judge's click does: one ``judgment_<action>`` function per button or key.

Seed 001 §3 is the rule book. The page shows the candidate aligned against the
judgment's *new reference* (13a words); every click is one of these functions, and each
one does the same three things:

1. **Check the version** the page was showing (:func:`~annotation.judging.stack.to_apply`).
   A click made on an older page than the stored judgment is refused
   (:class:`~annotation.judging.errors.StaleJudgment`: another tab changed it), unless it
   is the very request that made the latest change, sent again (a retry after a lost
   answer, a double submit), which is answered with the saved state. Only the judge who
   owns the judgment may change it (:class:`~annotation.judging.errors.NotYours`).
2. **Work out the new state** (``new_ref``, ``sser``, ``state``):

   * :func:`judgment_accept_op`: a click on a marked word of the candidate accepts the
     candidate's version there (:func:`~annotation.judging.edits.apply_op`: a
     substitution puts the candidate's word in place of the reference word, an extra
     word is inserted, a missing word "–" is removed from the new reference);
   * :func:`judgment_edit_word`: change, delete or insert beside one word of the new
     reference (:func:`~annotation.judging.edits.apply_word_edit`);
   * :func:`judgment_edit_ref`: rewrite the whole new reference;
   * :func:`judgment_use_ref`: take a reference of the pool as the new reference (an
     entry of this judgment's pool, nothing else);
   * :func:`judgment_accept_as_is`: the candidate is correct as it is (it becomes the
     new reference, one change);
   * :func:`judgment_set_note`: the judge's note and flag (garbled source, unsure,
     other), saved and undone as any other change;
   * :func:`judgment_move_word`: move a word across a boundary between two candidates of
     a system imported as one document (:mod:`annotation.judging.boundaries`);
   * :func:`judgment_set_sser`: score the candidate on the 0–10 scale (seed 001 §2.2);
   * :func:`judgment_finish`: mark the judgment done (an SSER score is required; where
     IER is on, the items as shown are kept: :mod:`annotation.judging.items`, which
     also holds IER's clicks);
     :func:`judgment_accept_next` ("accept & next") does it and opens the judge's next
     candidate;
   * :func:`judgment_undo`, :func:`judgment_redo`: step back or forward through every
     change.

   A click that makes no sense (a position outside the words, a score outside the
   scale) is refused with a :class:`~annotation.judging.errors.ChangeRefused` message.
3. **Save it** (:func:`~annotation.judging.stack.change`,
   :func:`~annotation.judging.stack.walk`): one conditional ``UPDATE … WHERE version =
   v`` moves the version by one and stores the state with its recounted aWER edits and
   the active time (:mod:`annotation.judging.active_time`), and one
   :class:`~annotation.models.JudgmentEvent` row records who, when, the state before and
   after. A change that changes nothing is not recorded; a new change empties the redo
   stack.

The view then shows the page again (:func:`annotation.judging.page.judging_context`)
with the new alignment, pool and live figures.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Length

from annotation.corpora.evaltrans import FLAGS, NOTE_MAX_LENGTH
from annotation.judging.boundaries import moved_texts
from annotation.judging.edits import OpRef, apply_op, apply_word_edit, find_op
from annotation.judging.errors import (
    ERR_FLAG,
    ERR_NO_ESA,
    ERR_NO_SSER,
    ERR_NOT_IN_POOL,
    ERR_OP_GONE,
    ERR_SSER_RANGE,
    ChangeRefused,
)
from annotation.judging.items import items_on_finish
from annotation.judging.page import judgment_pool
from annotation.judging.stack import Click, change, to_apply, walk
from annotation.judging.start import judgment_seen, next_judgment_for
from annotation.limits import length_problem, new_ref_limit, non_xml_char_problem
from annotation.models import Judgment, JudgmentEvent, Target, User
from annotation.text import corpus_language, readable_new_ref, readable_text, words
from metrics.align import Op, align
from metrics.human import SSER_MAX, SSER_MIN


def judgment_accept_op(
    *, judgment: Judgment, user: User, version: int, op: OpRef | str, at: datetime | None = None
) -> Judgment:
    """Accept the candidate's version at one edit operation (seed 001 §3, see the module).

    An operation named by its words (:class:`OpRef`) is looked for in the alignment as
    it is now (:func:`find_op`); one that is gone is refused
    (:data:`~annotation.judging.errors.ERR_OP_GONE`)."""
    op = OpRef.parse(op) if isinstance(op, str) else op
    click = Click(judgment, user, version, JudgmentEvent.Kind.ACCEPT_OP, {"op": op.token}, at)
    if not to_apply(click):
        return judgment
    candidate = words(judgment.candidate_text)
    ref = words(judgment.new_ref)
    if op.seen is not None:
        found = find_op(align(candidate, ref).ops, op)
        if found is None:
            raise ChangeRefused(ERR_OP_GONE.format(label=op.label))
        op = OpRef.of(found)
    detail = {
        **click.params,
        "word": candidate[op.hyp_pos] if op.op is not Op.MISSING else None,
        "ref_word": ref[op.ref_pos] if op.op is not Op.EXTRA else None,
    }
    return change(click, detail=detail, new_ref=_readable(judgment, apply_op(candidate, ref, op)))


def judgment_edit_word(
    *,
    judgment: Judgment,
    user: User,
    version: int,
    pos: int,
    action: str,
    text: str = "",
    word: str | None = None,
    at: datetime | None = None,
) -> Judgment:
    """Change or delete word ``pos`` of the new reference, or insert words beside it;
    ``word``: that word as the editor showed it (:func:`~annotation.judging.edits.
    apply_word_edit`)."""
    params: dict[str, object] = {"pos": pos, "action": action, "text": text}
    if word is not None:
        params["word"] = word
    click = Click(judgment, user, version, JudgmentEvent.Kind.EDIT_WORD, params, at)
    if not to_apply(click):
        return judgment
    _refuse_unkeepable(judgment, text)
    ref = words(judgment.new_ref)
    edited = apply_word_edit(ref, pos=pos, action=action, text=text, word=word)
    new_ref = _readable(judgment, edited)
    _refuse_unkeepable(judgment, new_ref)
    return change(click, new_ref=new_ref)


def judgment_edit_ref(
    *, judgment: Judgment, user: User, version: int, text: str, at: datetime | None = None
) -> Judgment:
    """Replace the new reference by ``text`` (stored as its 13a words read as text,
    :func:`~annotation.text.readable_new_ref`)."""
    return _set_new_ref(Click(judgment, user, version, JudgmentEvent.Kind.EDIT_REF, at=at), text)


def judgment_use_ref(
    *, judgment: Judgment, user: User, version: int, text: str, at: datetime | None = None
) -> Judgment:
    """Make a reference of the pool the new reference (the judge clicked it). Only an
    entry of this judgment's pool (:func:`~annotation.judging.page.judgment_pool`: a
    reference of the sentence shown to this judge, or a new reference pooled for this
    judgment) is taken; any other text is refused (:data:`~annotation.judging.errors.
    ERR_NOT_IN_POOL`, 422) and nothing is logged: the event says the judge took a pool
    entry, and the figures of pool use count on it. Typed text is an edit of the whole
    reference (:func:`judgment_edit_ref`)."""
    click = Click(judgment, user, version, JudgmentEvent.Kind.USE_REF, at=at)
    return _set_new_ref(click, text, only=_pool_words)


def _pool_words(judgment: Judgment) -> set[tuple[str, ...]]:
    return {entry.words for entry in judgment_pool(judgment)}


def judgment_accept_as_is(
    *, judgment: Judgment, user: User, version: int, at: datetime | None = None
) -> Judgment:
    """The candidate is correct as it is: it becomes the new reference (0 edits), in one
    change that one undo takes back. Faster than accepting every marked word, and than
    retyping the whole text; the SSER score stays the judge's to give."""
    click = Click(judgment, user, version, JudgmentEvent.Kind.AS_IS, at=at)
    if not to_apply(click):
        return judgment
    language = corpus_language(judgment.target.sentence.corpus)
    return change(click, new_ref=readable_text(judgment.candidate_text, language))


def judgment_set_note(
    *,
    judgment: Judgment,
    user: User,
    version: int,
    note: str,
    flag: str,
    at: datetime | None = None,
) -> Judgment:
    """Save the judge's ``note`` (one line, whitespace normalised: it is written as an
    attribute of the judgment's ``<eval>``) and ``flag`` (one of
    :data:`~annotation.corpora.evaltrans.FLAGS`, "" for none). A flag tells the lead why a
    judgment may not be what it seems (the source is garbled, the judge is unsure)
    without holding the judge up; refused when unknown, or when the note is too long or
    holds a character XML cannot carry."""
    if flag and flag not in FLAGS:
        raise ChangeRefused(ERR_FLAG.format(flag=flag, choices=", ".join(FLAGS)))
    note = " ".join(note.split())
    problem = non_xml_char_problem(note) or length_problem("the note", note, NOTE_MAX_LENGTH)
    if problem is not None:
        raise ChangeRefused(problem)
    params = {"note": note, "flag": flag}
    click = Click(judgment, user, version, JudgmentEvent.Kind.SET_NOTE, params, at)
    if not to_apply(click):
        return judgment
    return change(click, note=note, flag=flag)


def _set_new_ref(
    click: Click,
    text: str,
    *,
    only: Callable[[Judgment], Collection[tuple[str, ...]]] | None = None,
) -> Judgment:
    """The whole-text edit and the pool choice store the same thing, the normalised text
    (kept in the event's detail, which is what tells a repeated request apart): its 13a
    words read as text, so the same words are always stored as the same text. ``only``:
    the words the text may have (the pool's), asked once the click is known to be new."""
    _refuse_unkeepable(click.judgment, text)
    language = corpus_language(click.judgment.target.sentence.corpus)
    click = replace(click, params={"text": readable_text(text, language)})
    if not to_apply(click):
        return click.judgment
    if only is not None and words(text) not in only(click.judgment):
        raise ChangeRefused(ERR_NOT_IN_POOL)
    return change(click, new_ref=click.params["text"])


def _readable(judgment: Judgment, tokens: Sequence[str]) -> str:
    """The new reference made of ``tokens`` as it is stored: read as text in the corpus's
    language (:func:`~annotation.text.readable_new_ref`)."""
    return readable_new_ref(tokens, corpus_language(judgment.target.sentence.corpus))


def _refuse_unkeepable(judgment: Judgment, text: str) -> None:
    """Refuse (:class:`ChangeRefused`, 422) text for the new reference that could not be
    kept: a character XML cannot hold (the export would fail, PostgreSQL refuses NUL), or
    more than :func:`~annotation.limits.new_ref_limit` allows for the sentence. Checked on
    the raw text, before it is tokenized. The sentence's longest text is only read when
    the candidate alone does not already allow the length."""
    problem = non_xml_char_problem(text)
    if problem is None and len(text) > new_ref_limit(len(judgment.candidate_text)):
        longest = Target.objects.filter(sentence_id=judgment.target.sentence_id).aggregate(
            n=Max(Length("text"))
        )["n"]
        problem = length_problem("the new reference", text, new_ref_limit(longest or 0))
    if problem is not None:
        raise ChangeRefused(problem)


def judgment_move_word(
    *,
    judgment: Judgment,
    user: User,
    version: int,
    edge: str,
    move: str,
    word: str | None = None,
    at: datetime | None = None,
) -> Judgment:
    """Move a word across the candidate's ``start`` or ``end`` boundary (``give`` one of
    its own, ``take`` the neighbour's): a system imported as one document only
    (:mod:`annotation.judging.boundaries`). The new reference stays as it is. ``word``:
    the word the button named (None: not said), refused if another would move now."""
    params: dict[str, object] = {"edge": edge, "move": move}
    if word is not None:
        params["word"] = word
    click = Click(judgment, user, version, JudgmentEvent.Kind.MOVE_WORD, params, at)
    if not to_apply(click):
        return judgment
    return change(click, candidates=moved_texts(judgment.target, edge, move, word=word))


def judgment_set_sser(
    *, judgment: Judgment, user: User, version: int, sser: int, at: datetime | None = None
) -> Judgment:
    """Score the candidate on seed 001's 0–10 scale (10 perfect)."""
    if isinstance(sser, bool) or not isinstance(sser, int) or not SSER_MIN <= sser <= SSER_MAX:
        raise ChangeRefused(ERR_SSER_RANGE.format(value=sser))
    click = Click(judgment, user, version, JudgmentEvent.Kind.SET_SSER, {"sser": sser}, at)
    if not to_apply(click):
        return judgment
    return change(click, sser=sser)


def judgment_finish(
    *, judgment: Judgment, user: User, version: int, at: datetime | None = None
) -> Judgment:
    """Accept the judgment as it stands (state ``done``).

    An SSER score is required: a done judgment feeds both SSER and aWER. In an ESA
    corpus the 0–100 score is required instead; an MQM judgment needs nothing more (no
    span: a perfect candidate), nor stores IER's items, which its page does not show.
    """
    click = Click(judgment, user, version, JudgmentEvent.Kind.FINISH, at=at)
    if not to_apply(click):
        return judgment
    corpus = judgment.target.sentence.corpus
    if corpus.scores_esa and judgment.esa_score is None:
        raise ChangeRefused(ERR_NO_ESA)
    if corpus.marks_spans:
        return change(click, state=Judgment.State.DONE)
    if judgment.sser is None:
        raise ChangeRefused(ERR_NO_SSER)
    return change(click, state=Judgment.State.DONE, **items_on_finish(judgment))


def judgment_accept_next(
    *, judgment: Judgment, user: User, version: int, shown: bool, at: datetime | None = None
) -> Judgment | None:
    """Accept & next: :func:`judgment_finish`, then open the judge's next candidate of the
    corpus (:func:`~annotation.judging.start.next_judgment_for`), None when the judge has
    finished the corpus. ``shown``: the next candidate's page is shown in the answer, so
    its ``open`` event is recorded here (:func:`~annotation.judging.start.judgment_seen`).

    One transaction, so the button costs one commit rather than one per row written.
    """
    with transaction.atomic():
        judgment_finish(judgment=judgment, user=user, version=version, at=at)
        following = next_judgment_for(user=user, corpus=judgment.target.sentence.corpus)
        if following is not None and shown:
            judgment_seen(judgment=following, user=user, at=at)
    return following


def judgment_undo(
    *, judgment: Judgment, user: User, version: int, at: datetime | None = None
) -> Judgment:
    """Undo the latest applied change: restore its ``before`` state."""
    return walk(Click(judgment, user, version, JudgmentEvent.Kind.UNDO, at=at))


def judgment_redo(
    *, judgment: Judgment, user: User, version: int, at: datetime | None = None
) -> Judgment:
    """Redo the change undone last: restore its ``after`` state."""
    return walk(Click(judgment, user, version, JudgmentEvent.Kind.REDO, at=at))
