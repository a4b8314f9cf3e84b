"""Saving a change: the version check, the event row, the undo/redo stack.

Every change is saved at once as one :class:`~annotation.models.JudgmentEvent` row (who,
when, the state before and after) and moves the judgment's ``version`` by one. A change
that names another version than the stored one is refused
(:class:`~annotation.judging.errors.StaleJudgment`), so two tabs never overwrite each
other; the version check and the update are one conditional ``UPDATE … WHERE version =
v``. The one exception is the very request that made the latest change, sent again (a
retry after a lost answer, a double submit): it is answered with the saved state
(:func:`to_apply`). A change arrives as a :class:`Click`.

Change events are ``applied``, ``undone`` (the redo stack) or ``discarded`` (a new change
empties the redo stack); undo and redo walk through every change (:func:`walk`). The
stack's counts and heads are read with the judgment in one query (:func:`judgment_for`)
and kept current on the judgment object, so a click costs few queries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, models, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from annotation.campaigns.api import touch_task
from annotation.changes import judgment_changing
from annotation.ier import ier_counts
from annotation.judging.active_time import active_gap
from annotation.judging.boundaries import set_candidates
from annotation.judging.errors import (
    ERR_NOTHING_TO_REDO,
    ERR_NOTHING_TO_UNDO,
    ChangeRefused,
    NotYours,
    StaleJudgment,
)
from annotation.judging.span_rows import set_spans
from annotation.models import Corpus, Judgment, JudgmentEvent, User
from annotation.models.prepared import Prepared
from annotation.spans import live_severities
from annotation.text import new_ref_counts, words

#: The event kinds that walk the stack instead of adding a change to it.
WALKS = (JudgmentEvent.Kind.UNDO, JudgmentEvent.Kind.REDO)


def _stack_annotations() -> dict[str, RawSQL]:
    """What a change needs to know about a judgment's events, as subqueries of one SELECT:
    the last event's time, how many changes are applied and undone, and the heads of the
    undo and redo stacks (id and the state they restore).

    Written as SQL because the ORM spends milliseconds compiling seven correlated
    subqueries on every click, more than the database takes to run them; the columns are
    quoted by the connection, and the only parameters are the status values.
    """
    q = connection.ops.quote_name
    event, judgment = q(JudgmentEvent._meta.db_table), q(Judgment._meta.db_table)
    rows = f"FROM {event} e WHERE e.{q('judgment_id')} = {judgment}.{q('id')}"
    with_status = f"{rows} AND e.{q('status')} = %s"
    applied, undone = (JudgmentEvent.Status.APPLIED.value,), (JudgmentEvent.Status.UNDONE.value,)

    def head(column: str, order: str) -> str:
        return f"SELECT e.{q(column)} {with_status} ORDER BY e.{q('id')} {order} LIMIT 1"

    integer, json = models.IntegerField(), models.JSONField()
    return {
        "stack_last_event_at": RawSQL(
            f"SELECT MAX(e.{q('created_at')}) {rows}", (), output_field=models.DateTimeField()
        ),
        "stack_applied": RawSQL(f"SELECT COUNT(*) {with_status}", applied, output_field=integer),
        "stack_undone": RawSQL(f"SELECT COUNT(*) {with_status}", undone, output_field=integer),
        "stack_undo_id": RawSQL(head("id", "DESC"), applied, output_field=integer),
        "stack_undo_before": RawSQL(head("before", "DESC"), applied, output_field=json),
        "stack_redo_id": RawSQL(head("id", "ASC"), undone, output_field=integer),
        "stack_redo_after": RawSQL(head("after", "ASC"), undone, output_field=json),
    }


_STACK_FIELDS = (
    "stack_last_event_at",
    "stack_applied",
    "stack_undone",
    "stack_undo_id",
    "stack_undo_before",
    "stack_redo_id",
    "stack_redo_after",
)


def _judgment_query(pk: int, user_id: int, *, shape: bool) -> QuerySet[Judgment]:
    """:func:`judgment_for`'s query: the judgment ``pk`` with what a change needs, as a
    lead sees it (``shape`` True: any judgment, its evaluator joined) or as the judge
    ``user_id`` does (theirs only, and whether the corpus is assigned to them)."""
    qs = Judgment.objects.select_related(
        "target__sentence__corpus__campaign", "target__translator", "shown_as", "task"
    ).annotate(**_stack_annotations())
    if shape:
        return qs.select_related("evaluator").filter(pk=pk)
    assigned = Corpus.judges.through.objects.filter(
        corpus_id=OuterRef("target__sentence__corpus_id"), user_id=user_id
    )
    return qs.filter(pk=pk, evaluator_id=user_id).annotate(assigned=Exists(assigned))


#: Compiled once per process: building this query took the ORM more CPU than a click's
#: every other query (:mod:`annotation.models.prepared`).
_JUDGMENT = Prepared(_judgment_query)


def judgment_for(*, pk: int, user: User) -> Judgment:
    """The judgment ``pk`` as ``user`` may see it, with what a change needs, in one query.

    A judge sees only its own judgments in corpora still assigned to it (and not
    archived: :mod:`annotation.corpora.removal`); a lead sees
    every judgment (and may change only its own). Raises ``Judgment.DoesNotExist``.

    Whether the corpus is assigned is read as a column and checked here: as a condition
    of the query it makes PostgreSQL plan a seven-table join, milliseconds on every click.
    """
    found = _JUDGMENT(pk, user.pk, shape=user.is_lead)
    if not found:
        raise Judgment.DoesNotExist(f"No judgment {pk} for {user}.")
    judgment: Judgment = found[0]
    if user.is_lead:
        return judgment
    if not judgment.assigned or judgment.target.sentence.corpus.archived:  # type: ignore[attr-defined]
        raise Judgment.DoesNotExist(f"Judgment {pk} is in a corpus not assigned to {user}.")
    judgment.evaluator = user  # the judge's own: no join to read it back
    return judgment


def load_stack(judgment: Judgment, *, heads: bool = False) -> None:
    """Read the stack fields into ``judgment`` unless the loading query already did.

    The counts and the last event time are kept current by every write; the *heads*
    (what undo and redo would move next) are forgotten after a change and reloaded here
    when an undo or redo needs them.
    """
    needed = _STACK_FIELDS if heads else _STACK_FIELDS[:3]
    if all(hasattr(judgment, name) for name in needed):
        return
    row = (
        Judgment.objects.filter(pk=judgment.pk)
        .annotate(**_stack_annotations())
        .values(*_STACK_FIELDS)
        .get()
    )
    for name, value in row.items():
        setattr(judgment, name, value)


def start_stack(judgment: Judgment) -> None:
    """A judgment just created has no events yet: its stack is known without a query."""
    for name in _STACK_FIELDS:
        setattr(judgment, name, None)
    judgment.stack_applied = judgment.stack_undone = 0


def _forget_stack_heads(judgment: Judgment) -> None:
    """After a change the next undo/redo target is unknown: the next one reloads it."""
    for name in ("stack_undo_id", "stack_undo_before", "stack_redo_id", "stack_redo_after"):
        judgment.__dict__.pop(name, None)


@dataclass(frozen=True)
class Click:
    """One change as the judge's page asks for it: on which judgment, by whom, from which
    version, of which kind (a :class:`~annotation.models.JudgmentEvent` kind), with which
    parameters, and when (None: now).

    ``params`` are the request's own parameters (an operation, a word position, a text, a
    score): they are kept in the event's detail, which is what tells the same request sent
    twice apart from another one (:func:`to_apply`). A change arrives as a :class:`Click`.
    """

    judgment: Judgment
    user: User
    version: int
    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    at: datetime | None = None


def to_apply(click: Click) -> bool:
    """Whether the change asked for from ``click.version`` is still to be made.

    False when it was already made: the judgment's latest change is this very request
    (same kind and parameters) made from that version. A request is fully determined by
    the version it was made on, so this is the same request sent twice: a retry after a
    lost answer or a double submit. Answering with the saved state is then right, where a
    stale refusal would tell the judge that a saved change was lost. Any other change from
    an old version is refused (:class:`StaleJudgment`), and only the judgment's owner
    changes it (:class:`NotYours`).
    """
    judgment, version = click.judgment, click.version
    if judgment.evaluator_id != click.user.pk:
        raise NotYours()
    if version == judgment.version:
        return True
    if version + 1 == judgment.version:
        detail = (
            judgment.events.filter(version=judgment.version, kind=click.kind)
            .values_list("detail", flat=True)
            .first()
        )
        if detail is not None and all(detail.get(k) == v for k, v in click.params.items()):
            return False
    raise StaleJudgment()


#: What an event's ``before`` and ``after`` hold, and undo and redo restore. Events saved
#: before notes and flags existed hold only the first three: restoring one of them leaves
#: the note and the flag as they are (no such event changed them); the same holds for
#: the severities of error spans (:mod:`annotation.spans`), which are then kept only
#: where their operations still exist (:func:`_severities_kept`), and IER's items
#: (:mod:`annotation.ier`), whose counts are stored with them, and an ESA score. An ESA
#: or MQM change holds the judge's spans too (``spans``, :mod:`annotation.judging.
#: span_rows`), so undo and redo restore them.
SNAPSHOT = ("new_ref", "sser", "state", "note", "flag", "severities", "ier_items", "esa_score")


def _snapshot(judgment: Judgment) -> dict[str, Any]:
    """What an event's ``before`` and ``after`` hold, and undo and redo restore."""
    return {name: getattr(judgment, name) for name in SNAPSHOT}


