"""The judge's live figures (annotation/judging/figures.py,
annotation/statistics/live.py), by hand and against sacreBLEU."""

from __future__ import annotations

import io

import numpy as np
import pytest
import sacrebleu

from annotation.corpora.imports import corpus_import
from annotation.judging.changes import judgment_edit_ref, judgment_finish, judgment_set_sser
from annotation.judging.page import judging_context
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, Sentence, Target, User
from annotation.statistics import TargetTexts, segment_stats, stored_stats, texts_key
from annotation.tests.factories import (
    CHINESE,
    DEMO_XML,
    FIGURE_1_CANDIDATE,
    FIGURE_1_FIRST_REF,
    FIGURE_1_RESULT,
    click,
    finish,
    target_of,
)
from annotation.text import reference_order
from metrics.align import Op

pytestmark = pytest.mark.django_db


def test_live_figures_by_hand(
    figures_shown: Corpus, seed: Corpus, figure_1: Judgment, judge: User
) -> None:
    for kind, word in [
        (Op.MISSING, "This"),
        (Op.SUBSTITUTION, "Diagram"),
        (Op.SUBSTITUTION, "locate"),
    ]:
        click(figure_1, judge, kind, word)
    judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=8)
    judgment_finish(judgment=figure_1, user=judge, version=figure_1.version)
    second = judgment_open(user=judge, target=target_of(seed, "a translator", 1))
    judgment_edit_ref(
        judgment=second, user=judge, version=second.version, text="Chart represents the method."
    )
    judgment_set_sser(judgment=second, user=judge, version=second.version, sser=6)

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


def test_figures_of_a_first_candidate_count_only_the_current_judgment(
    figures_shown: Corpus, figure_1: Judgment
) -> None:
    figures = judging_context(figure_1).figures

    assert figures.awer == pytest.approx(100 * 5 / 11)
    assert figures.sser is None
    assert [f["value"] for f in figures.shown()] == ["45.5", "100.0", "–", "45.5", "45.5", "28.9"]


def test_figures_follow_a_change_to_a_done_judgment(
    figures_shown: Corpus, seed: Corpus, figure_1: Judgment, judge: User
) -> None:
    """The done judgments' sums are kept from one click to the next, keyed by what they
    are made of: a done judgment changed elsewhere (another tab) shows on the next page."""
    finish(figure_1, judge, FIGURE_1_RESULT, 8)
    second = judgment_open(user=judge, target=target_of(seed, "a translator", 1))
    before = judging_context(second).figures

    judgment_set_sser(judgment=figure_1, user=judge, version=figure_1.version, sser=4)
    after = judging_context(second).figures

    assert before.sser == pytest.approx(20.0)  # (10 − 8) / 10; the second is not scored
    assert after.sser == pytest.approx(60.0)
    assert after.awer == pytest.approx(before.awer)  # a score changes no edit count


def test_the_rows_read_from_the_stored_statistics_are_the_computed_ones() -> None:
    """The judge's page reads a target's live-figure rows from the statistics the import
    stored, rather than scoring it: they must be the rows it would compute, bit for bit."""
    corpus = corpus_import(source=DEMO_XML, name="demo-rows").corpus
    targets = list(
        Target.objects.filter(sentence__corpus=corpus, translator__role="system").select_related(
            "translator", "sentence"
        )
    )
    references = {
        s.pk: tuple(
            t.text
            for t in sorted(
                s.targets.exclude(translator__role="system").select_related("translator"),
                key=lambda t: reference_order(t.translator.role, t.position),
            )
        )
        for s in Sentence.objects.filter(corpus=corpus)
    }
    key = texts_key(corpus)
    computed = segment_stats(
        key, {t.pk: TargetTexts(t.text, references[t.sentence_id]) for t in targets}
    )
    stored = stored_stats(corpus, {t.pk: (t.translator.name, t.sentence.position) for t in targets})

    assert len(stored) == len(computed) == len(targets) == 200
    for t in targets:
        assert all(np.array_equal(a, b) for a, b in zip(stored[t.pk], computed[t.pk], strict=True))


@pytest.mark.parametrize("scored", [True, False], ids=["stored-rows", "computed-rows"])
def test_live_figures_of_a_chinese_target_are_tokenized_as_its_language(
    judge: User, scored: bool
) -> None:
    """A Chinese target's WER and BLEU count characters (sacreBLEU's ``zh``), as the
    dashboard and ``manage.py scores`` do by default, whether the page reads the rows the
    import's job stored or computes them: under 13a "我喜欢狗。" is one wrong word of one."""
    corpus = corpus_import(source=io.BytesIO(CHINESE.encode()), name="zh", score=scored).corpus
    corpus.judges.add(judge)
    corpus.judges_see_figures = True
    corpus.save(update_fields=["judges_see_figures"])
    judgment = judgment_open(user=judge, target=target_of(corpus, "sys B"))

    figures = judging_context(judgment).figures

    bleu = sacrebleu.corpus_bleu(["我喜欢狗。"], [["我喜欢猫。"]], tokenize="zh").score
    assert figures.wer == pytest.approx(100 * 1 / 5)
    assert figures.mwer == pytest.approx(100 * 1 / 5)
    assert figures.bleu == pytest.approx(bleu)
