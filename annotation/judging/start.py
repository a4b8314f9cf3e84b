"""Where a judgment starts: created when the judge first reaches a candidate.

A judge's judgment of a candidate does not exist until the judge gets there
(:func:`next_judgment_for`, or the "previous" link: :func:`judgment_open`). It starts
from the nearest reference of the sentence's pool (:mod:`annotation.judging.pool`), or
from the judge's own earlier judgment of an identical candidate. Each time its page is
shown, an ``open`` event starts the clock for the first change (:func:`judgment_seen`,
:mod:`annotation.judging.active_time`).

A control item (:mod:`annotation.controls`) starts the same way as the judgment of a
candidate would (:func:`control_open`): nothing on the page tells the two apart.

Where the corpus's campaign splits the work, the judge's next item is the next of the
batch they hold (:func:`annotation.dealt.current_task`,
:func:`annotation.judging.order.next_in_task`), and every judgment opened there carries
the batch (``Judgment.task``): what the batch's progress counts, and what stays done in
it when it goes back to the pool. A batch with nothing left is marked finished.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from annotation.campaigns.api import finish_task_if_done
from annotation.controls.api import ControlPlan, due_control
from annotation.dealt import current_task, task_take_own_done
from annotation.judging.errors import ERR_NOT_A_SYSTEM, ChangeRefused
from annotation.judging.order import next_in_task, next_target_for
from annotation.judging.pool import (
    References,
    nearest_in_pool,
    pool_judgments,
    pooled_references,
    sentence_pool,
    sentence_references,
    shown_words,
)
from annotation.judging.prefill import suggestions_write
from annotation.judging.stack import start_stack
from annotation.models import Corpus, Judgment, JudgmentEvent, Target, Task, Translator, User
from annotation.models.prepared import Prepared
from annotation.text import corpus_language, new_ref_counts, readable_text, words


def judgment_open(*, user: User, target: Target, task: Task | None = None) -> Judgment:
    """``user``'s judgment of ``target``, created when the judge first reaches it.

    A new judgment starts from the pool's nearest reference (ties: the first reference,
    then file order), or, when the candidate is identical to one this judge has already
    judged for the sentence (a control item or a real candidate: the judge cannot tell
    them apart, so neither may the pre-fill), from that judgment's new reference and SSER
    (the RWTH EvalTrans reuse idea; the page says so). With an empty pool (a sentence
    without any reference) the new reference starts as the candidate itself, for the
    judge to correct. Opened in the batch ``task`` (a campaign that splits the work), it
    carries it; one opened before outside any batch is given it. Where the corpus
    pre-fills spans, the new judgment gets its suggestions
    (:mod:`annotation.judging.prefill`).
    """
    found = _EXISTING(target.pk, user.pk)
    existing: Judgment | None = found[0] if found else None
    if existing is not None:
        existing.target, existing.evaluator = target, user  # as loaded: no query to read them
        if task is not None and existing.task_id in (None, task.pk):
            if existing.task_id is None:
                Judgment.objects.filter(pk=existing.pk).update(task=task)
            existing.task = task  # as loaded: no query to read it
        return existing
    translator = target.translator
    if translator.role != Translator.Role.SYSTEM:
        raise ChangeRefused(ERR_NOT_A_SYSTEM.format(translator=translator.name))
    return _created(user=user, target=target, task=task)


def control_open(*, user: User, plan: ControlPlan, task: Task | None = None) -> Judgment:
    """The judge's control item ``plan`` (:func:`annotation.controls.queue.due_control`),
    started as the judgment of a candidate starts (:func:`judgment_open`). A reference
    shown as a candidate is not in the pool it starts from (hidden from the judge's every
    item of the sentence: :func:`annotation.controls.runs.hidden_reference`); a candidate
    shown again never starts from its first judgment (the pool holds only the sentence's
    *other* candidates' new references); a candidate with injected errors starts from the
    pool a real candidate of the sentence has. Made in the batch ``task``, it carries it."""
    return _created(
        user=user,
        target=plan.target,
        control=plan.kind,
        shown_as=plan.shown_as,
        shown_text=plan.shown_text,
        task=task,
    )


def _created(
    *,
    user: User,
    target: Target,
    control: str = Judgment.Control.NONE,
    shown_as: Translator | None = None,
    shown_text: str = "",
    task: Task | None = None,
) -> Judgment:
    """A new judgment of ``target``, at its starting point (see :func:`judgment_open`),
    showing ``shown_text`` where it is a bad-reference control."""
    corpus = target.sentence.corpus
    degraded = control == Judgment.Control.DEGRADED
    text = shown_text if degraded else target.text
    candidate = words(text)
    pooled_rows = _POOLED(
        target.pk,
        target.sentence_id,
        corpus.pk,
        user.pk,
        shape=(corpus.share_new_refs, degraded),
    )
    # Oldest first, sorted here: ordered by pk, SQLite walks all the judge's judgments.
    rows = sorted(pooled_rows, key=lambda r: r.pk)
    reuse = [
        r
        for r in rows
        if r.evaluator_id == user.pk and shown_words(r.target__text, r.shown_text) == candidate
    ]
    references: References | None = None  # read only where the pool is
    if reuse:
        # the same words: the same errors, so the same severities (annotation.spans)
        new_ref, sser, severities = reuse[-1].new_ref, reuse[-1].sser, reuse[-1].severities
    else:
        references = pooled_references(
            sentence_references(target.sentence_id),
            corpus=corpus,
            user_id=user.pk,
            sentence_id=target.sentence_id,
            shown=target.text if control == Judgment.Control.REFERENCE else None,
        )
        pool = sentence_pool(candidate, references, [r.new_ref for r in rows])
        new_ref = nearest_in_pool(pool, 1)[0].text if pool else " ".join(candidate)
        sser, severities = None, {}
    new_ref = readable_text(new_ref, corpus_language(target.sentence.corpus))
    counts = new_ref_counts(text, new_ref)
    try:
        with transaction.atomic():
            created = Judgment.objects.create(
                target=target,
                evaluator=user,
                new_ref=new_ref,
                sser=sser,
                severities=severities or {},
                **counts,
                control=control,
                shown_as=shown_as,
                shown_text=shown_text if degraded else "",
                task=task,
            )
            suggestions_write(created, references)
    except IntegrityError:  # another tab created it a moment ago
        return Judgment.objects.get(target=target, evaluator=user, control=control)
    start_stack(created)
    return created


def _existing_query(target_id: int, user_id: int, *, shape: object) -> QuerySet[Judgment]:
    """:func:`judgment_open`'s query: the judge's judgment of the candidate, if any."""
    return (
        Judgment.objects.real().filter(target_id=target_id, evaluator_id=user_id).order_by("pk")[:1]
    )


def _pooled_query(
    target_id: int,
    sentence_id: int,
    corpus_id: int,
    user_id: int,
    *,
    shape: tuple[bool, bool],
) -> QuerySet[Any]:
    """:func:`_created`'s query: the done judgments of the new judgment's pool, its
    ``shape`` whether the corpus shares new references and whether the judgment is a
    bad-reference control's (:func:`~annotation.judging.pool.pool_judgments`)."""
    share, own = shape
    pooled = pool_judgments(target_id, sentence_id, corpus_id, user_id, share=share, own=own)
    return (
        Judgment.objects.filter(pooled)
        .order_by()
        .values_list(
            "pk",
            "evaluator_id",
            "target__text",
            "shown_text",
            "new_ref",
            "sser",
            "severities",
            named=True,
        )
    )


#: Compiled once per process (:mod:`annotation.models.prepared`): each accept & next
#: asks them.
_EXISTING = Prepared(_existing_query)
_POOLED = Prepared(_pooled_query)


def next_judgment_for(*, user: User, corpus: Corpus) -> Judgment | None:
    """The judgment of the next item of the judge's queue (created on the way): the next
    candidate, or a control item where one is due (:func:`annotation.controls.queue.
    due_control`, only while candidates are left); None when the judge has finished the
    corpus. Where the corpus's campaign splits the work, the next item of the judge's
    batch (:func:`_next_in_batch`)."""
    if corpus.campaign.splits_work:
        return _next_in_batch(user=user, corpus=corpus)
    target = next_target_for(user=user, corpus=corpus)
    if target is None:
        return None
    control = due_control(user=user, corpus=corpus, next_target=target)
    if isinstance(control, Judgment):
        return control
    if control is not None:
        return control_open(user=user, plan=control)
    return judgment_open(user=user, target=target)


def _next_in_batch(*, user: User, corpus: Corpus) -> Judgment | None:
    """The next item of the batch of ``corpus`` the judge holds, controls mixed in as
    anywhere (over the batch's runs), opened in the batch; None where the judge holds
    none, or has nothing left in it (which marks it finished,
    :func:`annotation.campaigns.dealing.finish_task_if_done`: the next batch is theirs
    to ask for)."""
    task = current_task(user=user, corpus=corpus)
    if task is None:
        return None
    step = next_in_task(user=user, task=task)
    if step is None:
        task_take_own_done(task, user.pk)
        finish_task_if_done(task)
        return None
    control = due_control(user=user, corpus=corpus, next_target=step.target, step=step)
    if isinstance(control, Judgment):
        return control
    if control is not None:
        return control_open(user=user, plan=control, task=task)
    return judgment_open(user=user, target=step.target, task=task)


def last_accepted_for(*, user: User, corpus_id: int) -> int | None:
    """The judge's candidate accepted last in the corpus (the key of its judgment), which
    the finished page links back to; None before the first. Accepting writes the
    judgment, so the latest written of the judge's counted judgments (no control item:
    the link leads to a real candidate); one query on the judge's own judgments."""
    return (
        Judgment.objects.counted()
        .of_corpus(corpus_id)
        .filter(evaluator=user)
        .order_by("-updated_at", "-pk")
        .values_list("pk", flat=True)
        .first()
    )


def judgment_seen(*, judgment: Judgment, user: User, at: datetime | None = None) -> None:
    """Record that the page of ``judgment`` was shown (an ``open`` event), which starts
    the clock for the first change. Other people's views are not recorded."""
    if judgment.evaluator_id != user.pk:
        return
    at = at or timezone.now()
    JudgmentEvent.objects.create(
        judgment=judgment,
        actor=user,
        created_at=at,
        kind=JudgmentEvent.Kind.OPEN,
        version=judgment.version,
    )
    judgment.stack_last_event_at = at
