"""The judgments the dashboard keeps, brought up to date (:mod:`annotation.statistics.
judgment_read`): after any sequence of writes (judges' clicks finishing a judgment,
changing a done one's score or new reference, taking one back; a judge left out or counted
again; judgments deleted, a judge's work discarded), read after every write or only now
and then, they are the rows a whole read gives, in the same order, to the last bit; the
rows of a judge or a system under one version are the same rows whenever it is given;
and a view after a click reads the changed judgments alone."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.campaigns.judges import corpus_leave_out_judge
from annotation.changes import judgments_changed
from annotation.judging.changes import judgment_set_sser, judgment_undo
from annotation.judging.stack import judgment_for
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, Target, User
from annotation.statistics import CountedJudgments, JudgmentRow, counted_judgments, judgment_rows
from annotation.tests.factories import finish

pytestmark = pytest.mark.django_db


def _targets(corpus: Corpus) -> list[Target]:
    return list(
        Target.objects.filter(sentence__corpus=corpus, translator__role="system").order_by("pk")
    )


def _done(corpus: Corpus) -> list[Judgment]:
    return list(Judgment.objects.of_corpus(corpus.pk).filter(state="done").order_by("pk"))


def _write(corpus: Corpus, judges: list[User], rng: random.Random) -> str:
    """One random write of the judgments, through the services a judge's page or a lead's
    uses (a deletion as the admin's: the rows, then the stamp); returns what it was."""
    done = _done(corpus)
    what = rng.choice(["new", "new", "score", "ref", "taken back", "left out", "deleted"])
    if what == "new":
        judge = rng.choice(judges)
        target = rng.choice(_targets(corpus))
        opened = judgment_for(pk=judgment_open(user=judge, target=target).pk, user=judge)
        if opened.state != Judgment.State.DONE:
            finish(opened, judge, f"w {rng.randint(0, 9)} x", rng.randint(0, 10))
    elif what in ("score", "ref", "taken back") and done:
        chosen = rng.choice(done)
        judge = chosen.evaluator
        judgment = judgment_for(pk=chosen.pk, user=judge)
        if what == "score":
            sser = (judgment.sser or 0) % 10 + 1
            judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=sser)
        elif what == "ref":
            finish(judgment_open(user=judge, target=chosen.target), judge, "y z", 4)
        else:  # the finish undone: no longer done
            judgment_undo(judgment=judgment, user=judge, version=judgment.version)
    elif what == "left out":
        judge = rng.choice(judges)
        out = corpus.excluded_judges.filter(pk=judge.pk).exists()
        corpus_leave_out_judge(corpus=corpus, judge=judge, left_out=not out)
    elif what == "deleted" and done:
        rng.choice(done).delete()
        judgments_changed(corpus.pk)
    return what


@pytest.mark.parametrize("seed", range(4))
def test_the_kept_judgments_are_those_read_whole_after_any_writes(
    hand_corpus: Corpus, user_factory: Callable[..., User], seed: int
) -> None:
    hand, rng = hand_corpus, random.Random(seed)
    judges = [user_factory(name) for name in ("ann", "bob", "cy")]
    hand.judges.add(*judges)
    writes: list[str] = []
    seen: dict[tuple[str, str, tuple[int, int]], list[JudgmentRow]] = {}
    for _ in range(40):
        writes.append(_write(hand, judges, rng))
        if rng.random() < 0.6:  # else the next read brings several writes up to date
            fresh = Corpus.objects.get(pk=hand.pk)
            read = counted_judgments(fresh)
            assert read.rows == judgment_rows(fresh), writes
            for key, rows in _by_version(read).items():  # a version names its rows
                assert seen.setdefault(key, rows) == rows, (key, writes)
    assert {"new", "score", "taken back", "deleted"} <= set(writes)


def _by_version(
    read: CountedJudgments,
) -> dict[tuple[str, str, tuple[int, int]], list[JudgmentRow]]:
    """Each judge's and each system's rows, by the version its read gives them."""
    out: dict[tuple[str, str, tuple[int, int]], list[JudgmentRow]] = {}
    for r in read.rows:
        out.setdefault(("judge", r.evaluator, read.versions.of_judge(r.evaluator)), []).append(r)
        out.setdefault(("system", r.system, read.versions.of_system(r.system)), []).append(r)
    return out


def test_after_a_click_the_read_asks_for_the_changed_judgments_alone(
    hand_corpus: Corpus, user_factory: Callable[..., User]
) -> None:
    """One query, whose rows are the judgment the click changed."""
    hand = hand_corpus
    judge = user_factory("ann")
    hand.judges.add(judge)
    for target in _targets(hand)[:6]:
        finish(judgment_open(user=judge, target=target), judge, "a b", 5)
    counted_judgments(Corpus.objects.get(pk=hand.pk))
    changed = judgment_for(pk=_done(hand)[2].pk, user=judge)
    judgment_set_sser(judgment=changed, user=judge, version=changed.version, sser=9)

    fresh = Corpus.objects.get(pk=hand.pk)
    with CaptureQueriesContext(connection) as queries:
        rows = counted_judgments(fresh).rows

    assert len(queries) == 1
    assert rows == judgment_rows(fresh)
    assert [r.sser for r in rows if r.pk == changed.pk] == [9]


def test_the_changed_judgments_are_searched_by_their_corpus_and_stamp_at_once(
    hand_corpus: Corpus, demo: Corpus, user_factory: Callable[..., User]
) -> None:
    """The stamps are counted per corpus, so another corpus's judgments are stamped
    above this one's stamp too: the read searches its index by the corpus and the stamp
    together, and visits none of theirs, however many they are."""
    hand, judge = hand_corpus, user_factory("cy")
    hand.judges.add(judge)
    demo.judges.add(judge)
    finish(judgment_open(user=judge, target=_targets(hand)[0]), judge, "a b", 5)
    counted_judgments(Corpus.objects.get(pk=hand.pk))
    for target in _targets(demo)[:6]:  # the other corpus's stamps climb past this one's
        finish(judgment_open(user=judge, target=target), judge, "c d", 4)
    changed = judgment_for(pk=_done(hand)[0].pk, user=judge)
    judgment_set_sser(judgment=changed, user=judge, version=changed.version, sser=9)
    assert Judgment.objects.filter(figures_stamp__gt=_done(hand)[0].figures_stamp).exists()

    fresh = Corpus.objects.get(pk=hand.pk)
    with CaptureQueriesContext(connection) as queries:
        rows = counted_judgments(fresh).rows

    assert rows == judgment_rows(fresh)
    (read,) = [q["sql"] for q in queries.captured_queries]
    plan = _plan(read)
    if connection.vendor == "sqlite":
        assert "USING INDEX judgment_figures_stamp (figures_corpus=? AND figures_stamp>?)" in plan
    else:
        assert re.search(r"(using|Scan on) judgment_figures_stamp ", plan), plan
        assert "Index Cond: ((figures_corpus = " in plan
        assert "figures_stamp > " in plan


def _plan(sql: str) -> str:
    """The database's plan of ``sql`` as text (PostgreSQL's told to use an index where it
    can: on a test's few rows it would read the whole table anyway)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
            return "\n".join(str(row[-1]) for row in cursor.fetchall())
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql}")
        return "\n".join(row[0] for row in cursor.fetchall())
