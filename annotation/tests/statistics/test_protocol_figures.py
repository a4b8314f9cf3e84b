"""The figures of corpora judged by error spans (issue 41, point 5): ``esa`` (the mean
0–100 score, a candidate's judges averaged first), ``esa_z`` (z-normalised per judge) and
``mqm`` (penalty points of the judge's spans under the corpus's taxonomy), each checked
against a computation by hand; their judgments feed no aWER figure; and reading them
costs the same queries whatever the corpus's size."""

from __future__ import annotations

import statistics
from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.models import Corpus, User
from annotation.models.corpus import Protocol
from annotation.statistics import human_scores, judgment_rows
from annotation.tests.span_corpora import span_corpus, span_judgment

pytestmark = pytest.mark.django_db

#: The ESA scores given: judge → {(system, sentence): score}. A's first candidate is
#: judged by both judges, and so is B's.
ESA_SCORES = {
    "ann": {("A", 0): 80, ("A", 1): 60, ("B", 0): 40, ("B", 1): 20, ("A", 2): 100},
    "bob": {("A", 0): 70, ("B", 0): 50, ("B", 2): 30},
}
#: The figures the aWER protocol computes, none of which an ESA or MQM judgment feeds.
AWER_FIGURES = {"sser", "awer", "aser", "hter", "ier"}


@pytest.fixture
def esa_corpus(user_factory: Callable[..., User]) -> Corpus:
    judges = {name: user_factory(name) for name in ESA_SCORES}
    corpus = span_corpus(Protocol.ESA, judges["ann"])
    for name, scores in ESA_SCORES.items():
        for (system, sentence), score in scores.items():
            span_judgment(corpus, judges[name], system, sentence, esa=score)
    return corpus


def by_hand_esa(values: dict[str, dict[tuple[str, int], float]]) -> dict[str, float]:
    """Each system's mean over its candidates of the candidate's mean over its judges."""
    per_candidate: dict[tuple[str, int], list[float]] = {}
    for scores in values.values():
        for candidate, v in scores.items():
            per_candidate.setdefault(candidate, []).append(v)
    return {
        system: statistics.fmean(
            statistics.fmean(v) for (s, _), v in per_candidate.items() if s == system
        )
        for system in ("A", "B")
    }


def test_esa_is_the_mean_over_candidates_of_each_candidates_mean(esa_corpus: Corpus) -> None:
    figures = human_scores(esa_corpus)
    # A: (80 + 70)/2, 60, 100 → 78.33 (a mean over judgments would give 77.5)
    assert figures["A"]["esa"].score == pytest.approx((75 + 60 + 100) / 3)
    assert figures["B"]["esa"].score == pytest.approx((45 + 20 + 30) / 3)
    assert {s: figures[s]["esa"].score for s in "AB"} == pytest.approx(by_hand_esa(ESA_SCORES))
    assert figures["A"]["esa"].signature.startswith("judgments:4|scale:0-100|per:candidate|")


def test_esa_z_normalises_each_judges_scores_by_their_own_mean_and_deviation(
    esa_corpus: Corpus,
) -> None:
    z = {}
    for judge, scores in ESA_SCORES.items():
        mean, sd = statistics.fmean(scores.values()), statistics.pstdev(scores.values())
        z[judge] = {candidate: (v - mean) / sd for candidate, v in scores.items()}
    figures = human_scores(esa_corpus)
    expected = by_hand_esa(z)
    assert {s: figures[s]["esa_z"].score for s in "AB"} == pytest.approx(expected)
    # ann: mean 60, deviation √800; bob: mean 50, deviation √(800/3)
    assert expected["A"] == pytest.approx(
        ((20 / 800**0.5 + 20 / (800 / 3) ** 0.5) / 2 + 0 + 40 / 800**0.5) / 3
    )


def test_esa_and_mqm_judgments_feed_no_awer_figure(
    esa_corpus: Corpus, user_factory: Callable[..., User]
) -> None:
    """Their new reference is the nearest reference the page started from, never the
    judge's: an aWER figure of it would report an edit count nobody made."""
    assert all(not AWER_FIGURES & set(f) for f in human_scores(esa_corpus).values())
    cy = user_factory("cy")
    mqm = span_corpus(Protocol.MQM, cy, name="mqm")
    span_judgment(mqm, cy, "A", 0, spans=[(0, 1, "minor", "Other")])
    assert set(human_scores(mqm)["A"]) == {"mqm"}