def change(click: Click, *, detail: dict[str, Any] | None = None, **changes: Any) -> Judgment:
    """Save ``changes`` (:data:`SNAPSHOT` fields; ``candidates`` for a word moved
    across a boundary, :mod:`annotation.judging.boundaries`; ``spans``, the judge's
    error spans of an ESA or MQM judgment, :mod:`annotation.judging.span_rows`) as one
    applied change, with
    ``detail`` (default: the click's parameters) in its event; a change that changes
    nothing is not recorded."""
    after = {**_snapshot(click.judgment), **changes}
    if after == _snapshot(click.judgment):
        return click.judgment
    return _write(click, after=after, detail=click.params if detail is None else detail)


def walk(click: Click) -> Judgment:
    """One step back (``undo``: restore the latest applied change's ``before``) or forward
    (``redo``: restore the change undone last's ``after``) on the judgment's stack."""
    judgment = click.judgment
    if not to_apply(click):
        return judgment
    load_stack(judgment, heads=True)
    if click.kind == JudgmentEvent.Kind.UNDO:
        event_id, state, empty = (
            judgment.stack_undo_id,
            judgment.stack_undo_before,
            ERR_NOTHING_TO_UNDO,
        )
    else:
        event_id, state, empty = (
            judgment.stack_redo_id,
            judgment.stack_redo_after,
            ERR_NOTHING_TO_REDO,
        )
    if event_id is None or state is None:  # both or neither: the head event's
        raise ChangeRefused(empty)
    return _write(click, after=dict(state), detail=click.params, moves=event_id)


