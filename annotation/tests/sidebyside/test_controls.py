"""Control items side by side (``annotation/sidebyside/queue.py``): where the lead has
control items on, some screens show, in place of one candidate, a copy of another with
injected errors, beside its original. Such a screen is drawn as any other (the same
markup, ids, data attributes and labels, the texts and numbers aside); the copy passes
by the rule of every ESA / MQM control (``annotation/controls/scored.py``) and counts in
the judge's pass rate; its preference is no outcome of two systems."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from lxml import etree

from annotation.controls.api import corpus_controls
from annotation.judging.changes import judgment_accept_as_is
from annotation.judging.esa import judgment_mark_span
from annotation.models import Comparison, Corpus, Judgment, SideBySide, Translator, User
from annotation.models.corpus import Protocol
from annotation.sidebyside.actions import Typed, comparison_accept, comparison_judgments
from annotation.sidebyside.figures import side_by_side_figures
from annotation.sidebyside.queue import control_screens, next_comparison
from annotation.tests.sidebyside.corpora import side_by_side_corpus
from metrics.error_spans import MarkedSpan

pytestmark = pytest.mark.django_db

NUMBER = re.compile(r"\d+")
#: What differs between any two screens: their texts, and the form's token.
TEXTS = (
    "source",
    *(f"{block}-{x}" for block in ("candidate", "new-ref", "new-ref-text") for x in "abcd"),
)
#: The attributes of those that hold their texts.
TEXT_ATTRIBUTES = ("data-text", "data-saved")
#: The source's neighbours, shown where the sentence has them (not at a document's ends).
CONTEXT = ("source-before", "source-after")


@pytest.fixture
def corpus(judge: User) -> Corpus:
    """Six screens of two: one control in every six candidates shown makes two control
    screens."""
    corpus = side_by_side_corpus(judge)
    Corpus.objects.filter(pk=corpus.pk).update(
        controls_enabled=True, control_rate=6, control_esa_drop=10
    )
    corpus.refresh_from_db()
    return corpus


def queue(corpus: Corpus, judge: User) -> list[Comparison]:
    next_comparison(setting=corpus.side_by_side, user=judge)
    return list(Comparison.objects.filter(judge=judge).order_by("position"))


def skeleton(html: str) -> list[tuple[str, tuple[tuple[str, str], ...], str]]:
    """Every element of the screen in document order: tag, attributes and text, numbers
    masked, the texts (:data:`TEXTS`, :data:`CONTEXT`) left out."""
    tree = etree.HTML(html)
    for block in CONTEXT:
        for element in tree.iterfind(f'.//*[@id="{block}"]'):
            element.getparent().remove(element)
    for token in tree.iterfind('.//input[@name="csrfmiddlewaretoken"]'):
        token.set("value", "·")
    for screen in tree.iterfind(".//*[@data-swapped]"):  # drawn at random on every screen
        screen.set("data-swapped", "·")
    for block in TEXTS:
        for element in tree.iterfind(f'.//*[@id="{block}"]'):
            for child in list(element):
                element.remove(child)
            element.text = None
            for name in TEXT_ATTRIBUTES:
                if name in element.attrib:
                    element.set(name, "·")
    return [
        (
            element.tag,
            tuple(sorted((k, NUMBER.sub("#", v)) for k, v in element.attrib.items())),
            NUMBER.sub("#", (element.text or "").strip()),
        )
        for element in tree.iterfind(".//body//*")
    ]


def test_a_control_screen_shows_a_copy_with_injected_errors_beside_its_original(
    judge: User, corpus: Corpus
) -> None:
    screens = queue(corpus, judge)
    controls = [c for c in screens if c.control is not None]
    assert len(controls) == 2
    for comparison in controls:
        shown = comparison_judgments(comparison=comparison, user=judge)
        copy = shown[comparison.control]
        (original,) = [j for j in shown if j is not copy]
        assert copy.control == Judgment.Control.DEGRADED
        assert original.control == Judgment.Control.NONE
        assert copy.target_id == original.target_id
        assert copy.candidate_text != original.candidate_text
        assert copy.candidate_text == copy.shown_text
    assert all(c.control is None and c.left_id != c.right_id for c in screens if c not in controls)


@pytest.mark.parametrize(
    "protocol, controls_shown, editor",
    [("corpus", 2, 'id="score-a"'), ("awer", 3, 'id="new-ref-text-a"')],
)
def test_a_control_screen_is_drawn_as_any_screen(
    judge_client: Client,
    judge: User,
    request: pytest.FixtureRequest,
    protocol: str,
    controls_shown: int,
    editor: str,
) -> None:
    """ESA's copies; aWER's references shown as candidates and copies (:func:`awer`)."""
    screens = queue(request.getfixturevalue(protocol), judge)
    pages = {c.pk: judge_client.get(f"/comparisons/{c.pk}/").content.decode() for c in screens}
    real = [skeleton(pages[c.pk]) for c in screens if c.control is None]
    controls = [skeleton(pages[c.pk]) for c in screens if c.control is not None]

    assert len(controls) == controls_shown
    assert all(editor in page for page in pages.values())
    assert all(page == real[0] for page in real + controls)


def accept(comparison: Comparison, judge: User, original: int, copy: int) -> None:
    shown = comparison_judgments(comparison=comparison, user=judge)
    scores = {j.pk: copy if j.control else original for j in shown}
    comparison_accept(comparison=comparison, user=judge, scores=scores, preference="a")


def test_the_copy_passes_by_the_esa_rule_and_counts_in_the_pass_rate(
    judge: User, corpus: Corpus
) -> None:
    first, second = [c for c in queue(corpus, judge) if c.control is not None]
    accept(first, judge, original=80, copy=70)  # exactly the drop: passed
    accept(second, judge, original=80, copy=75)  # half the drop: failed

    (mine,) = corpus_controls(corpus)
    assert (mine.name, mine.done, mine.passed, mine.bad_references) == ("judge", 2, 1, 2)
    assert mine.pass_rate == 50.0


def test_an_mqm_copy_passes_by_its_penalty_points_above_the_original(
    user_factory: Callable[..., User],
) -> None:
    judge = user_factory("mqm-judge")
    corpus = side_by_side_corpus(judge, name="mqm", protocol=Protocol.MQM)
    Corpus.objects.filter(pk=corpus.pk).update(
        controls_enabled=True, control_rate=6, control_mqm_drop=5
    )
    corpus.refresh_from_db()
    first, second = [c for c in queue(corpus, judge) if c.control is not None]
    for comparison, severity in ((first, "major"), (second, "minor")):
        copy = comparison_judgments(comparison=comparison, user=judge)[comparison.control]
        span = MarkedSpan(0, 1, severity, category="Fluency/Spelling")
        judgment_mark_span(judgment=copy, user=judge, version=copy.version, span=span)
        comparison_accept(comparison=comparison, user=judge, scores={}, preference="")

    (mine,) = corpus_controls(corpus)  # a major error is 5 points: passed; a minor 1
    assert (mine.done, mine.passed) == (2, 1)


def test_a_control_screens_preference_is_not_an_outcome(judge: User, corpus: Corpus) -> None:
    screens = queue(corpus, judge)
    for comparison in screens:
        if comparison.control is not None:
            accept(comparison, judge, original=80, copy=20)
    real = next(c for c in screens if c.control is None)
    accept(real, judge, original=80, copy=80)

    assert side_by_side_figures(corpus.side_by_side, resamples=10).outcomes == 1


@pytest.mark.parametrize(
    "screens, per_screen, rate, expected",
    [(6, 2, 6, 2), (6, 2, 100, 1), (2, 4, 3, 2), (0, 2, 6, 0)],
)
def test_one_control_in_every_rate_candidates_shown(
    screens: int, per_screen: int, rate: int, expected: int
) -> None:
    drawn = control_screens(screens, per_screen, rate, seed=3)

    assert len(drawn) == expected
    assert all(o != c and 0 <= o < per_screen and 0 <= c < per_screen for o, c in drawn.values())
    assert drawn == control_screens(screens, per_screen, rate, seed=3)


@pytest.fixture
def awer(judge: User) -> Corpus:
    """An aWER corpus of two references a sentence, blind: both of aWER's control kinds
    can be shown; one control in every four candidates makes three control screens."""
    corpus = side_by_side_corpus(judge, name="awer", protocol=Protocol.AWER, references=2)
    Corpus.objects.filter(pk=corpus.pk).update(controls_enabled=True, control_rate=4)
    corpus.refresh_from_db()
    for seed in range(20):  # the kinds are drawn with the judge's key: a seed showing both
        SideBySide.objects.filter(corpus=corpus).update(seed=seed)
        corpus.side_by_side.refresh_from_db()
        Comparison.objects.filter(judge=judge).delete()
        if {kind(c, judge) for c in queue(corpus, judge) if c.control is not None} == {
            Judgment.Control.REFERENCE,
            Judgment.Control.DEGRADED,
        }:
            return corpus
    raise AssertionError("no seed draws both kinds")


def kind(comparison: Comparison, judge: User) -> str:
    """The kind of a control screen's control, as drawn (its item not opened yet)."""
    twice = comparison.targets.count(comparison.targets[comparison.control]) > 1
    return Judgment.Control.DEGRADED if twice else Judgment.Control.REFERENCE


