"""Fixtures of the dashboard's and the statistics' tests (their conftests import them):
the hand-checked corpus (judged or not) and the demo corpus with judgments; their data
and plain helpers are in :mod:`annotation.tests.factories`. None is scored until
something reads its figures (a page, :func:`~annotation.tests.stored.
automatic_statistics`): a test that never does costs no scoring."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, User
from annotation.statistics import fill_hter_counts
from annotation.tests.factories import (
    DEMO_XML,
    HAND_EDITS,
    HAND_REFS,
    HAND_SSER,
    HAND_SYSTEMS,
    add_judgments,
    done_judgment,
    done_judgments,
    sized_corpus,
    write_corpus,
)
from annotation.tests.pools import grow_demo_pool

#: Three systems a judge tells apart: each one's SSER scores (0–10: the higher on odd
#: sentences, the lower on even ones) and its wrong words of six.
APART = {"good": ((10, 9), 0), "fair": ((6, 5), 2), "poor": ((2, 1), 4)}


def apart_corpus_in(path: Path, name: str, judge: User, n: int, *, sentences: int) -> Corpus:
    """``sentences`` sentences × the three systems of :data:`APART` ("w{k} a b c d e", 0, 2
    or 4 of its words wrong), ``n`` of the sentences judged per system by ``judge``: the
    system's SSER score, its wrong words as edits (one more on odd sentences) of a
    six-word reference."""
    refs = [[f"w{k} a b c d e"] for k in range(sentences)]
    hyps = {
        s: [" ".join([f"w{k}", "a", "b", "c", "d", "e"][: 6 - wrong] + ["x"] * wrong)
            for k in range(sentences)]
        for s, (_, wrong) in APART.items()
    }  # fmt: skip
    source = write_corpus(path / f"{name}.xml", refs, hyps)
    corpus = corpus_import(source=source, name=name, score=False).corpus
    done_judgments(
        corpus,
        (
            (judge, system, k, high if k % 2 else low, wrong + k % 2, 6)
            for system, ((high, low), wrong) in APART.items()
            for k in range(n)
        ),
    )
    return corpus


def hand_corpus_in(tmp_path: Path) -> Corpus:
    """The hand corpus (:data:`~annotation.tests.factories.HAND_REFS`, ``HAND_SYSTEMS``)."""
    return corpus_import(
        source=write_corpus(tmp_path / "hand.xml", HAND_REFS, HAND_SYSTEMS),
        name="hand",
        score=False,
    ).corpus


def demo_judged_by(ann: User, bob: User) -> Corpus:
    """The demo corpus with 40 done judgments by ``ann`` and ``bob``."""
    corpus = corpus_import(source=DEMO_XML, name="demo", score=False).corpus
    add_judgments(corpus, [ann, bob], 40)
    return corpus


#: The split corpus's sentences, and those a second judge judges too (the overlap).
SPLIT_SENTENCES, SPLIT_OVERLAP = 24, 12


def split_judged_in(path: Path, judges: list[User]) -> Corpus:
    """A split campaign's judgments (one judge per candidate, a share by two):
    :data:`SPLIT_SENTENCES` sentences × three systems ("system 0" worst, "system 2"
    best: SSER 3, 5 and 7 give or take a point); sentence k's candidates judged by
    ``judges[k % n]``, and for k below :data:`SPLIT_OVERLAP` by the next judge too.
    Judge j scores j points below the first judge (the strict ones last); HTER's counts
    filled, as a worker fills them."""
    corpus = sized_corpus(path, "split", SPLIT_SENTENCES)
    corpus.campaign.judges_per_item = 1
    corpus.campaign.save()
    n = len(judges)
    done_judgments(
        corpus,
        (
            (
                judges[j],
                f"system {s}",
                k,
                min(10, max(0, 3 + 2 * s + (k * 5 + s * 3) % 3 - 1 - j)),
                2 - s + j,
                6,
            )
            for k in range(SPLIT_SENTENCES)
            for s in range(3)
            for j in [k % n] + ([(k + 1) % n] if k < SPLIT_OVERLAP else [])
        ),
    )
    fill_hter_counts()  # as a worker fills them after the judges' clicks
    return corpus


def demo_pool_grown_by(ann: User, bob: User) -> Corpus:
    """The demo corpus whose reference pool ``ann`` and ``bob`` grew
    (:func:`~annotation.tests.pools.grow_demo_pool`)."""
    corpus = corpus_import(source=DEMO_XML, name="demo", score=False).corpus
    return grow_demo_pool(corpus, ann, bob)


@pytest.fixture
def hand_corpus(tmp_path: Path) -> Corpus:
    return hand_corpus_in(tmp_path)


@pytest.fixture
def judged_hand(hand_corpus: Corpus, user_factory: Callable[..., User]) -> Corpus:
    """The hand corpus judged by "ann" (:data:`~annotation.tests.factories.HAND_SSER`)."""
    ann = user_factory("ann")
    for system, scores in HAND_SSER.items():
        for k, score in enumerate(scores):
            done_judgment(
                hand_corpus,
                ann,
                system,
                k,
                sser=score,
                edits=HAND_EDITS[system],
                length=4,
                new_ref=HAND_REFS[k][0],
                seconds=30.0,
            )
    return hand_corpus


@pytest.fixture
def demo(user_factory: Callable[..., User]) -> Corpus:
    """The demo corpus with 40 done judgments by "ann" and "bob"."""
    return demo_judged_by(user_factory("ann"), user_factory("bob"))


@pytest.fixture
def judged_demo(user_factory: Callable[..., User]) -> Corpus:
    """The demo corpus whose reference pool the judges grew
    (:func:`~annotation.tests.pools.grow_demo_pool`)."""
    return demo_pool_grown_by(user_factory("ann"), user_factory("bob"))
