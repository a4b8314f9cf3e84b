"""Control items of ESA and MQM corpora (issue 41, point 4): a candidate with injected
errors passes when it scores at least the lead's drop worse than the judge's score of
the original, a repeat when within the lead's tolerance of the first score; the edges
pass, one step beyond fails. The runs draw repeats of candidates met before in the run
and bad references made of the candidate's own words; a judge's pass rate is read as
the aWER corpora's."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from annotation.controls.api import corpus_controls
from annotation.controls.degrade import degraded_text, text_words
from annotation.controls.quality import ControlRow, control_rows, judge_controls
from annotation.controls.runs import SPAN_KINDS, Placement, Span, control_kinds, run_items
from annotation.controls.scored import ScoreRule, score_rule, scored_control_passed
from annotation.models import Corpus, Judgment, User
from annotation.models.corpus import Protocol
from annotation.tests.controls.factories import (
    SpanAnswer,
    kinds_met,
    span_queue_corpus,
    walk_span_queue,
    with_every_kind,
)
from metrics.error_spans import MarkedSpan

DEGRADED, REPEAT = Judgment.Control.DEGRADED, Judgment.Control.REPEAT
REFERENCE = Judgment.Control.REFERENCE
ESA_RULE = ScoreRule(drop=10, tolerance=10, lower_is_better=False)
MQM_RULE = ScoreRule(drop=1.0, tolerance=5.0, lower_is_better=True)
#: The drop of three minor punctuation errors (0.1 each): 0.1 + 0.1 + 0.1 is not 0.3 in
#: floating point, and must pass all the same.
MQM_PUNCTUATION_RULE = ScoreRule(drop=0.3, tolerance=0.1, lower_is_better=True)

EDGES = [
    # ESA: 0–100, higher is better; drop 10, tolerance 10
    (ESA_RULE, DEGRADED, 60, 70, True),  # exactly 10 below
    (ESA_RULE, DEGRADED, 61, 70, False),  # 9 below
    (ESA_RULE, DEGRADED, 0, 100, True),
    (ESA_RULE, DEGRADED, 70, 70, False),  # the same score
    (ESA_RULE, DEGRADED, 80, 70, False),  # better than the original
    (ESA_RULE, DEGRADED, 0, 5, True),  # nothing is 10 below 5: the scale's bottom passes
    (ESA_RULE, DEGRADED, 1, 5, False),
    (ESA_RULE, DEGRADED, 0, 0, True),
    (ESA_RULE, REPEAT, 80, 70, True),  # exactly 10 away
    (ESA_RULE, REPEAT, 60, 70, True),
    (ESA_RULE, REPEAT, 81, 70, False),  # 11 away
    (ESA_RULE, REPEAT, 59, 70, False),
    (ESA_RULE, REPEAT, 70, 70, True),
    # MQM: penalty points, lower is better; drop 1, tolerance 5
    (MQM_RULE, DEGRADED, 2.0, 1.0, True),  # exactly one point more
    (MQM_RULE, DEGRADED, 1.9, 1.0, False),
    (MQM_RULE, DEGRADED, 0.0, 1.0, False),  # fewer points than the original
    (MQM_RULE, DEGRADED, 30.0, 5.0, True),
    (MQM_RULE, REPEAT, 6.0, 1.0, True),  # exactly 5 away
    (MQM_RULE, REPEAT, 1.0, 6.0, True),
    (MQM_RULE, REPEAT, 6.1, 1.0, False),
    (MQM_RULE, REPEAT, 0.0, 5.1, False),
    (MQM_PUNCTUATION_RULE, DEGRADED, 0.1 + 0.1 + 0.1, 0.0, True),
    (MQM_PUNCTUATION_RULE, DEGRADED, 0.1 + 0.1, 0.0, False),
    (MQM_PUNCTUATION_RULE, REPEAT, 0.1 + 0.1 + 0.1, 0.1 + 0.1, True),
    # a reference shown as a candidate (Appraise's REF, imported) has no original: it
    # passes less than the drop below a perfect candidate
    (ESA_RULE, REFERENCE, 100, None, True),
    (ESA_RULE, REFERENCE, 91, None, True),
    (ESA_RULE, REFERENCE, 90, None, False),  # exactly the drop below 100
    (MQM_RULE, REFERENCE, 0.0, None, True),
    (MQM_RULE, REFERENCE, 0.9, None, True),
    (MQM_RULE, REFERENCE, 1.0, None, False),  # exactly the drop
    (MQM_PUNCTUATION_RULE, REFERENCE, 0.1 + 0.1 + 0.1, None, False),
]


@pytest.mark.parametrize("rule, kind, score, original, passed", EDGES)
def test_a_control_passes_at_the_edge_and_fails_one_step_beyond(
    rule: ScoreRule, kind: str, score: float, original: float | None, passed: bool
) -> None:
    assert scored_control_passed(kind, score, original, rule) is passed


@pytest.mark.parametrize("rule", [ESA_RULE, MQM_RULE])
@pytest.mark.parametrize("kind", [DEGRADED, REPEAT])
def test_a_control_waits_for_its_original_and_counts_nowhere_meanwhile(
    rule: ScoreRule, kind: str
) -> None:
    waiting = ControlRow("ana", kind, None, None, "", score=30, original_score=None)
    done = ControlRow("ana", kind, None, None, "", score=30, original_score=30)

    assert scored_control_passed(kind, 30, None, rule) is None
    (ana,) = judge_controls([waiting, done], threshold=70, rule=rule)
    assert (ana.done, ana.passed) == (1, 1 if kind == REPEAT else 0)


def test_a_judges_pass_rate_consistency_and_bad_references_from_scores() -> None:
    """Ana: 3 bad references, 2 passed; 2 repeats, 1 consistent: 3 of 5 passed, 60 %,
    below the threshold of 70. Bo: one repeat, consistent: 100 %."""
    rows = [
        ControlRow("ana", DEGRADED, None, None, "", score=20, original_score=80),  # passed
        ControlRow("ana", DEGRADED, None, None, "", score=70, original_score=80),  # passed
        ControlRow("ana", DEGRADED, None, None, "", score=75, original_score=80),  # failed
        ControlRow("ana", REPEAT, None, None, "", score=80, original_score=85),  # passed
        ControlRow("ana", REPEAT, None, None, "", score=50, original_score=85),  # failed
        ControlRow("bo", REPEAT, None, None, "", score=40, original_score=40),
    ]

    ana, bo = judge_controls(rows, threshold=70, rule=ESA_RULE)

    assert (ana.name, ana.done, ana.passed, ana.pass_rate, ana.flagged) == ("ana", 5, 3, 60, True)
    assert (ana.repeats, ana.consistent, ana.consistency) == (2, 1, 50)
    assert (ana.bad_references, ana.bad_references_passed) == (3, 2)
    assert (bo.name, bo.done, bo.pass_rate, bo.consistency, bo.flagged) == (
        "bo",
        1,
        100,
        100,
        False,
    )


@pytest.mark.parametrize(
    "protocol, rule",
    [
        (Protocol.AWER, None),
        (Protocol.ESA, ScoreRule(12, 7, False)),
        (Protocol.ESA_PREFILL, ScoreRule(12, 7, False)),
        (Protocol.MQM, ScoreRule(2.5, 0.5, True)),
    ],
)
def test_a_corpus_rule_is_its_protocols_drop_and_tolerance(
    protocol: str, rule: ScoreRule | None
) -> None:
    corpus = Corpus(
        protocol=protocol,
        control_esa_drop=12,
        control_esa_tolerance=7,
        control_mqm_drop=2.5,
        control_mqm_tolerance=0.5,
    )

    assert score_rule(corpus) == rule


# --- what the runs draw ------------------------------------------------------------------


def test_a_span_run_draws_repeats_of_candidates_met_before_and_bad_references() -> None:
    """Over many runs: both kinds met, no reference shown, every repeat after its
    candidate in the run, no candidate repeated twice in one run."""
    met: Counter[str] = Counter()
    for user in range(1, 60):
        order = [f"t{k}" for k in range(6)]
        run = run_items(
            Placement(user, 1, 3),
            blind=True,
            sentence_id=user,
            span=Span(0, 6, 2, 0),
            order=order,
            references=["r0", "r1"],
            kinds=SPAN_KINDS,
        )
        met.update(i.kind for i in run if i.kind)
        repeated = [i.target for i in run if i.kind == REPEAT]
        assert len(repeated) == len(set(repeated))
        for at, item in enumerate(run):
            if item.kind == REPEAT:
                assert item.target in [i.target for i in run[:at] if not i.kind]
            assert item.kind != Judgment.Control.REFERENCE

    assert met[REPEAT]
    assert met[DEGRADED]
    assert set(met) == {REPEAT, DEGRADED}


@pytest.mark.parametrize(
    "text, foreign, language",
    [
        ("The cat, it said, sat on the mat.", "A dog ran home quickly.", "en"),
        ("Die Katze saß auf der Matte, sagte sie.", "Ein Hund lief heim.", "de"),
    ],
)
def test_a_bad_reference_on_the_span_page_is_made_of_the_candidates_own_words(
    text: str, foreign: str, language: str
) -> None:
    """Every word of it is one of the candidate's or of the other sentence's, written as
    they are (a comma stays on its word: no 13a token shows), and it differs."""
    for seed in range(20):
        shown = degraded_text(text, foreign, language, random.Random(seed))

        assert shown != text
        assert set(shown.split()) <= set(text.split()) | set(foreign.split())
        assert " ," not in shown
        assert " ." not in shown


def test_a_bad_reference_in_a_language_without_blanks_is_made_of_characters() -> None:
    text, foreign = "猫坐在垫子上。", "狗跑回家了。"

    shown = degraded_text(text, foreign, "zh", random.Random(3))

    assert " " not in shown
    assert shown != text
    assert set(shown) <= set(text) | set(foreign)
    assert text_words(text, "zh-Hans") == tuple(text)


# --- a judge's queue, end to end through the services --------------------------------------


def careful_esa(judgment: Judgment) -> SpanAnswer:
    """A careful ESA judge: 80 for every candidate, 40 for one with injected errors
    (its first word marked major), 80 again for a candidate shown again."""
    if judgment.control == DEGRADED:
        return 40, [MarkedSpan(0, len(judgment.candidate_text.split()[0]), "major")]
    return 80, []


def careless_esa(judgment: Judgment) -> SpanAnswer:
    """A judge who clicks through: 75 for everything, nothing marked."""
    return 75, []


def mqm_minor_everywhere(judgment: Judgment) -> SpanAnswer:
    """An MQM judge who marks the first word a minor error everywhere, and the injected
    errors' candidates' last word a major one too (6 points against 1)."""
    first = MarkedSpan(
        0, len(judgment.candidate_text.split()[0]), "minor", "Accuracy/Mistranslation"
    )
    if judgment.control != DEGRADED:
        return None, [first]
    text = judgment.candidate_text
    last = MarkedSpan(len(text) - 1, len(text), "major", "Fluency/Grammar")
    return None, [first, last]


@pytest.mark.django_db
def test_a_careful_esa_judge_passes_every_control_and_a_careless_one_only_repeats(
    tmp_path: Path, user_factory
) -> None:
    careful, careless = user_factory("careful"), user_factory("careless")
    corpus = span_queue_corpus(
        tmp_path, "esa", [careful, careless], Protocol.ESA, sentences=6, systems=4
    )
    for rate in range(3, 101):  # the draws depend on the ids: a rate both meet both at
        corpus.control_rate = rate
        if all(kinds_met(corpus, judge) == set(SPAN_KINDS) for judge in (careful, careless)):
            break
    corpus.save()
    assert control_kinds(corpus) == SPAN_KINDS

    walked = walk_span_queue(corpus, careful, careful_esa)
    walked_careless = walk_span_queue(corpus, careless, careless_esa)

    kinds = Counter(j.control for j in walked if j.control)
    assert kinds[REPEAT]
    assert kinds[DEGRADED]
    assert not kinds[Judgment.Control.REFERENCE]
    for item in walked:
        if item.control == DEGRADED:
            assert item.candidate_text != item.target.text
        if item.control == REPEAT:
            assert item.candidate_text == item.target.text
    by_name = {c.name: c for c in corpus_controls(corpus)}
    good, bad = by_name["careful"], by_name["careless"]
    assert (good.done, good.passed, good.pass_rate, good.flagged) == (
        sum(kinds.values()),
        sum(kinds.values()),
        100,
        False,
    )
    assert (good.repeats, good.consistent) == (kinds[REPEAT], kinds[REPEAT])
    careless_kinds = Counter(j.control for j in walked_careless if j.control)
    assert (bad.done, bad.passed) == (sum(careless_kinds.values()), careless_kinds[REPEAT])
    assert (bad.bad_references, bad.bad_references_passed) == (careless_kinds[DEGRADED], 0)
    assert bad.flagged


@pytest.mark.django_db
def test_the_leads_drop_decides_an_esa_bad_reference_at_its_edge(
    tmp_path: Path, judge: User
) -> None:
    """The careful judge's bad references score 40 below the original: a drop of 40
    passes them all, 41 none."""
    corpus = with_every_kind(
        span_queue_corpus(tmp_path, "edge", [judge], Protocol.ESA, sentences=6, systems=4),
        judge,
    )
    walk_span_queue(corpus, judge, careful_esa)
    degraded = sum(1 for r in control_rows(corpus) if r.kind == DEGRADED)
    assert degraded

    for drop, passed in ((40, degraded), (41, 0)):
        corpus.control_esa_drop = drop
        (mine,) = corpus_controls(corpus)
        assert mine.bad_references_passed == passed


@pytest.mark.django_db
def test_mqm_controls_pass_by_the_points_of_the_judges_spans(
    tmp_path: Path, judge: User, django_assert_num_queries
) -> None:
    """Bad references cost 6 points against the original's 1: a drop of 5 passes them,
    5.1 not; a repeat's spans are the first's: within a tolerance of 0."""
    corpus = with_every_kind(
        span_queue_corpus(tmp_path, "mqm", [judge], Protocol.MQM, sentences=6, systems=4),
        judge,
    )
    walk_span_queue(corpus, judge, mqm_minor_everywhere)
    with django_assert_num_queries(2):  # the control rows, their spans
        rows = control_rows(corpus)
    kinds = Counter(r.kind for r in rows)
    assert kinds[DEGRADED]
    assert kinds[REPEAT]
    assert {(r.kind, r.score, r.original_score) for r in rows} == {
        (DEGRADED, 6.0, 1.0),
        (REPEAT, 1.0, 1.0),
    }

    corpus.control_mqm_drop, corpus.control_mqm_tolerance = 5.0, 0.0
    (mine,) = corpus_controls(corpus)
    assert (mine.passed, mine.done) == (len(rows), len(rows))
    corpus.control_mqm_drop = 5.1
    (mine,) = corpus_controls(corpus)
    assert mine.passed == kinds[REPEAT]
