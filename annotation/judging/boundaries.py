"""Moving a word across a segment boundary of a system imported as one document (seed 002).

The re-segmentation (:mod:`annotation.resegmenting`) cuts where the references suggest; a
judge who reads that a word belongs to the next sentence moves it there. A move changes two
candidates together (the one judged and its neighbour in the document), so the words of
the document stay the same, in the same order: only the boundary moves.

A move is a change of the judge's judgment like any other (:func:`annotation.judging.
changes.judgment_move_word`): its event keeps the two candidates' texts before and after
(``before["candidates"]``, ``after["candidates"]``: target id → text), so undo and redo
move the boundary back and forth through the same stack
(:func:`annotation.judging.stack.walk`), which calls :func:`set_candidates` here.

What follows a move (:func:`set_candidates`, in the change's transaction): the two targets'
texts; their entries of the segmentation record (:func:`annotation.resegmenting.
segment_entry`); every judgment of the two candidates recounted against its own new
reference (a new reference is a correct translation whatever the candidate) and moved to
its next version, so a page showing the old candidate is refused as stale rather than
applying a click to words that moved; and what was computed from the texts
(:func:`annotation.changes.candidates_changed`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import F

from annotation.changes import candidates_changed
from annotation.judging.errors import ERR_MOVE_GONE, ChangeRefused
from annotation.models import Judgment, Target, Translator
from annotation.resegmenting import CONTEXT_WORDS, segment_entry
from annotation.text import REFERENCE_ROLES, new_ref_counts, reference_order, words
from annotation.under_spans import text_problem

#: The candidate's two boundaries, and what a move does at one of them.
EDGES = ("start", "end")
MOVES = ("give", "take")

ERR_NOT_RESEGMENTED = (
    "only the candidates of a system imported as one document have boundaries to move"
)
ERR_EDGE = "no such move: {edge!r} {move!r} (edge start or end, move give or take)"
ERR_NO_NEIGHBOUR = {
    "start": "this is the first sentence: there is no boundary before it",
    "end": "this is the last sentence: there is no boundary after it",
}
ERR_EMPTY = "the {which} candidate has no word to move"
ERR_CHANGED = (
    "the candidates on either side of this boundary changed meanwhile (another judge "
    "moved a word): the page now shows them as they are"
)


@dataclass(frozen=True)
class Neighbours:
    """The candidates of the same system just before and after a judged one (None at the
    document's ends), for the page's context and the moves."""

    previous: Target | None
    following: Target | None

    @property
    def before(self) -> tuple[str, ...]:
        """The previous candidate's last words, as the page shows them before this one."""
        return () if self.previous is None else words(self.previous.text)[-CONTEXT_WORDS:]

    @property
    def after(self) -> tuple[str, ...]:
        """The next candidate's first words, as the page shows them after this one."""
        return () if self.following is None else words(self.following.text)[:CONTEXT_WORDS]


def neighbours(target: Target) -> Neighbours:
    """One query: the system's targets of the sentences before and after ``target``'s."""
    position = target.sentence.position
    found = {
        t.sentence.position: t
        for t in Target.objects.filter(
            translator_id=target.translator_id,
            sentence__position__in=(position - 1, position + 1),
        ).select_related("sentence")
    }
    return Neighbours(found.get(position - 1), found.get(position + 1))


def moved_texts(target: Target, edge: str, move: str, *, word: str | None = None) -> dict[str, str]:
    """The texts (target id → text) of ``target`` and its neighbour across ``edge`` once a
    word has crossed it: ``give`` moves the candidate's first (``start``) or last (``end``)
    word to the neighbour, ``take`` brings the neighbour's nearest word over. ``word``:
    the word the judge saw on the button (None: not said); another word is not moved in
    its place (:data:`~annotation.judging.errors.ERR_MOVE_GONE`)."""
    if target.translator.segmentation is None:
        raise ChangeRefused(ERR_NOT_RESEGMENTED)
    if edge not in EDGES or move not in MOVES:
        raise ChangeRefused(ERR_EDGE.format(edge=edge, move=move))
    found = neighbours(target)
    neighbour = found.previous if edge == "start" else found.following
    if neighbour is None:
        raise ChangeRefused(ERR_NO_NEIGHBOUR[edge])
    own, other = list(words(target.text)), list(words(neighbour.text))
    giver, which = (own, "judged") if move == "give" else (other, "neighbouring")
    if not giver:
        raise ChangeRefused(ERR_EMPTY.format(which=which))
    first = (edge, move) in {("start", "give"), ("end", "take")}
    if word is not None and giver[0 if first else -1] != word:
        raise ChangeRefused(ERR_MOVE_GONE.format(word=word))
    if edge == "start" and move == "give":
        other.append(own.pop(0))
    elif edge == "start":
        own.insert(0, other.pop())
    elif move == "give":
        other.insert(0, own.pop())
    else:
        own.append(other.pop(0))
    return {str(target.pk): " ".join(own), str(neighbour.pk): " ".join(other)}


def set_candidates(texts: Mapping[str, str], *, judgment: Judgment) -> dict[str, str]:
    """Give two neighbouring targets ``texts`` (target id → text) and everything that
    follows (the module says what); return their texts before.

    Refused (:class:`ChangeRefused`) unless the two candidates hold the same words in the
    same order before and after: an undo after another judge moved one of their other
    boundaries would lose or duplicate a word; and while error spans mark either's
    characters (:mod:`annotation.under_spans`). Call it in the change's
    transaction.
    """
    ids = sorted(int(pk) for pk in texts)
    targets = list(
        Target.objects.select_for_update(of=("self",))
        .filter(pk__in=ids)
        .select_related("sentence")
        .order_by("sentence__position")
    )
    before = {str(t.pk): t.text for t in targets}
    if len(targets) != len(ids) or _document(before, targets) != _document(texts, targets):
        raise ChangeRefused(ERR_CHANGED)
    problem = text_problem(ids)  # an ESA or MQM judgment's spans mark these characters
    if problem is not None:
        raise ChangeRefused(problem)
    for t in targets:
        t.text = texts[str(t.pk)]
    Target.objects.bulk_update(targets, ["text"])
    _rescore_segments(targets)
    _recount_judgments(targets, judgment)
    candidates_changed(targets[0].sentence.corpus_id, targets)
    if str(judgment.target_id) in texts:
        judgment.target.text = texts[str(judgment.target_id)]
    return before


def _document(texts: Mapping[str, str], targets: list[Target]) -> list[str]:
    """The words of the candidates in sentence order, boundaries ignored."""
    return [w for t in targets for w in words(texts[str(t.pk)])]


def _rescore_segments(targets: list[Target]) -> None:
    """The moved segments' entries of the system's segmentation record: each scored
    against its sentence's references again (the best one may change)."""
    translator = Translator.objects.select_for_update().get(pk=targets[0].translator_id)
    refs: dict[int, list[tuple[tuple[bool, int], str]]] = {t.sentence_id: [] for t in targets}
    for sentence_id, role, position, text in Target.objects.filter(
        sentence_id__in=refs, translator__role__in=REFERENCE_ROLES
    ).values_list("sentence_id", "translator__role", "position", "text"):
        refs[sentence_id].append((reference_order(role, position), text))
    record = translator.segmentation
    assert record is not None  # noqa: S101 (checked by the move; kept by undo and redo)
    for t in targets:
        ordered = [text for _, text in sorted(refs[t.sentence_id])]
        record["segments"][t.sentence.position] = segment_entry(t.text, ordered)
    Translator.objects.filter(pk=translator.pk).update(segmentation=record)


def _recount_judgments(targets: list[Target], judgment: Judgment) -> None:
    """Every other judgment of the two candidates: its counts against the new candidate,
    and its next version (the judgment being changed gets both from its own write)."""
    text_of = {t.pk: t.text for t in targets}
    others = Judgment.objects.filter(target_id__in=text_of).exclude(pk=judgment.pk)
    for pk, target_id, new_ref in others.values_list("pk", "target_id", "new_ref"):
        counts = new_ref_counts(text_of[target_id], new_ref) if new_ref else {}
        Judgment.objects.filter(pk=pk).update(**counts, version=F("version") + 1)
