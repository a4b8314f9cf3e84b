"""The judge's page costs the same number of queries on any corpus, however far the
judge has got: the page and every action (op, word, SSER, undo, accept & next) counted on
a small corpus with a judge at its start and on a larger one with a judge who has
finished most of it, and shown equal. A count that grows with either fails here."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotation.controls.queue import ControlPlan
from annotation.controls.runs import Placement, candidate_slot, control_slots, corpus_spans
from annotation.corpora.imports import corpus_import
from annotation.judging.start import control_open
from annotation.models import (
    CONTROL_RATE_MAX,
    Corpus,
    Judgment,
    Sentence,
    Target,
    Translator,
    User,
)
from annotation.tests.factories import HTMX, MAX_QUERIES_PER_CLICK, write_corpus
from annotation.tests.stored import scored
from annotation.text import awer_counts

pytestmark = pytest.mark.django_db

#: Query budgets of the page (a visit) and of accept & next (finish this candidate, move
#: the corpus's judgments stamp, open the next one and answer with its page, all in one
#: request; its one transaction's BEGIN, savepoints and COMMIT count as queries too).
#: Each includes the one query a process makes the first time it shows a corpus: the
#: live figures' rows from the corpus's stored statistics (``statistics.live.stored_stats``).
MAX_QUERIES_PAGE = 8
MAX_QUERIES_ACCEPT_AND_NEXT = 23
#: With control items on, accept & next also reads where the judge stands in the queue
#: (one query); when a control item is due, making it reads what it is made of (the
#: sentence's targets, and another sentence's candidate for a bad reference: one query
#: each) instead of looking for an open judgment.
MAX_QUERIES_ACCEPT_AND_NEXT_CONTROLS = MAX_QUERIES_ACCEPT_AND_NEXT + 1
MAX_QUERIES_ACCEPT_AND_NEXT_INTO_A_CONTROL = MAX_QUERIES_ACCEPT_AND_NEXT + 2

OP = re.compile(r'name="op" value="([a-z]+:\d+:\d+[^"]*)"')
VERSION = re.compile(r'data-version="(\d+)"')


def judged_corpus(
    tmp_path: Path, judge: User, *, sentences: int, systems: int, finished: int
) -> Corpus:
    """``sentences`` sentences with two references and ``systems`` systems (every
    candidate different, so no judgment starts as a reuse), assigned to ``judge``, who
    has accepted every candidate of the queue's first ``finished`` sentences; its statistics
    stored, as once its import's job is done (:func:`~annotation.tests.stored.scored`)."""
    refs = [
        (f"the cat {k} sat on the mat .", f"a cat {k} sat on a mat .") for k in range(sentences)
    ]
    outputs = {
        f"system {s}": [f"the dog {k} sat on mat {s} now ." for k in range(sentences)]
        for s in range(systems)
    }
    path = write_corpus(tmp_path / f"{sentences}x{systems}.xml", refs, outputs)
    corpus = scored(corpus_import(source=path, name=path.stem, score=False).corpus)
    corpus.judges.add(judge)
    done = Target.objects.filter(
        sentence__corpus=corpus, sentence__queue_position__lt=finished, translator__role="system"
    ).select_related("sentence")
    rows = []
    for target in done:
        new_ref = refs[target.sentence.position][0]
        edits, length = awer_counts(target.text, new_ref)
        rows.append(
            Judgment(
                target=target,
                evaluator=judge,
                new_ref=new_ref,
                sser=7,
                edits=edits,
                ref_length=length,
                state=Judgment.State.DONE,
            )
        )
    Judgment.objects.bulk_create(rows)
    return corpus


def counted(call: Callable[[], HttpResponse]) -> tuple[int, str]:
    """The queries ``call`` makes, and the page it answers with (which must be 200)."""
    with CaptureQueriesContext(connection) as captured:
        response = call()
    assert response.status_code == 200, response.status_code
    return len(captured), response.content.decode()


def action_counts(client: Client, corpus: Corpus) -> dict[str, int]:
    """Queries of the judge's page and of each action on the judge's next candidate, as
    the page sends them (htmx), each from the version the page before it showed."""
    page = client.get(reverse("annotation:judge_continue", args=[corpus.pk]))["Location"]
    counts: dict[str, int] = {}
    counts["page"], html = counted(partial(client.get, page, **HTMX))
    steps = [
        ("op", "op/", {"op": OP.search(html).group(1)}),
        ("word", "word/", {"pos": "0", "action": "replace", "text": "A"}),
        ("sser", "sser/", {"sser": "8"}),
        ("undo", "undo/", {}),
        ("sser after undo", "sser/", {"sser": "6"}),
        ("accept & next", "accept/", {}),
    ]
    for name, action, data in steps:
        sent = {"version": VERSION.search(html).group(1), **data}
        counts[name], html = counted(partial(client.post, page + action, sent, **HTMX))
    assert f'data-judgment="{page.split("/")[-2]}"' not in html  # the next candidate's page
    return counts