def test_an_aWER_control_screen_shows_a_reference_or_a_copy_with_injected_errors(
    judge: User, awer: Corpus
) -> None:
    controls = [c for c in queue(awer, judge) if c.control is not None]
    kinds = []
    for comparison in controls:
        shown = comparison_judgments(comparison=comparison, user=judge)
        control = shown[comparison.control]
        (other,) = [j for j in shown if j is not control]
        kinds.append(control.control)
        assert other.control == Judgment.Control.NONE
        if control.control == Judgment.Control.REFERENCE:
            assert control.target.translator.role != Translator.Role.SYSTEM
            replaced = comparison.targets[comparison.control]
            assert control.shown_as_id == comparison.sentence.targets.get(pk=replaced).translator_id
            assert other.new_ref != control.candidate_text  # hidden from the other's pool
        else:
            assert control.target_id == other.target_id
            assert control.candidate_text == control.shown_text != other.candidate_text
    assert set(kinds) == {"degraded", "reference"}
    assert kinds == [kind(c, judge) for c in controls]


def test_aWER_controls_side_by_side_pass_by_the_aWER_rules(judge: User, awer: Corpus) -> None:
    copies = 0
    for comparison in (c for c in queue(awer, judge) if c.control is not None):
        shown = comparison_judgments(comparison=comparison, user=judge)
        control = shown[comparison.control]
        if control.control == Judgment.Control.REFERENCE:  # no edit, but SSER 8: failed
            judgment_accept_as_is(judgment=control, user=judge, version=control.version)
            ssers = {j.pk: 8 for j in shown}
        else:  # injected errors left out, and scored below the original: passed
            ssers = {j.pk: 2 if j is control else 6 for j in shown}
        typed = Typed(ssers=ssers, new_refs={})
        comparison_accept(comparison=comparison, user=judge, scores={}, preference="", typed=typed)
        copies += control.control == Judgment.Control.DEGRADED

    (mine,) = corpus_controls(awer)
    assert (mine.done, mine.passed, mine.bad_references) == (3, copies, copies)
