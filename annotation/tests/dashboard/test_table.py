"""The metrics table (``annotation/dashboard/table.py``): the paired bootstrap's intervals
and rank groups by hand and against sacreBLEU, the best marks, the sort."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from annotation.corpora.imports import corpus_import
from annotation.dashboard import figures, sources
from annotation.dashboard.panels.table import table_panel
from annotation.dashboard.table import METRICS, sort_rows
from annotation.judging.changes import judgment_set_sser
from annotation.judging.stack import judgment_for
from annotation.models import Corpus, Judgment, User
from annotation.statistics import corpus_texts
from annotation.tests.boards import view_of
from annotation.tests.factories import (
    DEMO_XML,
    HAND_REFS,
    HAND_SYSTEMS,
    done_judgment,
    write_corpus,
)
from metrics.bleu import BLEU
from metrics.wer import WER

#: The tests of the bootstrap itself: sacreBLEU's 1,000 samples, as in production.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("full_bootstrap")]


def test_hand_corpus_wer_intervals_p_values_and_too_few_sentences(hand_corpus: Corpus) -> None:
    """perfect: every segment 0/4 → WER 0 on every resample (interval [0, 0]); one-off:
    every segment 1/4 → [25, 25]; their difference is 25 on every sample, so no centred
    sample difference exceeds the real one: p = 1/1001. But four sentences are fewer
    than the ten a claimed difference needs: one group, and the column says so."""
    dash = view_of(hand_corpus)
    wer = dash.get(figures.significance)["wer"]

    assert [wer.figure(s).score for s in HAND_SYSTEMS] == [0.0, 25.0, 100.0]
    one_off = wer.figure("one-off").interval
    assert (one_off.low, one_off.high, one_off.mean) == (25.0, 25.0, 25.0)
    assert wer.p_value("perfect", "one-off") == 1 / 1001
    assert [wer.figure(s).group for s in HAND_SYSTEMS] == [1, 1, 1]
    assert [dash.get(figures.table).rows[i].cell("wer").rank for i in range(3)] == [1, 1, 1]
    assert wer.too_few
    assert dash.get(figures.table).tests["wer"].note == "too few sentences (n = 4)"
    assert "seed:12345" in wer.signature
    assert "bs:1000" in wer.signature
    # no spread worth showing: nothing beside the figure (never "±0.00")
    assert dash.get(figures.table).rows[1].cell("wer").ci_text == ""


def test_forty_sentences_earn_the_hand_corpus_three_groups(tmp_path: Path) -> None:
    """The same three systems on ten times the hand corpus's sentences: the same p, now
    on enough sentences, separates all three."""
    refs = HAND_REFS * 10
    systems = {name: hyps * 10 for name, hyps in HAND_SYSTEMS.items()}
    corpus = corpus_import(source=write_corpus(tmp_path / "h40.xml", refs, systems), name="h40")
    dash = view_of(corpus.corpus)
    wer = dash.get(figures.significance)["wer"]

    assert [wer.figure(s).group for s in HAND_SYSTEMS] == [1, 2, 3]
    assert not wer.too_few
    assert dash.get(figures.table).tests["wer"].ranks == "earned"
    line = next(v for v in dash.get(table_panel).verdicts if v.metric == "wer").text
    assert line == (
        "best: perfect (alone in group 1); separated from one-off at p < 0.05 "
        "(p = 0.001) on n = 40 sentences"
    )


def test_intervals_are_a_plain_percentile_bootstrap_with_the_recorded_seed() -> None:
    """Redo the bootstrap independently: sacreBLEU's draw (default_rng(12345).choice),
    a gather-and-sum per sample, the 2.5 %/97.5 % order statistics as the interval."""
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    dash = view_of(corpus)
    stats = dash.get(sources.chosen_statistics).stats("wer")
    n = dash.get(sources.chosen_statistics).n_segments
    idx = np.random.default_rng(12345).choice(n, size=(1000, n), replace=True)

    for system, rows in stats.items():
        sums = rows[idx].sum(axis=1)
        samples = np.sort(100 * sums[:, 0] / sums[:, 1])
        half = (samples[1000 - 25 - 1] - samples[25]) / 2
        figure = dash.get(figures.significance)["wer"].figure(system)
        assert figure.interval.mean == pytest.approx(samples.mean(), rel=1e-12)
        assert figure.interval.half_width == pytest.approx(half, rel=1e-12)
        assert figure.interval.low == pytest.approx(samples[25], rel=1e-12)
        assert figure.interval.high == pytest.approx(samples[1000 - 25 - 1], rel=1e-12)


def test_bleu_p_values_are_sacrebleus_paired_bs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    texts = corpus_texts(corpus)
    systems = list(texts.systems)
    refs = [list(stream) for stream in zip(*texts.refs, strict=True)]
    test = PairedTest(
        [(name, texts.systems[name]) for name in systems],
        {"BLEU": sacrebleu.BLEU()},
        refs,
        "bs",
        1000,
    )
    _, results = test()
    sacre = dict(zip(results["System"], results["BLEU"], strict=True))

    bleu = view_of(corpus).get(figures.significance)["bleu"]

    for name in systems[1:]:
        assert bleu.p_value(systems[0], name) == sacre[name].p_value


def test_human_metrics_are_compared_on_common_judged_sentences(
    hand_corpus: Corpus, user_factory: Callable[..., User]
) -> None:
    ann = user_factory("ann")
    for k in (0, 1, 2):
        done_judgment(hand_corpus, ann, "perfect", k, sser=10)
    for k in (2, 3):
        done_judgment(hand_corpus, ann, "one-off", k, sser=5)

    dash = view_of(hand_corpus)
    sser = dash.get(figures.significance)["sser"]
    perfect, one_off = (
        dash.get(figures.table).rows[0].cell("sser"),
        dash.get(figures.table).rows[1].cell("sser"),
    )

    assert sser.n_common[0][1] == 1  # only sentence 3 was judged for both
    assert (perfect.n, perfect.judgments, one_off.n) == (3, 3, 2)
    assert dash.get(figures.table).rows[2].cell("sser").score is None  # "bad": nothing judged
    assert dash.get(figures.table).rows[2].cell("sser").rank == 0


def test_a_changed_judgment_changes_the_human_bootstrap(judged_hand: Corpus) -> None:
    """Changed the way the app changes a judgment (the judge's services), which is what
    tells the dashboard's memory that its figures are out of date."""
    before = view_of(judged_hand).get(figures.significance)["sser"].figure("one-off")
    ann = User.objects.get(username="ann")
    judged_hand.judges.add(ann)
    for pk in Judgment.objects.filter(target__translator__name="one-off").values_list("pk"):
        judgment = judgment_for(pk=pk[0], user=ann)
        judgment_set_sser(judgment=judgment, user=ann, version=judgment.version, sser=2)

    fresh = Corpus.objects.get(pk=judged_hand.pk)  # as a view loads it: its new stamp
    after = view_of(fresh).get(figures.significance)["sser"].figure("one-off")

    assert (before.score, after.score) == (25.0, 80.0)
    assert after.interval.mean == 80.0


def test_no_best_is_marked_where_four_sentences_earn_no_rank(judged_hand: Corpus) -> None:
    """The hand corpus has 4 sentences, fewer than the 10 a rank group needs: "perfect"
    has the best figure of every column, but no column has earned a best (the verdict
    says "best figure so far"); columns with earned ranks: test_claims.py."""
    table = view_of(judged_hand).get(figures.table)
    best = {m: [r.system for r in table.rows if r.cell(m).best] for m in METRICS}

    assert all(table.tests[m].too_few for m in METRICS)
    assert best == {m: [] for m in METRICS}
    assert table.rows[0].cell("wer").score == 0.0
    assert table.rows[0].system == "perfect"


@pytest.mark.parametrize(
    "sort, expected",
    [
        ("", ["perfect", "one-off", "bad"]),
        ("wer", ["perfect", "one-off", "bad"]),
        ("-wer", ["bad", "one-off", "perfect"]),
        ("bleu", ["perfect", "one-off", "bad"]),
        ("-bleu", ["bad", "one-off", "perfect"]),
    ],
)
def test_rows_sort_best_first_or_worst_first(
    hand_corpus: Corpus, sort: str, expected: list[str]
) -> None:
    rows = view_of(hand_corpus, sort=sort).get(figures.table).rows

    assert [r.system for r in rows] == expected


def test_unscored_rows_sort_last_both_ways(
    hand_corpus: Corpus, user_factory: Callable[..., User]
) -> None:
    ann = user_factory("ann")
    done_judgment(hand_corpus, ann, "bad", 0, sser=3)
    done_judgment(hand_corpus, ann, "one-off", 0, sser=6)
    rows = view_of(hand_corpus).get(figures.table).rows

    assert [r.system for r in sort_rows(rows, "sser")] == ["one-off", "bad", "perfect"]
    assert [r.system for r in sort_rows(rows, "-sser")] == ["bad", "one-off", "perfect"]
    with pytest.raises(ValueError, match="sort='size'"):
        sort_rows(rows, "size")


def test_wer_of_the_hand_corpus_is_what_metrics_says() -> None:
    """The hand corpus's expectations rest on WER itself (guards the test data)."""
    hyps = HAND_SYSTEMS["one-off"]
    assert WER().corpus_score(hyps, HAND_REFS).score == 25.0
    assert BLEU().corpus_score(HAND_SYSTEMS["perfect"], HAND_REFS).score == pytest.approx(100.0)
