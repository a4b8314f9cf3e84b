"""A judge's queue as runs, one per sentence: where each item stands, which control
each control place holds, and what the page counts ("candidate k of N", "done x / T").

Candidates come sentence by sentence in the queue's order (:mod:`annotation.judging.
order`), so all the items a judge sees in a row share one source. A control drawn from
another sentence would give itself away by its source and its sentence number, so every
control belongs to the *run* of a sentence, among that sentence's candidates.

**Every run holds the same number of controls** (:func:`controls_per_run`: *c*, from the
lead's rate and the corpus's systems), at places drawn at random among its items, never
two in a row and never last (:func:`control_slots`). A judge sees how many items share a
source: were the controls spread one in every *rate* items over the whole queue, a run
one item longer than its neighbours would hold a control, and a judge who read the
number of systems on the home page could count them (issue 35). With *c* in every run,
every run is *c* items longer than its candidates and nothing tells which of its items
they are. (A sentence with fewer candidates than *c* holds as many controls as
candidates: never two in a row.) The share of controls is then *c* / (systems + *c*),
the nearest a whole number per run comes to the lead's one in *rate*.

**Arithmetic.** A run's first item is the number of candidates and controls of the runs
before it (:class:`Span`, read once per corpus and process with the sentences' candidate
counts: :func:`corpus_spans`, one query); where the judge's *k*-th candidate of a run
stands is the *k*-th place of the run that is no control's (:func:`candidate_slot`).
Nothing is stored, nothing walks the corpus.

**Which control.** Each control of a run is drawn (seeded with the judge, the corpus and
the item) among the kinds that can be made there:

* a *reference* control: a reference of this sentence, not its first one (drawn once
  per judge and sentence: :func:`drawn_reference`), in blind corpora and where the
  sentence has two references or more; at most one per run. That reference is hidden
  from the pool of *every* sentence's items for this judge, whether or not the run shows
  it (:func:`hidden_reference`): the pool lists as many references in every run, so its
  count tells nothing;
* a *bad-reference* control (WMT's): a candidate of this sentence, any system's,
  judged or not, with injected errors (:mod:`annotation.controls.degrade`), each
  candidate once a run. Always possible: a run holds at most as many controls as
  candidates.

A *repeat* (a candidate shown again, for the judge's consistency) is no longer drawn:
the judge's page pre-fills every candidate identical to one the judge already judged
with that judgment and says so, so a repeat either looks unlike every other identical
candidate (no pre-fill: issue 35 saw it) or is answered by pressing ``c`` (pre-filled),
which measures nothing. Repeats made before stay stored and counted as they were
(:mod:`annotation.controls.quality`).

**ESA and MQM.** A corpus judged by error spans (``Corpus.marks_spans``) draws a
*bad-reference* control as above (its text made of the candidate's own words,
:func:`annotation.controls.degrade.degraded_text`) or a *repeat*: a candidate of the
run the judge has met before this place (each once a run), shown again. Its page
pre-fills nothing from an identical candidate, so a repeat looks as any candidate does,
and its score is the judge's consistency (:mod:`annotation.controls.scored`). No
reference is shown as a candidate: its pass would be a guess at a score, and the page
has no pool to hide one from. :func:`control_kinds` says which kinds a corpus draws.

**Labels.** With controls on, a blind corpus labels the items of a run "System 1" …
"System N" in an order drawn per judge and sentence (:attr:`RunItem.label`): in a run
every label appears once, a control's like any other; a label fixed per system would
have to repeat in the run for the control (and no label carries a system from one
sentence to the next any more).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.db.models import Count, Q

from annotation.changes import Stamp
from annotation.dealt import task_targets
from annotation.formatting import number
from annotation.models import CONTROL_RATE_MIN, Corpus, Judgment, Target, Task, Translator
from annotation.statistics import CACHE, Shelf
from annotation.text import REFERENCE_ROLES

T = TypeVar("T")


def controls_per_run(rate: int, systems: int) -> int:
    """How many controls each sentence's run holds for the lead's "one control in every
    ``rate`` items" in a corpus of ``systems`` systems. *c* / (systems + *c*) is exactly
    one in ``rate`` at *c* = ``systems`` / (``rate`` − 1); of the two whole numbers
    around that, the one whose share of the run's items is nearer 1 / ``rate`` (the
    fewer controls on a tie), and at least one: a run without a control would be
    shorter than those with one (see the module)."""
    if rate < CONTROL_RATE_MIN:
        raise ValueError(f"rate {rate!r}: one control in every {CONTROL_RATE_MIN} items at most")
    if not systems:
        return 0
    exact = systems / (rate - 1)
    low = max(1, math.floor(exact))
    return min((low, low + 1), key=lambda c: abs(c / (systems + c) - 1 / rate))


def corpus_per_run(corpus: Corpus) -> int:
    """The controls of each run of ``corpus``'s queues (0 while controls are off)."""
    if not corpus.controls_enabled:
        return 0
    return controls_per_run(corpus.control_rate, corpus.n_systems)