def _write(
    click: Click, *, after: dict[str, Any], detail: dict[str, Any], moves: int | None = None
) -> Judgment:
    """Store ``after`` as the judgment's state and record the event, or refuse if stale.

    ``moves`` is the change event an undo or redo moves (the click's kind is then ``undo``
    or ``redo``); for any other kind, the new event is ``applied`` and the redo stack is
    discarded. One transaction: the conditional UPDATE, the stack, the event row.
    """
    judgment, version, kind = click.judgment, click.version, click.kind
    load_stack(judgment)
    before = _snapshot(judgment)
    after = {**after, "severities": _severities_kept(click, before, after)}
    at = click.at or timezone.now()
    gap = active_gap(judgment.stack_last_event_at, at, kind)
    stored = {
        **{name: after.get(name, before[name]) for name in SNAPSHOT},
        **_counts(judgment, after["new_ref"]),
        **ier_counts(after.get("ier_items", before["ier_items"])),
        "active_seconds": judgment.active_seconds + gap,
        **_ier_effort(judgment, kind, gap),
        "updated_at": at,
    }
    try:
        with transaction.atomic():
            if "candidates" in after:  # a word moved across a boundary (or back)
                before["candidates"] = set_candidates(after["candidates"], judgment=judgment)
                stored.update(new_ref_counts(judgment.candidate_text, after["new_ref"]))
            updated = Judgment.objects.filter(pk=judgment.pk, version=version).update(
                **stored, **_stamped(judgment, before, after), version=version + 1
            )
            if updated != 1:
                raise _Overtaken()
            if "spans" in after:  # under the judgment's row lock the UPDATE took
                before["spans"] = set_spans(after["spans"], judgment=judgment, seconds=gap)
            _write_events(click, before=before, after=after, detail=detail, moves=moves, at=at)
    except _Overtaken:
        return _saved_by_a_twin(click)
    _remember(judgment, kind=kind, stored=stored, version=version + 1)
    _touch_batch(judgment)
    return judgment


def _touch_batch(judgment: Judgment) -> None:
    """A change saved in a batch its judge holds keeps the batch theirs
    (:func:`annotation.campaigns.dealing.touch_task`): one UPDATE a minute at most, none
    for a judgment made outside any batch, nor in one since given to another judge."""
    task = judgment.task
    if task is not None and task.assignee_id == judgment.evaluator_id:
        touch_task(task)


def _severities_kept(click: Click, before: dict[str, Any], after: dict[str, Any]) -> dict[str, str]:
    """The severities ``after`` keeps: those of the operations its new reference still
    has (:func:`annotation.spans.live_severities`), so a severity never outlives its
    error. Undo and redo restore a snapshot saved consistent; otherwise the words are
    aligned only when there is a severity to check and the new reference changed. A word
    moved across a segment boundary shifts the candidate's positions, so it clears them
    (undo restores them with the words)."""
    if click.kind in WALKS and "severities" in after:
        return dict(after["severities"])
    severities = after.get("severities", before["severities"]) or {}
    if not severities or "candidates" in after:
        return {}
    new_ref = after.get("new_ref", before["new_ref"])
    if new_ref == before["new_ref"]:
        return dict(severities)
    return live_severities(words(click.judgment.candidate_text), words(new_ref), severities)