def counts_on_two_sizes(
    tmp_path: Path,
    client: Client,
    user_factory: Callable[..., User],
    before: Callable[[Corpus, User], User | None] | None = None,
) -> tuple[dict[str, int], dict[str, int]]:
    """:func:`action_counts` of a new judge on a 5-sentence corpus and of a seasoned one
    40 sentences into a 50-sentence corpus (``before`` prepares each judge's corpus, and
    may hand the judge's work to another judge, whom it returns)."""
    new, seasoned = user_factory("new"), user_factory("seasoned")
    small = judged_corpus(tmp_path, new, sentences=5, systems=2, finished=1)
    large = judged_corpus(tmp_path, seasoned, sentences=50, systems=4, finished=40)
    if before is not None:
        new = before(small, new) or new
        seasoned = before(large, seasoned) or seasoned
    client.force_login(new)
    at_start = action_counts(client, small)
    client.force_login(seasoned)
    return at_start, action_counts(client, large)


@pytest.mark.parametrize("figures", [True, None], ids=["figures-shown", "figures-hidden"])
def test_every_action_costs_the_same_queries_on_a_small_and_a_large_corpus(
    tmp_path: Path, client: Client, user_factory: Callable[..., User], figures: bool | None
) -> None:
    """With the live figures shown, and hidden (a blind corpus's default: fewer queries)."""

    def show(corpus: Corpus, judge: User) -> None:
        Corpus.objects.filter(pk=corpus.pk).update(judges_see_figures=figures)

    at_start, far_in = counts_on_two_sizes(tmp_path, client, user_factory, before=show)

    assert far_in == at_start
    assert at_start["page"] <= MAX_QUERIES_PAGE
    assert at_start["accept & next"] <= MAX_QUERIES_ACCEPT_AND_NEXT
    for action in ("op", "word", "sser", "undo", "sser after undo"):
        assert at_start[action] <= MAX_QUERIES_PER_CLICK, action


def test_the_full_page_costs_the_same_queries_on_a_small_and_a_large_corpus(
    tmp_path: Path, client: Client, user_factory: Callable[..., User]
) -> None:
    new, seasoned = user_factory("new"), user_factory("seasoned")
    small = judged_corpus(tmp_path, new, sentences=5, systems=2, finished=1)
    large = judged_corpus(tmp_path, seasoned, sentences=50, systems=4, finished=40)

    def page_queries(user: User, corpus: Corpus) -> int:
        client.force_login(user)
        page = client.get(reverse("annotation:judge_continue", args=[corpus.pk]))["Location"]
        return counted(partial(client.get, page))[0]

    assert page_queries(seasoned, large) == page_queries(new, small) <= MAX_QUERIES_PAGE


def control_stands_before(judge: User, corpus: Corpus, real: int) -> bool:
    """Whether, at ``corpus``'s settings, the judge's queue has a control's place just
    before the judge's candidate ``real`` (0-based, over the corpus in the queue's
    order): where accept & next would make one (:func:`~annotation.controls.queue.
    due_control`)."""
    sentence, span = next(
        (pk, s) for pk, s in corpus_spans(corpus).items() if s.first <= real < s.first + s.systems
    )
    slots = control_slots(Placement.of(corpus, judge.pk), sentence, span.systems)
    slot = candidate_slot(slots, real - span.first)
    return slot > 0 and slot - 1 in slots


def passed_on(judge: User, corpus: Corpus, user_factory: Callable[..., User]) -> User:
    """Another judge, with ``judge``'s work in ``corpus``: the ids seed the control
    places, so where a judge's draw does not put one where a test needs it, another
    judge's may."""
    successor = user_factory()
    Judgment.objects.filter(evaluator=judge).update(evaluator=successor)
    corpus.judges.add(successor)
    return successor


def with_controls(corpus: Corpus) -> None:
    """Controls on, one a run (the rate does not move the places within a run)."""
    corpus.controls_enabled, corpus.control_rate = True, CONTROL_RATE_MAX
    corpus.save()


def open_control(corpus: Corpus, judge: User, kind: str, user_factory: Callable[..., User]) -> User:
    """Turn control items on and open one for ``judge`` on the queue's first sentence,
    done (a reference under system 0's label, or system 0's candidate again, as repeats
    were made), so the judge's next page is that control item; what comes after it must
    be a candidate, so the judge is one whose draw puts no control's place before their
    next candidate (else accept & next would make a planned control too). Returns that
    judge."""
    following = Judgment.objects.counted().filter(evaluator=judge).count()
    with_controls(corpus)
    while control_stands_before(judge, corpus, following):
        judge = passed_on(judge, corpus, user_factory)
    translator = "multi reference" if kind == Judgment.Control.REFERENCE else "system 0"
    target = Target.objects.select_related("translator", "sentence__corpus").get(
        sentence__corpus=corpus, sentence__queue_position=0, translator__name=translator
    )
    shown_as = Translator.objects.get(corpus=corpus, name="system 0")
    control_open(
        user=judge,
        plan=ControlPlan(target, kind, shown_as if kind == Judgment.Control.REFERENCE else None),
    )
    return judge