def controls_summary(corpus: Corpus) -> str:
    """What the lead's "one in every N items" comes to in ``corpus`` (the settings page,
    the dashboard, ``manage.py controls``): how many controls each run holds and the
    share of items that makes."""
    systems = corpus.n_systems
    per_run = controls_per_run(corpus.control_rate, systems)
    if not per_run:
        return "no candidate to mix them among yet"
    every = number((systems + per_run) / per_run, 1)
    return (
        f"{per_run} in every sentence's run of {systems + per_run} items, "
        f"one in every {every} items"
    )


@dataclass(frozen=True)
class Placement:
    """Whose queue (the seed of the control places) and the controls of each of its runs
    (``per_run``, 0: controls off)."""

    user_id: int
    corpus_id: int
    per_run: int

    @classmethod
    def of(cls, corpus: Corpus, user_id: int) -> Placement:
        return cls(user_id, corpus.pk, corpus_per_run(corpus))

    def controls_of(self, systems: int) -> int:
        """The controls of a run of ``systems`` candidates: never more than its candidates
        (never two controls in a row, and a run ends with a candidate)."""
        return min(self.per_run, systems)


@dataclass(frozen=True)
class Span:
    """A sentence in the queue's order: the number of system candidates before it
    (``first``), its own (``systems``) and its references, and where its run starts
    (``start``: the items, candidates and controls, of the runs before it)."""

    first: int
    systems: int
    references: int
    start: int


def spans_of(counts: Sequence[tuple[int, int]], per_run: int) -> list[Span]:
    """The :class:`Span` of each sentence of a queue whose sentences have these (system
    candidates, references), in the queue's order, with ``per_run`` controls a run."""
    out, first, start = [], 0, 0
    placement = Placement(0, 0, per_run)
    for systems, references in counts:
        out.append(Span(first, systems, references, start))
        first += systems
        start += systems + placement.controls_of(systems) if systems else 0
    return out


def queue_total(spans: Sequence[Span], per_run: int) -> int:
    """The number of items of a queue of these sentences, controls included."""
    placement = Placement(0, 0, per_run)
    return sum(s.systems + placement.controls_of(s.systems) for s in spans)


def control_slots(placement: Placement, sentence_id: int, systems: int) -> tuple[int, ...]:
    """Where (0-based, in the run) the controls of the run of a sentence of ``systems``
    candidates stand: :meth:`Placement.controls_of` places drawn at random (seeded with
    the judge, the corpus and the sentence: the same every time, another judge's
    others), never two in a row and never the run's last. Drawn as *c* of the
    ``systems`` gaps before each candidate, each moved by the controls before it: every
    such arrangement is equally likely."""
    c = placement.controls_of(systems)
    if not c:
        return ()
    seed = f"control-slots:{placement.user_id}:{placement.corpus_id}:{sentence_id}:{c}"
    gaps = sorted(random.Random(seed).sample(range(systems), c))
    return tuple(gap + k for k, gap in enumerate(gaps))


def candidate_slot(slots: Sequence[int], here: int) -> int:
    """Where (0-based, in the run) the run's candidate number ``here`` (0-based) stands,
    the run's controls at ``slots``."""
    slot = here
    for control in slots:  # sorted
        if control <= slot:
            slot += 1
    return slot


def run_bounds(placement: Placement, span: Span) -> tuple[int, int]:
    """The first and one-past-the-last item of ``span``'s run."""
    return span.start, span.start + span.systems + placement.controls_of(span.systems)


#: The kinds of control an aWER corpus draws, in the order a control's draw shuffles.
AWER_KINDS = (Judgment.Control.REFERENCE, Judgment.Control.DEGRADED)
#: The kinds an ESA / MQM corpus draws (see the module).
SPAN_KINDS = (Judgment.Control.REPEAT, Judgment.Control.DEGRADED)


def control_kinds(corpus: Corpus) -> tuple[str, ...]:
    """The kinds of control ``corpus``'s runs draw, by its protocol (see the module)."""
    return SPAN_KINDS if corpus.marks_spans else AWER_KINDS


