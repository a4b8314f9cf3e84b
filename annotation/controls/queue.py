"""Where control items go in a judge's queue, and which ones (the judging package opens
them: :func:`annotation.judging.start.next_judgment_for`).

**Where.** A judge's queue is the corpus's candidates in the judge's order
(:mod:`annotation.judging.order`) with control items mixed in, the same number in every
sentence's run of items (:mod:`annotation.controls.runs`: at places drawn at random,
never two in a row, never a run's last). The draw is seeded with the judge, the corpus
and the sentence: another judge gets other places, the same judge the same places every
time (reproducible, and nothing has to be stored).

**Which.** A control is made of the sentence whose candidates come next and shown
inside that sentence's run of items, so neither its source nor its sentence number nor
its place gives it away: a reference of the sentence, or a candidate of the sentence
with injected errors (a "bad reference"); in an ESA / MQM corpus a bad reference or a
candidate of the run shown again (a repeat). Which kind and which candidate is drawn by
:func:`annotation.controls.runs.run_items`, which the judge's page reads too (its
"candidate k of N" and its label), so the queue and the page agree on every item.

Nothing here is read while controls are off: the corpus row (loaded anyway) says so, and
the judge's page costs what it always did.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.db.models import Count, Max, Q

from annotation.controls.degrade import degraded_text, injected_errors
from annotation.controls.runs import (
    Placement,
    RunItem,
    candidate_slot,
    control_kinds,
    control_slots,
    run_items,
    run_spans,
)
from annotation.dealt import TaskStep, task_holds
from annotation.models import COUNTED, Corpus, Judgment, Sentence, Target, Task, Translator, User
from annotation.queue_order import shuffled_systems
from annotation.text import REFERENCE_ROLES, corpus_language, reference_order, words

__all__ = ["ControlPlan", "degraded_copy", "due_control"]


@dataclass(frozen=True)
class ControlPlan:
    """A control item to open: judge ``target`` as ``kind``, under the label of
    ``shown_as`` (reference controls), showing ``shown_text`` (bad-reference controls:
    the candidate with injected errors)."""

    target: Target
    kind: str
    shown_as: Translator | None = None
    shown_text: str = ""


def due_control(
    *, user: User, corpus: Corpus, next_target: Target, step: TaskStep | None = None
) -> Judgment | ControlPlan | None:
    """The control item the judge sees now, if any: the judge's pending one (an open
    control is finished before anything else), else the control that stands just before
    ``next_target`` (the judge's next candidate) in its sentence's run of the judge's
    queue (:func:`annotation.controls.runs.control_slots`), unless it was made before.
    None while the corpus has controls off (no query), and where the judge's next item
    is a real one. In a batch (``step``: where the next candidate stands in it,
    :func:`annotation.judging.order.next_in_task`), the batch's runs and the batch's
    pending control only.

    Where the judge stands is read from the candidates, not from the number of items
    done: a corpus whose controls are turned on halfway puts its next control where the
    queue has it, and a control that was never made is not made late. Called only while
    the judge has real work left in the corpus, so a judge's last item is always a real
    one. One query (and, once per process and corpus, the sentences' spans), plus three
    or four when a control is made.
    """
    if not corpus.controls_enabled:
        return None
    mine = Judgment.objects.filter(evaluator_id=user.pk, target__translator__corpus_id=corpus.pk)
    task = None if step is None else step.task
    if task is not None:
        mine = mine.filter(task_id=task.pk)
    control_pending = Q(state=Judgment.State.PENDING) & ~Q(control=Judgment.Control.NONE)
    found = mine.order_by().aggregate(
        pending=Max("pk", filter=control_pending),
        here=Count("pk", filter=COUNTED & Q(target__sentence_id=next_target.sentence_id)),
    )
    if found["pending"] is not None:
        return (
            Judgment.objects.select_related(
                "target__sentence__corpus", "target__translator", "evaluator", "shown_as", "task"
            )
            .filter(pk=found["pending"])
            .first()
        )
    span = run_spans(corpus, task).get(next_target.sentence_id)
    if span is None:
        return None
    # the judge's candidates of a sentence are done in the judge's order
    here = found["here"] if step is None else step.item.here
    slots = control_slots(Placement.of(corpus, user.pk), next_target.sentence_id, span.systems)
    slot = candidate_slot(slots, here)
    if slot == 0 or slot - 1 not in slots:
        return None
    return _planned_control(user, corpus, next_target, span.start + slot - 1, task)


def _planned_control(
    user: User, corpus: Corpus, next_target: Target, item: int, task: Task | None
) -> ControlPlan | None:
    """The control :func:`~annotation.controls.runs.run_items` puts at ``item`` of the
    run of ``next_target``'s sentence (two queries: the sentence's targets, and a
    candidate of another sentence for a bad reference), or None where the judge's queue
    is not where its plan says (a candidate judged out of order, as an import does) or
    the control was made before."""
    run = judge_run(user_id=user.pk, corpus=corpus, sentence=next_target.sentence, task=task)
    here = next((i for i in run if i.item == item), None)
    if here is None or not here.kind:
        return None
    mine = Judgment.objects.filter(evaluator_id=user.pk, target=here.target)
    if mine.filter(control=here.kind).exists():
        return None
    rng = random.Random(f"control-text:{user.pk}:{corpus.pk}:{item}")
    if here.kind == Judgment.Control.REFERENCE:
        systems = sorted({i.target.translator for i in run if not i.kind}, key=lambda s: s.position)
        return ControlPlan(here.target, here.kind, rng.choice(systems))
    if here.kind == Judgment.Control.DEGRADED:
        foreign = _foreign_text(corpus, next_target.sentence, here.target, rng)
        if corpus.marks_spans:  # the page shows the candidate's own characters
            shown = degraded_text(here.target.text, foreign, corpus_language(corpus), rng)
            return ControlPlan(here.target, here.kind, shown_text=shown)
        errors = injected_errors(words(here.target.text), words(foreign), rng)
        return ControlPlan(here.target, here.kind, shown_text=" ".join(errors))
    return ControlPlan(here.target, here.kind)  # a repeat: the candidate itself


def degraded_copy(*, user: User, corpus: Corpus, target: Target, place: str) -> ControlPlan:
    """A bad-reference control of ``target`` in an ESA / MQM corpus, made as the queue
    makes one (:func:`_planned_control`: the text's own words, another sentence's words
    to bring in), seeded with the judge, the corpus and ``place`` (where the control
    stands, in the words of the queue that shows it): a side-by-side screen's
    (:mod:`annotation.sidebyside.queue`). One query (the other sentence's candidate)."""
    rng = random.Random(f"control-text:{user.pk}:{corpus.pk}:{place}")
    foreign = _foreign_text(corpus, target.sentence, target, rng)
    shown = degraded_text(target.text, foreign, corpus_language(corpus), rng)
    return ControlPlan(target, Judgment.Control.DEGRADED, shown_text=shown)


def judge_run(
    *, user_id: int, corpus: Corpus, sentence: Sentence, task: Task | None = None
) -> list[RunItem]:
    """The items of ``sentence``'s run in the judge's queue, with their targets
    (:func:`annotation.controls.runs.run_items`; one query: the sentence's targets), or
    in the judge's batch ``task`` (its candidates of the sentence, :func:`annotation.
    controls.runs.task_queue`). Empty while controls are off or where the sentence has
    no candidate."""
    span = run_spans(corpus, task).get(sentence.pk) if corpus.controls_enabled else None
    if span is None:
        return []
    targets = list(
        Target.objects.filter(sentence_id=sentence.pk).select_related(
            "translator", "sentence__corpus"
        )
    )
    order = shuffled_systems(
        [
            t
            for t in targets
            if t.translator.role == Translator.Role.SYSTEM
            and (task is None or task_holds(task, position=sentence.position, target_id=t.pk))
        ],
        user_id=user_id,
        sentence_id=sentence.pk,
    )
    references = sorted(
        (t for t in targets if t.translator.role in REFERENCE_ROLES),
        key=lambda t: reference_order(t.translator.role, t.position),
    )
    return run_items(
        Placement.of(corpus, user_id),
        blind=corpus.blind,
        sentence_id=sentence.pk,
        span=span,
        order=order,
        references=references,
        kinds=control_kinds(corpus),
    )


def control_before(judgment: Judgment) -> Judgment | None:
    """The judge's control item just before the candidate of ``judgment`` in its run,
    where the judge has it: "previous" from a candidate goes there, as "candidate k of N"
    counts it (two queries, only while controls are on)."""
    if judgment.control:
        return None
    run = judge_run(
        user_id=judgment.evaluator_id,
        corpus=judgment.target.sentence.corpus,
        sentence=judgment.target.sentence,
        task=judgment.task,
    )
    at = next((k for k, i in enumerate(run) if not i.kind and i.target.pk == judgment.target_id), 0)
    if at == 0 or not run[at - 1].kind:
        return None
    before = run[at - 1]
    return Judgment.objects.filter(
        evaluator_id=judgment.evaluator_id, target=before.target, control=before.kind
    ).first()


def _foreign_text(corpus: Corpus, sentence: Sentence, target: Target, rng: random.Random) -> str:
    """The candidate of another sentence, drawn at random (the same system's where it
    has one), for a bad reference's replaced words (one query; none in a corpus of one
    sentence)."""
    others = [p for p in range(corpus.n_sentences) if p != sentence.position]
    if not others:
        return ""
    position = rng.choice(others)
    rows = (
        Target.objects.filter(sentence__corpus_id=corpus.pk, sentence__position=position)
        .filter(translator__role=Translator.Role.SYSTEM)
        .order_by("translator__position")
        .values_list("translator_id", "text")
    )
    texts = dict(reversed(rows))
    return texts.get(target.translator_id) or next(iter(texts.values()), "")