def test_mqm_is_the_mean_of_wmts_weighted_penalties_of_the_judges_spans(
    user_factory: Callable[..., User],
) -> None:
    """Freitag et al. 2021's weights, WMT's: minor 1, minor punctuation 0.1, major 5,
    non-translation 25. Suggested spans (ESA^AI's pre-fill) count only once kept."""
    ann, bob = user_factory("ann"), user_factory("bob")
    corpus = span_corpus(Protocol.MQM, ann, name="mqm")
    # "a dog ran A 0": 1 (grammar) + 0.1 (punctuation) + 5 (mistranslation) = 6.1
    span_judgment(
        corpus,
        ann,
        "A",
        0,
        spans=[
            (0, 1, "minor", "Fluency/Grammar"),
            (2, 5, "minor", "Fluency/Punctuation"),
            (6, 9, "major", "Accuracy/Mistranslation"),
        ],
    )
    span_judgment(corpus, bob, "A", 0, spans=[(6, 9, "minor", "Accuracy/Mistranslation")])
    span_judgment(corpus, ann, "A", 1, spans=[(0, 13, "major", "Non-translation")])
    span_judgment(corpus, ann, "B", 0, suggested=[(0, 5, "major", "Other")])  # removed
    span_judgment(corpus, ann, "B", 1, spans=[(0, 1, "minor", "Other")])
    figures = human_scores(corpus)
    # A: sentence 0 judged twice, (6.1 + 1)/2; sentence 1: 25
    assert figures["A"]["mqm"].score == pytest.approx(((1 + 0.1 + 5 + 1) / 2 + 25) / 2)
    assert figures["B"]["mqm"].score == pytest.approx((0 + 1) / 2)
    assert figures["A"]["mqm"].signature.startswith(
        "judgments:3|errors:spans|weights:taxonomy|per:candidate|"
    )


def test_mqm_weighs_the_spans_by_the_corpuss_own_taxonomy(
    user_factory: Callable[..., User],
) -> None:
    judge = user_factory("ann")
    corpus = span_corpus(Protocol.MQM, judge, name="mqm")
    corpus.mqm_taxonomy = {
        "weights": {"minor": 2, "major": 10},
        "categories": [{"name": "Meaning", "weights": {"major": 50}}, {"name": "Form"}],
    }
    corpus.save(update_fields=["mqm_taxonomy"])
    span_judgment(
        corpus, judge, "A", 0, spans=[(0, 1, "minor", "Form"), (2, 5, "major", "Meaning")]
    )
    span_judgment(corpus, judge, "A", 1, spans=[(0, 1, "major", "Form")])
    assert human_scores(corpus)["A"]["mqm"].score == pytest.approx((2 + 50 + 10) / 2)
    # "Meaning" taken out of the taxonomy after it was marked: its severity's 10 points
    corpus.mqm_taxonomy = {"weights": {"minor": 2, "major": 10}, "categories": [{"name": "Form"}]}
    corpus.save(update_fields=["mqm_taxonomy"])
    assert human_scores(corpus)["A"]["mqm"].score == pytest.approx((2 + 10 + 10) / 2)


def test_esa_z_reads_each_judges_whole_corpus_when_some_systems_only_are_read(
    esa_corpus: Corpus,
) -> None:
    """The drill-down reads a few systems' judgments: each z-score stays the one of the
    judge's every score, as the table's."""
    every = {r.pk: r.esa_z for r in judgment_rows(esa_corpus)}
    some = {r.pk: r.esa_z for r in judgment_rows(esa_corpus, systems=["B"])}
    assert some == {pk: every[pk] for pk in some}
    assert len(some) == 4


@pytest.mark.parametrize("protocol", [Protocol.ESA, Protocol.MQM])
def test_reading_the_judgments_costs_the_same_queries_at_any_size(
    protocol: str, user_factory: Callable[..., User]
) -> None:
    counts = []
    for sentences in (2, 6):
        judge = user_factory()
        corpus = span_corpus(protocol, judge, sentences=sentences, name=f"c{sentences}")
        for k in range(sentences):
            for system in ("A", "B"):
                span_judgment(
                    corpus, judge, system, k, esa=50 + k, spans=[(0, 1, "minor", "Other")]
                )
        with CaptureQueriesContext(connection) as queries:
            judgment_rows(corpus)
            judgment_rows(corpus, systems=["A"])
        counts.append(len(queries))
    assert counts[0] == counts[1]