@dataclass(frozen=True)
class RunItem:
    """One item of a run: ``number`` (1-based) of ``total``, its ``label`` number (a
    blind corpus's "System N"), and what it shows: ``kind`` (empty for a candidate,
    else the control's kind) and ``target`` (an element of the run's candidates or
    references, as given to :func:`run_items`)."""

    item: int
    number: int
    total: int
    label: int
    kind: str
    target: Any


def drawn_reference(user_id: int, sentence_id: int, references: Sequence[T]) -> T | None:
    """The reference a reference control of this sentence would show: one drawn among
    all but the first (reference order), none with fewer than two references."""
    if len(references) < 2:
        return None
    return random.Random(f"control-reference:{user_id}:{sentence_id}").choice(references[1:])


def run_items(
    placement: Placement,
    *,
    blind: bool,
    sentence_id: int,
    span: Span,
    order: Sequence[Any],
    references: Sequence[Any],
    kinds: Sequence[str] = AWER_KINDS,
) -> list[RunItem]:
    """The items of a sentence's run, in the judge's order: ``order`` is the sentence's
    candidates in the judge's order (:func:`annotation.queue_order.shuffled_systems`),
    ``references`` its references in reference order (anything that compares: targets,
    rows, or ``range`` for the kinds alone), ``kinds`` the kinds of control the corpus
    draws (:func:`control_kinds`). See the module for the draws. Empty for a sentence
    without candidates, and where ``order`` is not the span's size."""
    if not span.systems or len(order) != span.systems:
        return []  # no candidate, or the sentence changed since its span was read
    start, end = run_bounds(placement, span)
    total = end - start
    slots = set(control_slots(placement, sentence_id, span.systems))
    labels = list(range(1, total + 1))
    random.Random(f"labels:{placement.user_id}:{sentence_id}").shuffle(labels)
    reference = drawn_reference(placement.user_id, sentence_id, references) if blind else None
    used: dict[str, list[Any]] = {kind: [] for kind in kinds}
    out: list[RunItem] = []
    reals = 0
    for slot in range(total):
        item, number = start + slot, slot + 1
        if slot not in slots:
            out.append(RunItem(item, number, total, labels[slot], "", order[reals]))
            reals += 1
            continue
        rng = random.Random(f"control-item:{placement.user_id}:{placement.corpus_id}:{item}")
        drawn = list(kinds)
        rng.shuffle(drawn)
        for kind in drawn:
            if kind == Judgment.Control.REFERENCE:
                choices = [reference] if reference is not None and not used[kind] else []
            elif kind == Judgment.Control.REPEAT:  # a candidate met before here, each once
                choices = [t for t in order[:reals] if t not in used[kind]]
            else:  # any candidate of the sentence, each once
                choices = [t for t in order if t not in used[kind]]
            if choices:
                target = rng.choice(choices)
                used[kind].append(target)
                out.append(RunItem(item, number, total, labels[slot], kind, target))
                break
    return out


def hidden_reference(
    corpus: Corpus, *, user_id: int, sentence_id: int, references: Sequence[T]
) -> T | None:
    """The reference (of ``references``, in reference order) of this sentence that the
    judge's run would show as a reference control, hidden from every pool of the
    sentence for this judge whether the run shows it or not (see the module); None
    where no run can show one (controls off, a corpus showing names or judged by error
    spans, fewer than two references). No query."""
    if not corpus.controls_enabled or not corpus.blind or corpus.marks_spans:
        return None
    return drawn_reference(user_id, sentence_id, references)


@dataclass(frozen=True)
class Queue:
    """The shape every judge's queue of a corpus has: each sentence's :class:`Span` (by
    sentence id) and the number of items, controls included."""

    spans: dict[int, Span]
    total: int


#: Per corpus judged lately (and its controls a run), its :class:`Queue`, under the texts
#: stamp as the live figures keep their rows: about 100 kB for 1,000 sentences.
QUEUES = Shelf("queues", Stamp.TEXTS, 8)
#: Per batch judged lately (:func:`task_queue`), its :class:`Queue`: a few sentences
#: each, so many more are kept (a judge each, in every corpus of a campaign).
TASK_QUEUES = Shelf("task-queues", Stamp.TEXTS, 512)


def corpus_queue(corpus: Corpus) -> Queue:
    """The :class:`Queue` of ``corpus`` (sentences in the queue's order:
    ``Sentence.queue_position``), read in one query the first time a process needs it
    for this state of the corpus, then kept."""
    per_run = corpus_per_run(corpus)
    key = QUEUES.key(corpus, per_run)
    return CACHE.get_or_set(key, lambda: _read_queue(corpus, per_run))


