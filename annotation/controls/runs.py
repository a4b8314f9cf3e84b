"""A judge's queue as runs, one per sentence: where each item stands, which control
each control place holds, and what the page counts ("candidate k of N", "done x / T").

Candidates come sentence by sentence in the queue's order (:mod:`annotation.judging.
order`), so all the items a judge sees in a row share one source. A control drawn from
another sentence would give itself away by its source and its sentence number, so every
control belongs to the *run* of the sentence whose candidates come next: a control place
(:func:`annotation.controls.queue.is_control_item`) between the last candidate of one
sentence and the first of the next opens the next sentence's run. The queue's last item
is always a candidate.

**Arithmetic.** Each stretch of ``rate`` items holds one control and ``rate`` − 1
candidates, so where the judge's candidate number *r* (0-based, over the corpus) stands
in the queue is a function of *r* alone (:func:`item_of`, one seeded draw): a sentence's
run is the items from just after its previous sentence's last candidate to its own last
one (:func:`run_bounds`), the queue's length is where the corpus's last candidate stands
(:func:`queue_total`). Nothing is stored, nothing walks the corpus: a sentence's place
is its number of candidates before it, read once per corpus and process
(:func:`corpus_spans`, one query).

**Which control.** Each control of a run is drawn (seeded with the judge, the corpus and
the item) among the kinds that can be made there, so every control place holds a
control and the counts above are exact:

* a *reference* control: a reference of this sentence, not its first one (drawn once
  per judge and sentence: :func:`run_items`), in blind corpora and where the sentence has
  two references or more; at most one per run. That reference is hidden from the pool of
  every item of the sentence for this judge (:func:`hidden_reference`), so the page
  never shows it and the control's list has the same count as its neighbours';
* a *repeat* control: a candidate of this sentence the judge accepted at least
  :data:`REPEAT_DISTANCE` candidates earlier in the run (possible only with many
  systems), each once;
* a *bad-reference* control (WMT's): a candidate of this sentence, any system's,
  judged or not, with injected errors (:mod:`annotation.controls.degrade`), each
  candidate once a run. Always possible: a run has at least as many candidates as
  controls (never two controls in a row, and a run ends with a candidate).

**Labels.** With controls on, a blind corpus labels the items of a run "System 1" …
"System N" in an order drawn per judge and sentence (:attr:`RunItem.label`): in a run
every label appears once, a control's like any other; a label fixed per system would
have to repeat in the run for the control (and no label carries a system from one
sentence to the next any more).
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db.models import Count, Q

from annotation.models import CONTROL_RATE_MIN, Corpus, Judgment, Target, Translator
from annotation.text import REFERENCE_ROLES

T = TypeVar("T")

#: A candidate comes back as a repeat control only after this many more of the judge's
#: candidates (so the judge answers it afresh rather than from memory of a moment ago).
REPEAT_DISTANCE = 10


def _drawn_place(user_id: int, corpus_id: int, rate: int, run: int) -> int:
    return random.Random(f"control-place:{user_id}:{corpus_id}:{rate}:{run}").randrange(rate)


def control_place(*, user_id: int, corpus_id: int, rate: int, run: int) -> int:
    """Where (0 … ``rate`` − 1) the control of stretch ``run`` (items ``run`` × ``rate``
    onwards) of this judge's queue stands.

    Drawn with a seeded random, so the same every time. When the stretch before ends
    with its control, this one's moves from the first place to the second: never two
    controls in a row (with at least three items a stretch, the second place is never a
    stretch's last)."""
    if rate < CONTROL_RATE_MIN:
        raise ValueError(f"rate {rate!r}: one control in every {CONTROL_RATE_MIN} items at most")
    place = _drawn_place(user_id, corpus_id, rate, run)
    if place == 0 and run > 0 and _drawn_place(user_id, corpus_id, rate, run - 1) == rate - 1:
        return 1
    return place


def is_control_item(*, user_id: int, corpus_id: int, rate: int, item: int) -> bool:
    """Whether item ``item`` (0-based, real and control items alike) of the judge's
    queue is a control's place (:func:`control_place`)."""
    run, place = divmod(item, rate)
    return place == control_place(user_id=user_id, corpus_id=corpus_id, rate=rate, run=run)


@dataclass(frozen=True)
class Placement:
    """Whose queue (the seed of the control places) and its rate (0: controls off)."""

    user_id: int
    corpus_id: int
    rate: int

    @classmethod
    def of(cls, corpus: Corpus, user_id: int) -> Placement:
        return cls(user_id, corpus.pk, corpus.control_rate if corpus.controls_enabled else 0)

    def is_control(self, item: int) -> bool:
        return bool(self.rate) and is_control_item(
            user_id=self.user_id, corpus_id=self.corpus_id, rate=self.rate, item=item
        )


def item_of(placement: Placement, real: int) -> int:
    """Where (0-based item) the judge's candidate number ``real`` (0-based, over the
    corpus in the judge's order) stands in the queue: each run of ``rate`` items holds
    ``rate`` − 1 candidates and its control (one seeded draw, no walk)."""
    if not placement.rate:
        return real
    run, offset = divmod(real, placement.rate - 1)
    place = control_place(
        user_id=placement.user_id, corpus_id=placement.corpus_id, rate=placement.rate, run=run
    )
    return run * placement.rate + offset + (1 if offset >= place else 0)


def queue_total(placement: Placement, candidates: int) -> int:
    """The number of items of a queue of ``candidates`` candidates, controls included."""
    return item_of(placement, candidates - 1) + 1 if candidates else 0


@dataclass(frozen=True)
class Span:
    """A sentence in the queue's order: the number of system candidates before it
    (``first``), its own (``systems``) and its references."""

    first: int
    systems: int
    references: int


def run_bounds(placement: Placement, span: Span) -> tuple[int, int]:
    """The first and one-past-the-last item of ``span``'s run: from just after the
    previous sentence's last candidate to this sentence's last one."""
    start = item_of(placement, span.first - 1) + 1 if span.first else 0
    return start, item_of(placement, span.first + span.systems - 1) + 1


#: The kinds of control, in the order a control's draw shuffles.
_KINDS = (Judgment.Control.REFERENCE, Judgment.Control.REPEAT, Judgment.Control.DEGRADED)


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
) -> list[RunItem]:
    """The items of a sentence's run, in the judge's order: ``order`` is the sentence's
    candidates in the judge's order (:func:`annotation.judging.order.shuffled_systems`),
    ``references`` its references in reference order (anything that compares: targets,
    rows, or ``range`` for the kinds alone). See the module for the draws. Empty for a
    sentence without candidates, and where ``order`` is not the span's size."""
    if not span.systems or len(order) != span.systems:
        return []  # no candidate, or the sentence changed since its span was read
    start, end = run_bounds(placement, span)
    total = end - start
    labels = list(range(1, total + 1))
    random.Random(f"labels:{placement.user_id}:{sentence_id}").shuffle(labels)
    reference = drawn_reference(placement.user_id, sentence_id, references) if blind else None
    used: dict[str, list[Any]] = {kind: [] for kind in _KINDS}
    out: list[RunItem] = []
    reals = 0
    for item in range(start, end):
        number = item - start + 1
        if not placement.is_control(item):
            out.append(RunItem(item, number, total, labels[number - 1], "", order[reals]))
            reals += 1
            continue
        rng = random.Random(f"control-item:{placement.user_id}:{placement.corpus_id}:{item}")
        kinds = list(_KINDS)
        rng.shuffle(kinds)
        for kind in kinds:
            if kind == Judgment.Control.REFERENCE:
                choices = [reference] if reference is not None and not used[kind] else []
            elif kind == Judgment.Control.REPEAT:  # accepted far enough back, each once
                accepted = order[: max(reals - REPEAT_DISTANCE, 0)]
                choices = [t for t in accepted if t not in used[kind]]
            else:  # any candidate of the sentence, each once
                choices = [t for t in order if t not in used[kind]]
            if choices:
                target = rng.choice(choices)
                used[kind].append(target)
                out.append(RunItem(item, number, total, labels[number - 1], kind, target))
                break
    return out