#: The changes whose time seed 001 Table 3's IER column counts (:mod:`annotation.ier`).
IER_KINDS = (JudgmentEvent.Kind.IER_SPLIT, JudgmentEvent.Kind.IER_MARK)


def _ier_effort(judgment: Judgment, kind: str, gap: float) -> dict[str, Any]:
    """IER's share of the active time: an IER change adds its gap (the time since the
    judgment's previous event, :func:`active_gap`) to ``ier_seconds`` and one to
    ``ier_clicks``, so the effort panel can tell IER's cost apart from aWER's and SSER's
    pass; summed over the event rows of those kinds, the same gaps give the same total."""
    if kind not in IER_KINDS:
        return {}
    return {"ier_seconds": judgment.ier_seconds + gap, "ier_clicks": judgment.ier_clicks + 1}


class _Overtaken(Exception):
    """Another request changed the judgment between this one's read and its write."""


def _saved_by_a_twin(click: Click) -> Judgment:
    """The judgment as saved, when the request that overtook this one was this very
    request (the same button pressed several times at once, or a retry racing its
    original): it is answered with the saved state, as :func:`to_apply` answers a repeat
    that arrives later. Any other overtaking change makes this one stale."""
    judgment = click.judgment
    judgment.refresh_from_db()
    for name in _STACK_FIELDS:
        judgment.__dict__.pop(name, None)
    load_stack(judgment)
    if to_apply(click):  # the stored version is the page's again: cannot be a twin
        raise StaleJudgment()
    return judgment


def _stamped(judgment: Judgment, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The judgment's ``figures_stamp`` and ``figures_corpus`` for its UPDATE when the
    change is one the figures count (to, on or from a done judgment): the corpus's
    judgments stamp, moved now (:func:`~annotation.changes.judgment_changing`), and the
    corpus; else nothing."""
    if Judgment.State.DONE not in (before["state"], after["state"]):
        return {}
    corpus_id = judgment.target.sentence.corpus_id
    return {"figures_stamp": judgment_changing(corpus_id), "figures_corpus": corpus_id}


def _write_events(
    click: Click,
    *,
    before: dict[str, Any],
    after: dict[str, Any],
    detail: dict[str, Any],
    moves: int | None,
    at: datetime,
) -> None:
    """The stack's move and the change's event row, in the change's transaction."""
    judgment, kind, is_walk = click.judgment, click.kind, click.kind in WALKS
    _move_stack(judgment, kind=kind, moves=moves)
    JudgmentEvent.objects.create(
        judgment=judgment,
        actor=click.user,
        created_at=at,
        kind=kind,
        status="" if is_walk else JudgmentEvent.Status.APPLIED,
        before=before,
        after=after,
        detail={**detail, **({"event": moves} if is_walk else {})},
        version=click.version + 1,
    )


def _counts(judgment: Judgment, new_ref: str) -> dict[str, int | None]:
    """The counts stored with ``new_ref`` (:func:`~annotation.text.new_ref_counts`; HTER's
    left empty, for a worker to fill once the judgment is done): recounted only when the
    new reference changes, and otherwise not written (nor HTER's, filled meanwhile)."""
    if new_ref == judgment.new_ref:
        return {}
    return dict(new_ref_counts(judgment.candidate_text, new_ref))


def _move_stack(judgment: Judgment, *, kind: str, moves: int | None) -> None:
    """An undo moves its event to the redo stack, a redo moves it back; any other change
    discards the redo stack."""
    if kind in WALKS and moves is not None:
        JudgmentEvent.objects.filter(pk=moves).update(
            status=JudgmentEvent.Status.UNDONE
            if kind == JudgmentEvent.Kind.UNDO
            else JudgmentEvent.Status.APPLIED
        )
    elif judgment.stack_undone:
        JudgmentEvent.objects.filter(judgment=judgment, status=JudgmentEvent.Status.UNDONE).update(
            status=JudgmentEvent.Status.DISCARDED
        )


def _remember(judgment: Judgment, *, kind: str, stored: dict[str, Any], version: int) -> None:
    """Keep the judgment object as the database now has it, stack counts included, so
    the page drawn next needs no query to read them back."""
    for name, value in stored.items():
        setattr(judgment, name, value)
    judgment.version = version
    judgment.stack_last_event_at = stored["updated_at"]
    if kind == JudgmentEvent.Kind.UNDO:
        judgment.stack_applied -= 1
        judgment.stack_undone += 1
    elif kind == JudgmentEvent.Kind.REDO:
        judgment.stack_applied += 1
        judgment.stack_undone -= 1
    else:
        judgment.stack_applied += 1
        judgment.stack_undone = 0
    _forget_stack_heads(judgment)
