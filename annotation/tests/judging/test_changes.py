"""The judging services (annotation/judging/), read like the spec: seed 001 §2.3 and §3."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from datetime import timedelta

import pytest
import sacrebleu
from django.utils import timezone

from annotation.judging import changes as judging
from annotation.judging.edits import OpRef, apply_op, apply_word_edit
from annotation.judging.errors import (
    ERR_MATCH_OP,
    ERR_NO_SSER,
    ERR_NOTHING_TO_REDO,
    ERR_NOTHING_TO_UNDO,
    ERR_STALE,
    ERR_WORD_POS,
    ChangeRefused,
    NotYours,
    StaleJudgment,
)
from annotation.judging.order import next_target_for, previous_target_for, system_order
from annotation.judging.page import judging_context
from annotation.judging.pool import build_pool, nearest_in_pool
from annotation.judging.start import judgment_open, judgment_seen, next_judgment_for
from annotation.models import Corpus, Judgment, JudgmentEvent, Target, User
from annotation.services import corpus_import
from annotation.tests.factories import DEMO_XML, active_seconds_from, recounted_active_seconds
from metrics.align import Op, align

pytestmark = pytest.mark.django_db

FIGURE_1_CANDIDATE = "Diagram show the scan procedure for locate the archives ."
FIGURE_1_FIRST_REF = "This figure shows the scan procedure to find the archives ."
FIGURE_1_RESULT = "Diagram shows the scan procedure to locate the archives ."

CATS = """<evalTrans>
<sentence>
  <source>el gato</source>
  <eval translator="first reference"><target>the cat sat on the mat .</target></eval>
  <eval translator="sys A"><target>a cat sat on a mat .</target></eval>
  <eval translator="sys B"><target>{b}</target></eval>
