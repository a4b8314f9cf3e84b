"""Test helpers of the control items (the shared ones are in
:mod:`annotation.tests.factories`): a corpus with control items on, and a judge's whole
queue walked through the judging services."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from annotation.controls.runs import (
    SPAN_KINDS,
    Placement,
    RunItem,
    control_kinds,
    corpus_spans,
    run_items,
)
from annotation.corpora.imports import corpus_import
from annotation.judging.changes import judgment_finish
from annotation.judging.esa import judgment_mark_span, judgment_set_esa_score
from annotation.judging.start import next_judgment_for
from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import finish, write_corpus
from metrics.error_spans import MarkedSpan

#: The kinds of control a queue draws (a repeat is no longer drawn: annotation.controls.runs).
DRAWN_KINDS = frozenset({Judgment.Control.REFERENCE, Judgment.Control.DEGRADED})


def queue_corpus(
    path: Path,
    name: str,
    judges: Sequence[User],
    *,
    sentences: int = 30,
    systems: int = 3,
    references: int = 2,
    rate: int = 10,
    blind: bool = True,
    docs: Sequence[str | None] = (),
) -> Corpus:
    """A corpus with control items on (about one in every ``rate`` items), every candidate and
    reference different from every other, its sentences in documents ``docs`` (none
    where left out), assigned to ``judges``; not scored until something reads its
    figures."""
    refs = [
        [f"reference {r} says sentence {k} well ." for r in range(references)]
        for k in range(sentences)
    ]
    hyps = {
        f"system {s}": [f"system {s} says sentence {k} badly ." for k in range(sentences)]
        for s in range(systems)
    }
    source = write_corpus(path / f"{name}.xml", refs, hyps, docs=docs)
    corpus = corpus_import(source=source, name=name, score=False).corpus
    corpus.judges.add(*judges)
    corpus.controls_enabled, corpus.control_rate, corpus.blind = True, rate, blind
    corpus.save()
    return corpus


def right_answer(judgment: Judgment) -> tuple[str, int]:
    """The answer a careful judge gives: a candidate's own words and 7; a reference shown
    as a candidate accepted as it is, 10; a candidate shown again, the first answer; a
    candidate with injected errors, its original's words (the errors left out) and 3."""
    if judgment.control == Judgment.Control.REFERENCE:
        return judgment.target.text, 10
    if judgment.control == Judgment.Control.REPEAT:
        first = Judgment.objects.real().get(target=judgment.target, evaluator=judgment.evaluator)
        return first.new_ref, first.sser
    if judgment.control == Judgment.Control.DEGRADED:
        return judgment.target.text, 3
    return judgment.target.text, 7


def stored_repeat(original: Judgment, new_ref: str, sser: int) -> Judgment:
    """A repeat control of ``original`` (a done real judgment), done with this answer, as
    the queue made them before repeats were retired: such rows stay stored and are read
    as they were (quality figures), never counted."""
    return Judgment.objects.create(
        target=original.target,
        evaluator=original.evaluator,
        control=Judgment.Control.REPEAT,
        state=Judgment.State.DONE,
        new_ref=new_ref,
        sser=sser,
        edits=0,
        ref_length=len(new_ref.split()),
    )


def walk_queue(
    corpus: Corpus, judge: User, answer: Callable[[Judgment], tuple[str, int]] = right_answer
) -> list[Judgment]:
    """The judge's whole queue, item by item as the judge's page opens them, each
    answered with ``answer``'s (new reference, SSER) and accepted. Returns the items in
    the order they came."""
    items = []
    while (judgment := next_judgment_for(user=judge, corpus=corpus)) is not None:
        items.append(judgment)
        new_ref, sser = answer(judgment)
        finish(judgment, judge, new_ref, sser)
    return items


def kinds_met(corpus: Corpus, judge: User) -> set[str]:
    """The kinds of control ``judge``'s queue of ``corpus`` holds, from the runs'
    draws alone (:func:`annotation.controls.runs.run_items`, no judgment made)."""
    kinds = set()
    for sentence_id, span in corpus_spans(corpus).items():
        run = run_items(
            Placement.of(corpus, judge.pk),
            blind=corpus.blind,
            sentence_id=sentence_id,
            span=span,
            order=range(span.systems),
            references=range(span.references),
            kinds=control_kinds(corpus),
        )
        kinds |= {i.kind for i in run if i.kind}
    return kinds


def with_every_kind(corpus: Corpus, judge: User, kinds: set[str] | None = None) -> Corpus:
    """``corpus`` at the first rate from 3 up whose queue for ``judge`` holds these
    ``kinds`` of control (by default every kind it can: a corpus that shows names has
    no reference control), since the draws depend on the ids, which differ between
    databases and test orders."""
    if kinds is None and corpus.marks_spans:
        kinds = set(SPAN_KINDS)
    if kinds is None:
        kinds = set(DRAWN_KINDS)
        if not corpus.blind:
            kinds.discard(Judgment.Control.REFERENCE)
    for rate in range(3, 101):
        corpus.control_rate = rate
        if kinds <= kinds_met(corpus, judge):
            corpus.save()
            return corpus
    raise AssertionError(f"no rate gives the controls {sorted(kinds)}")


def span_queue_corpus(
    path: Path,
    name: str,
    judges: Sequence[User],
    protocol: str,
    *,
    sentences: int = 30,
    systems: int = 3,
    rate: int = 10,
) -> Corpus:
    """:func:`queue_corpus` judged by ``protocol`` (ESA or MQM)."""
    corpus = queue_corpus(path, name, judges, sentences=sentences, systems=systems, rate=rate)
    corpus.protocol = protocol
    corpus.save(update_fields=["protocol"])
    return corpus


#: A span judge's answer to an item: the ESA score (None in MQM) and the spans marked.
SpanAnswer = tuple[int | None, Sequence[MarkedSpan]]


def walk_span_queue(
    corpus: Corpus, judge: User, answer: Callable[[Judgment], SpanAnswer]
) -> list[Judgment]:
    """The judge's whole queue of an ESA / MQM corpus, item by item as the page opens
    them, each marked and scored with ``answer``'s and accepted through the services.
    Returns the items in the order they came."""
    items = []
    while (judgment := next_judgment_for(user=judge, corpus=corpus)) is not None:
        items.append(judgment)
        score, spans = answer(judgment)
        for span in spans:
            judgment_mark_span(judgment=judgment, user=judge, version=judgment.version, span=span)
        if score is not None:
            judgment_set_esa_score(
                judgment=judgment, user=judge, version=judgment.version, score=score
            )
        judgment_finish(judgment=judgment, user=judge, version=judgment.version)
    return items


def first_run_holding(
    corpus: Corpus, user_factory: Callable[..., User], kinds: set[str]
) -> tuple[User, list[RunItem]]:
    """The first of new judges ``ana``, ``ana1``, … whose first run of ``corpus`` (the
    queue's first sentence's) holds these ``kinds`` of control, assigned to the corpus,
    and that run's items: the draws depend on the ids, which differ between databases."""
    sentence = corpus.sentences.get(queue_position=0)
    span = corpus_spans(corpus)[sentence.pk]
    for k in range(80):
        judge = user_factory(f"ana{k or ''}")
        run = run_items(
            Placement.of(corpus, judge.pk),
            blind=corpus.blind,
            sentence_id=sentence.pk,
            span=span,
            order=range(span.systems),
            references=range(span.references),
            kinds=control_kinds(corpus),
        )
        if kinds <= {i.kind for i in run}:
            corpus.judges.add(judge)
            return judge, run
    raise AssertionError(f"no judge's first run holds the controls {sorted(kinds)}")