def hidden_reference(
    corpus: Corpus, *, user_id: int, sentence_id: int, references: Sequence[str]
) -> str | None:
    """The reference (text, of ``references`` in reference order) of this sentence that
    the judge's run shows as a reference control, hidden from every pool of the sentence
    for this judge; None where the run has none (no query where none can be: controls
    off, a corpus showing names, fewer than two references)."""
    if not corpus.controls_enabled or not corpus.blind or len(references) < 2:
        return None
    span = corpus_spans(corpus).get(sentence_id)
    if span is None:
        return None
    kinds = run_items(
        Placement.of(corpus, user_id),
        blind=True,
        sentence_id=sentence_id,
        span=span,
        order=range(span.systems),
        references=range(len(references)),
    )
    if not any(i.kind == Judgment.Control.REFERENCE for i in kinds):
        return None
    return drawn_reference(user_id, sentence_id, references)


#: Per corpus judged lately (its pk, creation and texts stamp, as the live figures keep
#: their rows), every sentence's :class:`Span` by sentence id: about 100 kB for 1,000
#: sentences. Shared by the threads of one process.
_SPANS: OrderedDict[tuple[Any, ...], dict[int, Span]] = OrderedDict()
_SPANS_MAX = 8
_LOCK = threading.Lock()


def corpus_spans(corpus: Corpus) -> dict[int, Span]:
    """Every sentence's :class:`Span` (sentences in the queue's order:
    ``Sentence.queue_position``), read in one query the first time a process needs them
    for this state of the corpus, then kept."""
    key = (corpus.pk, corpus.created_at, corpus.texts_stamp)
    with _LOCK:
        if key in _SPANS:
            _SPANS.move_to_end(key)
            return _SPANS[key]
    rows = (
        Target.objects.filter(translator__corpus_id=corpus.pk)
        .order_by()
        .values("sentence_id", "sentence__queue_position")
        .annotate(
            systems=Count("pk", filter=Q(translator__role=Translator.Role.SYSTEM)),
            references=Count("pk", filter=Q(translator__role__in=REFERENCE_ROLES)),
        )
    )
    spans: dict[int, Span] = {}
    first = 0
    # every sentence of a ready corpus has its place (the import's last write)
    for row in sorted(rows, key=lambda r: r["sentence__queue_position"] or 0):
        spans[row["sentence_id"]] = Span(first, row["systems"], row["references"])
        first += row["systems"]
    with _LOCK:
        _SPANS[key] = spans
        while len(_SPANS) > _SPANS_MAX:
            _SPANS.popitem(last=False)
    return spans