</sentence>
</evalTrans>"""


def import_xml(text: str, name: str, *judges: User, share: bool = False) -> Corpus:
    corpus = corpus_import(source=io.BytesIO(text.encode()), name=name).corpus
    corpus.judges.add(*judges)
    if share:
        corpus.share_new_refs = True
        corpus.save()
    return corpus


def target_of(corpus: Corpus, translator: str, sentence: int = 0) -> Target:
    return Target.objects.select_related("sentence__corpus", "translator").get(
        sentence__corpus=corpus, sentence__position=sentence, translator__name=translator
    )


@pytest.fixture
def figure_1(seed: Corpus, judge: User) -> Judgment:
    return judgment_open(user=judge, target=target_of(seed, "a translator"))


def click(judgment: Judgment, user: User, kind: Op, word: str) -> Judgment:
    """Click the operation of ``kind`` whose candidate word (or, for "–", reference word)
    is ``word``, on the alignment the page would show."""
    alignment = align(judging.words(judgment.target.text), judging.words(judgment.new_ref))
    op = next(
        e
        for e in alignment.ops
        if e.op is kind and (e.ref_word if kind is Op.MISSING else e.hyp_word) == word
    )
    return judging.judgment_accept_op(
        judgment=judgment, user=user, version=judgment.version, op=OpRef.of(op)
    )


# --- seed 001 Figure 1 ------------------------------------------------------------------------


def test_figure_1_starts_from_the_nearest_reference_at_five_edits(figure_1: Judgment) -> None:
    assert figure_1.new_ref == FIGURE_1_FIRST_REF
    assert (figure_1.edits, figure_1.ref_length) == (5, 11)
    assert figure_1.state == Judgment.State.PENDING


def test_figure_1_clicks_give_the_papers_new_reference_at_two_edits(
    figure_1: Judgment, judge: User
) -> None:
    edits = []
    for kind, word in [
        (Op.MISSING, "This"),
        (Op.SUBSTITUTION, "Diagram"),
        (Op.SUBSTITUTION, "locate"),
    ]:
        click(figure_1, judge, kind, word)
        edits.append(figure_1.edits)
    judging.judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=8)
    judging.judgment_finish(judgment=figure_1, user=judge, version=figure_1.version)

    stored = Judgment.objects.get(pk=figure_1.pk)
    assert edits == [4, 3, 2]
    assert stored.new_ref == FIGURE_1_RESULT
    assert stored.awer_fraction == "2/10"
    assert (stored.sser, stored.state) == (8, Judgment.State.DONE)
    assert list(stored.events.values_list("kind", flat=True)) == [
        "accept_op",
        "accept_op",
        "accept_op",
        "set_sser",
        "finish",
    ]


# --- what a click does -----------------------------------------------------------------------

OP_CASES = [
    # candidate, new reference, clicked op, new reference after the click
    ("a b c", "a x c", OpRef(Op.SUBSTITUTION, 1, 1), "a b c"),
    ("a b c", "a c", OpRef(Op.EXTRA, 1, 1), "a b c"),
    ("a b c", "a b", OpRef(Op.EXTRA, 2, 2), "a b c"),
    ("a c", "a b c", OpRef(Op.MISSING, 1, 1), "a c"),
    ("a", "x a", OpRef(Op.MISSING, 0, 0), "a"),
]


@pytest.mark.parametrize("candidate, new_ref, op, expected", OP_CASES)
def test_a_click_accepts_the_candidates_version(
    candidate: str, new_ref: str, op: OpRef, expected: str
) -> None:
    assert " ".join(apply_op(candidate.split(), new_ref.split(), op)) == expected


@pytest.mark.parametrize(
    "op, message",
    [
        (OpRef(Op.MATCH, 0, 0), ERR_MATCH_OP),
        (OpRef(Op.SUBSTITUTION, 5, 0), "points outside"),
        (OpRef(Op.MISSING, 0, 3), "points outside"),
    ],
)
def test_impossible_clicks_are_refused(op: OpRef, message: str) -> None:
    with pytest.raises(ChangeRefused, match=message):
        apply_op(["a", "b"], ["a", "c"], op)


@pytest.mark.parametrize("token", ["bogus", "substitution:1", "swap:1:1", "extra:x:1"])
def test_malformed_operation_names_are_refused(token: str) -> None:
    with pytest.raises(ChangeRefused, match="is not an edit operation"):
        OpRef.parse(token)


@pytest.mark.parametrize(
    "kind, word", [(Op.SUBSTITUTION, "show"), (Op.MISSING, "This"), (Op.SUBSTITUTION, "for")]
)
def test_each_click_removes_one_edit_and_is_one_event(
    figure_1: Judgment, judge: User, kind: Op, word: str
) -> None:
    click(figure_1, judge, kind, word)

    assert figure_1.edits == 4
    assert figure_1.version == 2
    event = JudgmentEvent.objects.get(judgment=figure_1)
    assert (event.kind, event.status, event.actor) == ("accept_op", "applied", judge)
    assert event.before["new_ref"] == FIGURE_1_FIRST_REF
    assert event.after["new_ref"] == figure_1.new_ref


def test_an_extra_word_is_inserted_into_the_new_reference(judge: User) -> None:
    corpus = import_xml(CATS.format(b="the big cat sat on the mat ."), "cats", judge)
    judgment = judgment_open(user=judge, target=target_of(corpus, "sys B"))

    click(judgment, judge, Op.EXTRA, "big")

    assert judgment.new_ref == "the big cat sat on the mat ."
    assert judgment.edits == 0


# --- editing the new reference directly -----------------------------------------------------

WORD_CASES = [
    ("replace", 1, "dog", "the dog sat"),
    ("replace", 1, "big dog", "the big dog sat"),
    ("replace", 1, "", "the sat"),
    ("delete", 0, "", "cat sat"),
    ("insert_before", 0, "Yes ,", "Yes , the cat sat"),
    ("insert_after", 2, "down .", "the cat sat down ."),
]


@pytest.mark.parametrize("action, pos, text, expected", WORD_CASES)
def test_word_edits(action: str, pos: int, text: str, expected: str) -> None:
    result = apply_word_edit(["the", "cat", "sat"], pos=pos, action=action, text=text)

    assert " ".join(result) == expected


@pytest.mark.parametrize(
    "action, pos, message",
    [
        ("replace", 3, ERR_WORD_POS.format(pos=3, length=3)),
        ("delete", -1, ERR_WORD_POS.format(pos=-1, length=3)),
        ("shout", 0, "unknown word action 'shout'"),
    ],
)
def test_bad_word_edits_are_refused(action: str, pos: int, message: str) -> None:
    with pytest.raises(ChangeRefused, match=message):
        apply_word_edit(["the", "cat", "sat"], pos=pos, action=action, text="x")


def test_a_word_edit_is_saved_and_recounted(figure_1: Judgment, judge: User) -> None:
    judging.judgment_edit_word(
        judgment=figure_1, user=judge, version=1, pos=0, action="replace", text="Diagram"
    )

    assert figure_1.new_ref == "Diagram figure shows the scan procedure to find the archives ."
    assert Judgment.objects.get(pk=figure_1.pk).edits == figure_1.edits == 4


def test_the_whole_text_edit_is_normalised_to_13a_words(figure_1: Judgment, judge: User) -> None:
    judging.judgment_edit_ref(
        judgment=figure_1, user=judge, version=1, text="  Diagram shows the scan, to locate it."
    )

    assert figure_1.new_ref == "Diagram shows the scan , to locate it ."
    assert figure_1.ref_length == 9


def test_clicking_a_pool_reference_makes_it_the_new_reference(
    figure_1: Judgment, judge: User
) -> None:
    other = "Chart represents the search method to locate the files ."
    judging.judgment_use_ref(judgment=figure_1, user=judge, version=1, text=other)

    assert figure_1.new_ref == other
    assert figure_1.edits == 6
    assert figure_1.events.get().kind == "use_ref"


# --- undo and redo ---------------------------------------------------------------------------


def states(judgment: Judgment) -> tuple[str, int | None, str]:
    j = Judgment.objects.get(pk=judgment.pk)
    return (j.new_ref, j.sser, j.state)


def test_undo_and_redo_walk_through_every_change(figure_1: Judgment, judge: User) -> None:
    seen = [states(figure_1)]
    for kind, word in [(Op.MISSING, "This"), (Op.SUBSTITUTION, "Diagram")]:
        click(figure_1, judge, kind, word)
        seen.append(states(figure_1))
    judging.judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=8)
    seen.append(states(figure_1))
    judging.judgment_finish(judgment=figure_1, user=judge, version=figure_1.version)
    seen.append(states(figure_1))

    back = []
    for _ in range(4):
        judging.judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
        back.append(states(figure_1))
    forward = []
    for _ in range(4):
        judging.judgment_redo(judgment=figure_1, user=judge, version=figure_1.version)
        forward.append(states(figure_1))

    assert back == seen[-2::-1]
    assert forward == seen[1:]
    assert figure_1.edits == 3  # recounted on the way
    assert figure_1.events.filter(kind="undo").count() == 4
    assert set(figure_1.events.filter(kind="accept_op").values_list("status", flat=True)) == {
        "applied"
    }


def test_a_new_change_discards_the_redo_stack(figure_1: Judgment, judge: User) -> None:
    click(figure_1, judge, Op.MISSING, "This")
    click(figure_1, judge, Op.SUBSTITUTION, "Diagram")
    judging.judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
    judging.judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)

    judging.judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=3)

    assert not judging_context(figure_1).can_redo
    with pytest.raises(ChangeRefused, match=ERR_NOTHING_TO_REDO):
        judging.judgment_redo(judgment=figure_1, user=judge, version=figure_1.version)
    statuses = dict(figure_1.events.filter(kind="accept_op").values_list("pk", "status"))
    assert sorted(statuses.values()) == ["discarded", "discarded"]
    judging.judgment_undo(judgment=figure_1, user=judge, version=figure_1.version)
    assert states(figure_1) == (FIGURE_1_FIRST_REF, None, "pending")


def test_nothing_to_undo_on_a_fresh_judgment(figure_1: Judgment, judge: User) -> None:
    with pytest.raises(ChangeRefused, match=ERR_NOTHING_TO_UNDO):
        judging.judgment_undo(judgment=figure_1, user=judge, version=1)


# --- two tabs --------------------------------------------------------------------------------


def test_a_change_from_a_stale_page_is_refused_and_saves_nothing(
    figure_1: Judgment, judge: User
) -> None:
    other_tab = Judgment.objects.get(pk=figure_1.pk)
    click(figure_1, judge, Op.MISSING, "This")

    with pytest.raises(StaleJudgment) as refused:
        judging.judgment_set_sser(judgment=other_tab, user=judge, version=1, sser=2)

    assert refused.value.message == ERR_STALE
    assert states(figure_1) == (figure_1.new_ref, None, "pending")
    assert figure_1.events.count() == 1


def test_the_version_check_is_part_of_the_update(figure_1: Judgment, judge: User) -> None:
    """Both tabs loaded version 1; the other one wrote first, between our load and write."""
    Judgment.objects.filter(pk=figure_1.pk).update(version=2, sser=4)

    with pytest.raises(StaleJudgment):
        judging.judgment_set_sser(judgment=figure_1, user=judge, version=1, sser=9)

    assert Judgment.objects.get(pk=figure_1.pk).sser == 4
    assert not figure_1.events.exists()


def test_only_the_owner_changes_a_judgment(figure_1: Judgment, lead: User) -> None:
    with pytest.raises(NotYours):
        judging.judgment_set_sser(judgment=figure_1, user=lead, version=1, sser=9)


@pytest.mark.parametrize("sser", [-1, 11, True, "8"])
def test_sser_outside_the_scale_is_refused(figure_1: Judgment, judge: User, sser: object) -> None:
    with pytest.raises(ChangeRefused, match="is not a whole number from 0 to 10"):
        judging.judgment_set_sser(judgment=figure_1, user=judge, version=1, sser=sser)


def test_accepting_needs_an_sser_score(figure_1: Judgment, judge: User) -> None:
    with pytest.raises(ChangeRefused, match=re.escape(ERR_NO_SSER)):
        judging.judgment_finish(judgment=figure_1, user=judge, version=1)


def test_a_change_that_changes_nothing_is_not_recorded(figure_1: Judgment, judge: User) -> None:
    judging.judgment_edit_ref(judgment=figure_1, user=judge, version=1, text=FIGURE_1_FIRST_REF)

    assert figure_1.version == 1
    assert not figure_1.events.exists()


# --- the pool --------------------------------------------------------------------------------


def finish(judgment: Judgment, user: User, new_ref: str, sser: int) -> None:
    judging.judgment_edit_ref(judgment=judgment, user=user, version=judgment.version, text=new_ref)
    judging.judgment_set_sser(judgment=judgment, user=user, version=judgment.version, sser=sser)
    judging.judgment_finish(judgment=judgment, user=user, version=judgment.version)


def test_an_accepted_new_reference_makes_the_next_system_cheaper(judge: User) -> None:
    corpus = import_xml(CATS.format(b="a cat sat on a mat !"), "cats", judge)
    before = build_pool(judging.words("a cat sat on a mat !"), ["the cat sat on the mat ."], [])
    a = judgment_open(user=judge, target=target_of(corpus, "sys A"))
    finish(a, judge, "a cat sat on a mat .", 9)

    b = judgment_open(user=judge, target=target_of(corpus, "sys B"))
    pool = judging_context(b).pool

    assert before[0].distance == 3
    assert b.new_ref == "a cat sat on a mat ."
    assert b.edits == 1
    assert [(p.kind, p.distance) for p in pool] == [("first reference", 3), ("new reference", 1)]


@pytest.mark.parametrize("share, expected_edits", [(False, 3), (True, 1)])
def test_sharing_new_references_among_judges(
    user_factory: Callable[..., User], share: bool, expected_edits: int
) -> None:
    ana, bob = user_factory("ana"), user_factory("bob")
    corpus = import_xml(CATS.format(b="a cat sat on a mat !"), "cats", ana, bob, share=share)
    finish(
        judgment_open(user=ana, target=target_of(corpus, "sys A")),
        ana,
        "a cat sat on a mat .",
        9,
    )

    b = judgment_open(user=bob, target=target_of(corpus, "sys B"))

    assert b.edits == expected_edits


def test_a_shared_pool_holds_other_candidates_new_references_not_this_ones(
    user_factory: Callable[..., User],
) -> None:
    """Sharing pools the new references of a sentence's *other* candidates: another judge's
    new reference for this very candidate would hand over that judge's verdict (and make
    their agreement meaningless). The starting new reference comes from the pool shown."""
    ana, bob = user_factory("ana"), user_factory("bob")
    corpus = import_xml(CATS.format(b="a cat sat on a mat !"), "cats", ana, bob, share=True)
    finish(
        judgment_open(user=ana, target=target_of(corpus, "sys A")),
        ana,
        "a cat sat on a mat .",
        9,
    )

    same = judgment_open(user=bob, target=target_of(corpus, "sys A"))
    other = judgment_open(user=bob, target=target_of(corpus, "sys B"))

    assert (same.new_ref, same.edits) == ("the cat sat on the mat .", 2)
    assert [p.kind for p in judging_context(same).pool] == ["first reference"]
    assert (other.new_ref, other.edits) == ("a cat sat on a mat .", 1)
    assert [p.kind for p in judging_context(other).pool] == ["first reference", "new reference"]


def test_the_pool_shows_the_four_nearest_without_duplicates() -> None:
    candidate = judging.words("a b c d")
    refs = ["a b c d e f", "a b c x", "a b c x", "z z z z", "a b c d e", "a b"]
    pool = build_pool(candidate, refs, ["a b c d"])

    shown = nearest_in_pool(pool)

    assert len(pool) == 6
    assert [p.text for p in shown] == ["a b c d", "a b c x", "a b c d e", "a b c d e f"]


def test_ties_go_to_the_first_reference_then_file_order() -> None:
    pool = build_pool(judging.words("a b"), ["a x", "a y"], ["a z"])

    assert [p.text for p in nearest_in_pool(pool, 3)] == ["a x", "a y", "a z"]


# --- reuse -----------------------------------------------------------------------------------


def test_an_identical_candidate_reuses_the_judges_earlier_judgment(judge: User) -> None:
    corpus = import_xml(CATS.format(b="a cat sat on a mat ."), "twins", judge)
    finish(
        judgment_open(user=judge, target=target_of(corpus, "sys A")),
        judge,
        "a cat sat on a mat .",
        9,
    )

    twin = judgment_open(user=judge, target=target_of(corpus, "sys B"))
    context = judging_context(twin)

    assert (twin.new_ref, twin.sser, twin.edits) == ("a cat sat on a mat .", 9, 0)
    assert context.reuse_note is not None and "identical" in context.reuse_note
    judging.judgment_finish(judgment=twin, user=judge, version=twin.version)
    assert Judgment.objects.get(pk=twin.pk).state == Judgment.State.DONE


def test_no_reuse_note_for_a_different_candidate(judge: User) -> None:
    corpus = import_xml(CATS.format(b="a cat sat on a mat !"), "cats", judge)
    finish(
        judgment_open(user=judge, target=target_of(corpus, "sys A")),
        judge,
        "a cat sat on a mat .",
        9,
    )

    b = judgment_open(user=judge, target=target_of(corpus, "sys B"))

    assert b.sser is None
    assert judging_context(b).reuse_note is None


# --- order of work ---------------------------------------------------------------------------


@pytest.fixture
def demo(judge: User) -> Corpus:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    corpus.judges.add(judge)
    return corpus


def test_work_goes_sentence_by_sentence_in_the_judges_order(demo: Corpus, judge: User) -> None:
    walked = []
    for _ in range(12):
        target = next_target_for(user=judge, corpus=demo)
        walked.append(target)
        finish(judgment_open(user=judge, target=target), judge, target.text, 10)

    sentences = [t.sentence.position for t in walked]
    first = demo.sentences.get(position=0)
    assert sentences == [0] * 5 + [1] * 5 + [2] * 2
    assert walked[:5] == system_order(user=judge, sentence=first)
    assert sorted(t.translator.position for t in walked[:5]) == sorted(
        t.translator.position for t in first.targets.filter(translator__role="system")
    )


def test_the_shuffle_is_stable_per_judge_and_differs_between_judges(
    demo: Corpus, judge: User, user_factory: Callable[..., User]
) -> None:
    other = user_factory("other")
    sentences = list(demo.sentences.all())

    def orders(user: User) -> list[list[int]]:
        return [[t.pk for t in system_order(user=user, sentence=s)] for s in sentences]

    mine = orders(judge)
    assert orders(judge) == mine
    assert orders(other) != mine
    assert any(order != sorted(order) for order in mine)


def test_previous_goes_back_across_sentences(demo: Corpus, judge: User) -> None:
    second = demo.sentences.get(position=1)
    first_of_second = system_order(user=judge, sentence=second)[0]
    judgment = judgment_open(user=judge, target=first_of_second)

    previous = previous_target_for(judgment=judgment)

    assert previous == system_order(user=judge, sentence=demo.sentences.get(position=0))[-1]


def test_the_corpus_is_finished_when_every_candidate_is_done(seed: Corpus, judge: User) -> None:
    while (judgment := next_judgment_for(user=judge, corpus=seed)) is not None:
        judging.judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=5)
        judging.judgment_finish(judgment=judgment, user=judge, version=judgment.version)

    assert Judgment.objects.filter(evaluator=judge, state="done").count() == 2


# --- active time -----------------------------------------------------------------------------

T0 = timezone.now()


@pytest.mark.parametrize(
    "events, expected",
    [
        ([], 0.0),
        ([(0, "open")], 0.0),
        ([(0, "open"), (30, "accept_op"), (45, "set_sser")], 45.0),
        ([(0, "open"), (600, "accept_op")], 120.0),  # idle gap capped at two minutes
        ([(0, "open"), (10, "finish"), (3600, "open"), (3605, "undo")], 15.0),  # break not counted
        ([(30, "accept_op"), (0, "open")], 30.0),  # order by time, not by arrival
    ],
)
def test_active_seconds_from_event_times(events: list[tuple[int, str]], expected: float) -> None:
    pairs = [(T0 + timedelta(seconds=s), kind) for s, kind in events]

    assert active_seconds_from(pairs) == expected


def test_active_time_is_recorded_with_each_change(figure_1: Judgment, judge: User) -> None:
    t0 = timezone.now()
    judgment_seen(judgment=figure_1, user=judge, at=t0)
    judging.judgment_set_sser(
        judgment=figure_1, user=judge, version=1, sser=3, at=t0 + timedelta(seconds=30)
    )
    judging.judgment_set_sser(
        judgment=figure_1, user=judge, version=2, sser=4, at=t0 + timedelta(minutes=10)
    )
    judgment_seen(judgment=figure_1, user=judge, at=t0 + timedelta(hours=2))
    judging.judgment_set_sser(
        judgment=figure_1, user=judge, version=3, sser=5, at=t0 + timedelta(hours=2, seconds=5)
    )

    assert Judgment.objects.get(pk=figure_1.pk).active_seconds == pytest.approx(155.0)
    assert recounted_active_seconds(figure_1) == pytest.approx(155.0)


def test_active_time_recounted_from_explicit_event_timestamps(
    figure_1: Judgment, judge: User
) -> None:
    judgment_seen(judgment=figure_1, user=judge)
    click(figure_1, judge, Op.MISSING, "This")
    click(figure_1, judge, Op.SUBSTITUTION, "Diagram")
    t0 = timezone.now() - timedelta(hours=1)
    for event, seconds in zip(figure_1.events.order_by("pk"), [0, 20, 500], strict=True):
        JudgmentEvent.objects.filter(pk=event.pk).update(created_at=t0 + timedelta(seconds=seconds))

    assert recounted_active_seconds(figure_1) == pytest.approx(20 + 120)


# --- live figures ----------------------------------------------------------------------------


def test_live_figures_by_hand(seed: Corpus, figure_1: Judgment, judge: User) -> None:
    for kind, word in [
        (Op.MISSING, "This"),
        (Op.SUBSTITUTION, "Diagram"),
        (Op.SUBSTITUTION, "locate"),
    ]:
        click(figure_1, judge, kind, word)
    judging.judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=8)
    judging.judgment_finish(judgment=figure_1, user=judge, version=figure_1.version)
    second = judgment_open(user=judge, target=target_of(seed, "a translator", 1))
    judging.judgment_edit_ref(
        judgment=second, user=judge, version=second.version, text="Chart represents the method."
    )
    judging.judgment_set_sser(judgment=second, user=judge, version=second.version, sser=6)

    figures = judging_context(second).figures

    refs = [
        [FIGURE_1_FIRST_REF, "This figure shows the procedure."],
        [
            "Chart represents the search method to locate the files .",
            "This figure shows the method.",
        ],
        ["This figure shows the scan procedure to find the files .", None],
    ]
    hyps = [FIGURE_1_CANDIDATE, "Chart represent the method."]
    bleu = sacrebleu.corpus_bleu(hyps, refs).score
    assert figures.edits == 1
    assert figures.awer == pytest.approx(100 * (2 + 1) / (10 + 5))  # aWER = Σ edits / Σ lengths
    assert figures.aser == pytest.approx(100.0)  # both still need an edit
    assert figures.sser == pytest.approx(100 * ((10 - 8) / 10 + (10 - 6) / 10) / 2)
    assert figures.wer == pytest.approx(100 * (5 + 4) / (11 + 6))
    assert figures.mwer == pytest.approx(100 * (5 + 3) / (11 + 6))  # nearest: 3 edits, 6 words
    assert figures.bleu == pytest.approx(bleu)
    assert figures.sentences == 2


def test_figures_of_a_first_candidate_count_only_the_current_judgment(figure_1: Judgment) -> None:
    figures = judging_context(figure_1).figures

    assert figures.awer == pytest.approx(100 * 5 / 11)
    assert figures.sser is None
    assert [f["value"] for f in figures.shown()] == ["45.5", "100.0", "–", "45.5", "45.5", "28.9"]