@pytest.mark.parametrize("kind", [Judgment.Control.REFERENCE, Judgment.Control.REPEAT])
def test_a_control_items_page_costs_what_a_candidates_does_on_any_corpus(
    tmp_path: Path, client: Client, user_factory: Callable[..., User], kind: str
) -> None:
    at_start, far_in = counts_on_two_sizes(
        tmp_path,
        client,
        user_factory,
        before=lambda corpus, judge: open_control(corpus, judge, kind, user_factory),
    )

    assert far_in == at_start
    assert at_start["page"] <= MAX_QUERIES_PAGE
    assert at_start["accept & next"] <= MAX_QUERIES_ACCEPT_AND_NEXT_CONTROLS
    for action in ("op", "word", "sser", "undo", "sser after undo"):
        assert at_start[action] <= MAX_QUERIES_PER_CLICK, action


def test_accept_and_next_into_a_new_control_item_is_bounded_on_any_corpus(
    tmp_path: Path, client: Client, user_factory: Callable[..., User]
) -> None:
    """A control's place stands just before the candidate after the judge's next one
    (and none before that one): accept & next on that candidate makes the control item.
    The ids seed the places: where they put none there, the judge's work passes to
    another judge, whose id draws other places."""
    counts = []
    for user, size, systems, finished in (("new", 5, 2, 1), ("seasoned", 50, 4, 40)):
        judge = user_factory(user)
        corpus = judged_corpus(tmp_path, judge, sentences=size, systems=systems, finished=finished)
        with_controls(corpus)
        at = systems * finished  # the judge's next candidate; the item after it, a control
        while control_stands_before(judge, corpus, at) or not control_stands_before(
            judge, corpus, at + 1
        ):
            judge = passed_on(judge, corpus, user_factory)
        client.force_login(judge)
        counts.append(action_counts(client, corpus)["accept & next"])
        assert Judgment.objects.controls().filter(evaluator=judge).count() == 1

    assert max(counts) <= MAX_QUERIES_ACCEPT_AND_NEXT_INTO_A_CONTROL


#: A sentence of a document (``doc``) shows the sources around it (issue 14): one query
#: by the (corpus, position) index on every page drawn, whatever the corpus size; a
#: sentence without ``doc`` makes none.
DOCUMENT_CONTEXT_QUERIES = 1


def in_one_document(corpus: Corpus, judge: User) -> None:
    Sentence.objects.filter(corpus=corpus).update(doc="talk")


def test_the_document_around_the_source_costs_one_query_on_any_corpus(
    tmp_path: Path, client: Client, user_factory: Callable[..., User]
) -> None:
    at_start, far_in = counts_on_two_sizes(tmp_path, client, user_factory, in_one_document)

    assert far_in == at_start
    assert at_start["page"] <= MAX_QUERIES_PAGE + DOCUMENT_CONTEXT_QUERIES
    assert at_start["accept & next"] <= MAX_QUERIES_ACCEPT_AND_NEXT + DOCUMENT_CONTEXT_QUERIES
    for action in ("op", "word", "sser", "undo", "sser after undo"):
        assert at_start[action] <= MAX_QUERIES_PER_CLICK + DOCUMENT_CONTEXT_QUERIES, action


def test_correct_as_it_is_and_a_note_cost_a_click_on_any_corpus(
    tmp_path: Path, client: Client, user_factory: Callable[..., User]
) -> None:
    def counts(user: User, corpus: Corpus) -> list[int]:
        client.force_login(user)
        page = client.get(reverse("annotation:judge_continue", args=[corpus.pk]))["Location"]
        html = client.get(page, **HTMX).content.decode()
        out = []
        for action, data in (("as-is/", {}), ("note/", {"note": "hm", "flag": "unsure"})):
            sent = {"version": VERSION.search(html).group(1), **data}
            n, html = counted(partial(client.post, page + action, sent, **HTMX))
            out.append(n)
        return out

    new, seasoned = user_factory("new"), user_factory("seasoned")
    small = judged_corpus(tmp_path, new, sentences=5, systems=2, finished=1)
    large = judged_corpus(tmp_path, seasoned, sentences=50, systems=4, finished=40)
    at_start = counts(new, small)

    assert counts(seasoned, large) == at_start
    assert max(at_start) <= MAX_QUERIES_PER_CLICK