def _read_queue(corpus: Corpus, per_run: int) -> Queue:
    """:func:`corpus_queue`'s read (one query)."""
    rows = (
        Target.objects.filter(translator__corpus_id=corpus.pk)
        .order_by()
        .values("sentence_id", "sentence__queue_position")
        .annotate(
            systems=Count("pk", filter=Q(translator__role=Translator.Role.SYSTEM)),
            references=Count("pk", filter=Q(translator__role__in=REFERENCE_ROLES)),
        )
    )
    # every sentence of a ready corpus has its place (the import's last write)
    ordered = sorted(rows, key=lambda r: r["sentence__queue_position"] or 0)
    spans = spans_of([(r["systems"], r["references"]) for r in ordered], per_run)
    return Queue(
        spans={r["sentence_id"]: span for r, span in zip(ordered, spans, strict=True)},
        total=queue_total(spans, per_run),
    )


def task_queue(task: Task, corpus: Corpus) -> Queue:
    """The :class:`Queue` of the batch ``task`` of ``corpus`` (a campaign that splits the
    work, :mod:`annotation.campaigns`): the run of each of its sentences holds the task's
    candidates of it (all of a sentence of its batch, part of one for overlap items it
    carries) and the controls of a run of that many; ``first`` counts the batch's
    candidates before it. A run's ``start`` is its sentence's queue position times the
    longest run a sentence can have, so no two items of one judge's batches of a corpus
    share a number (which seeds the controls' draws), and nothing of the rest of the
    corpus is read. Read in one query the first time a process needs it for this state
    of the task and corpus (about the batch's candidates, whatever the corpus's size),
    then kept."""
    per_run = corpus_per_run(corpus)
    key = TASK_QUEUES.key(
        corpus, task.pk, task.batch, task.start, task.end, tuple(task.extra), per_run
    )
    return CACHE.get_or_set(key, lambda: _read_task_queue(task, corpus, per_run))


def _read_task_queue(task: Task, corpus: Corpus, per_run: int) -> Queue:
    """:func:`task_queue`'s read."""
    references = Q(sentence__targets__translator__role__in=REFERENCE_ROLES)
    rows = (
        task_targets(task)
        .order_by()
        .values("sentence_id", "sentence__queue_position")
        .annotate(
            systems=Count("pk", distinct=True),
            references=Count("sentence__targets", filter=references, distinct=True),
        )
    )
    longest = corpus.n_systems + per_run
    spans: dict[int, Span] = {}
    first = 0
    for r in sorted(rows, key=lambda r: r["sentence__queue_position"] or 0):
        place = r["sentence__queue_position"] or 0
        spans[r["sentence_id"]] = Span(first, r["systems"], r["references"], place * longest)
        first += r["systems"]
    return Queue(spans=spans, total=queue_total(list(spans.values()), per_run))


@dataclass(frozen=True)
class ItemsProgress:
    """A judge's progress in a corpus as every page shows it: ``done`` of ``total``."""

    done: int
    total: int


def queue_progress(
    corpus: Corpus, *, counted: int, controls: int, task: Task | None = None
) -> ItemsProgress:
    """The judge's progress in ``corpus`` from their ``counted`` judgments and done
    ``controls``: the one rule the judge's header, the home page and the finished page
    read, so no two of them count differently (a control item would show as the step
    where one count moved and the other did not). While controls are on, items of the
    queue (:func:`corpus_queue`), controls included; else candidates. In a campaign
    that splits the work, the items of the judge's batch ``task`` (:func:`task_queue`),
    ``counted`` and ``controls`` being the batch's."""
    if task is not None:
        done = counted + controls if corpus.controls_enabled else counted
        return ItemsProgress(done, task_queue(task, corpus).total)
    if not corpus.controls_enabled:
        return ItemsProgress(counted, corpus.n_candidates)
    return ItemsProgress(counted + controls, corpus_queue(corpus).total)


def items_progress(corpus: Corpus) -> ItemsProgress:
    """:func:`queue_progress` of a corpus read with its counts
    (:meth:`~annotation.models.CorpusQuerySet.with_items_progress`)."""
    counts = cast(Any, corpus)  # the queryset's annotations
    return queue_progress(corpus, counted=counts.n_done, controls=counts.n_controls_done)


def corpus_spans(corpus: Corpus) -> dict[int, Span]:
    """Every sentence's :class:`Span` of ``corpus``'s queues (:func:`corpus_queue`)."""
    return corpus_queue(corpus).spans


def run_spans(corpus: Corpus, task: Task | None) -> dict[int, Span]:
    """The :class:`Span` of each run of a judge's queue of ``corpus``: the corpus's
    (:func:`corpus_spans`), or in the batch ``task``, the batch's (:func:`task_queue`)."""
    return corpus_spans(corpus) if task is None else task_queue(task, corpus).spans
