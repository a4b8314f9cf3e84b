"""The dashboard's read logic (``annotation/dashboard/``): hand-checked statistics,
the figures of ``manage.py scores``, sacreBLEU's paired bootstrap, the cache."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from annotation.dashboard import board as dashboard
from annotation.dashboard.board import Dashboard, sort_rows
from annotation.models import Corpus, Judgment, Target, User
from annotation.scoring import corpus_texts, human_scores
from annotation.services import corpus_import
from annotation.tests.factories import DEMO_XML, HAND_REFS, HAND_SYSTEMS, done_judgment, scores_json
from metrics.bleu import BLEU
from metrics.wer import WER

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ the figures of manage.py


def test_figures_are_exactly_those_of_manage_py_scores(
    user_factory: Callable[..., User],
) -> None:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    a, b = user_factory("a"), user_factory("b")
    targets = Target.objects.filter(sentence__corpus=corpus, translator__role="system")
    for i, target in enumerate(targets.order_by("pk")[:60]):
        Judgment.objects.create(
            target=target,
            evaluator=a if i % 3 else b,
            sser=i % 11,
            new_ref=target.text,
            edits=i % 5,
            ref_length=7 + i % 4,
            state="done",
        )

    expected = scores_json("demo")
    got = dashboard.table_json(Dashboard(corpus).table)

    assert got["corpus"] == expected["corpus"]
    assert set(got["translators"]) == set(expected["translators"])
    for system, figures in expected["translators"].items():
        assert set(got["translators"][system]) == set(figures) == set(dashboard.METRICS)
        for metric, figure in figures.items():
            # the same floats, bit for bit, and the same signatures
            assert got["translators"][system][metric]["score"] == figure["score"]
            assert got["translators"][system][metric]["signature"] == figure["signature"]


def test_human_figures_from_the_rows_are_human_scores_bit_for_bit(
    hand_corpus: Corpus, user_factory: Callable[..., User]
) -> None:
    """The dashboard reads the judgments once and derives the human figures from those
    rows; they must be ``manage.py scores``'s, also for judgments without a score or
    without an edit count, and for a system nobody judged."""
    ann, bob = user_factory("ann"), user_factory("bob")
    done_judgment(hand_corpus, ann, "perfect", 0, sser=10, edits=0, length=4)
    done_judgment(hand_corpus, bob, "perfect", 0, sser=7, edits=1, length=5)
    done_judgment(hand_corpus, ann, "perfect", 1, sser=None, edits=2, length=4)
    done_judgment(hand_corpus, ann, "one-off", 2, sser=3)  # scored, no edit count
    Judgment.objects.create(  # in progress: not counted anywhere
        target=Target.objects.get(sentence__position=3, translator__name="one-off"),
        evaluator=bob,
        sser=0,
    )

    expected = human_scores(hand_corpus)
    got = Dashboard(hand_corpus).human

    assert {s: set(f) for s, f in got.items()} == {s: set(f) for s, f in expected.items()}
    assert set(got["one-off"]) == {"sser"} and "bad" not in got
    for system, figures in expected.items():
        for metric, score in figures.items():
            mine = got[system][metric]
            assert (mine.score, mine.signature) == (score.score, score.signature)
            assert np.array_equal(mine.stats, score.stats)


# ------------------------------------------------------------------ bootstrap, by hand


def test_hand_corpus_wer_ranks_intervals_and_p_values(hand_corpus: Corpus) -> None:
    """perfect: every segment 0/4 → WER 0 on every resample (interval 0 ± 0); one-off:
    every segment 1/4 → 25 ± 0; their difference is 25 on every sample, so no centred
    sample difference exceeds the real one: p = 1/1001, three separate groups."""
    dash = Dashboard(hand_corpus)
    wer = dash.significance["wer"]

    assert [wer.figure(s).score for s in HAND_SYSTEMS] == [0.0, 25.0, 100.0]
    assert wer.figure("one-off").interval.mean == 25.0
    assert wer.figure("one-off").interval.half_width == 0.0
    assert wer.p_value("perfect", "one-off") == 1 / 1001
    assert [wer.figure(s).group for s in HAND_SYSTEMS] == [1, 2, 3]
    assert [dash.table.rows[i].cell("wer").rank for i in range(3)] == [1, 2, 3]
    assert "seed:12345" in wer.signature and "bs:1000" in wer.signature


def test_intervals_are_a_plain_bootstrap_with_the_recorded_seed() -> None:
    """Redo the bootstrap independently: sacreBLEU's draw (default_rng(12345).choice),
    a gather-and-sum per sample, the 2.5 %/97.5 % order statistics."""
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    dash = Dashboard(corpus)
    stats = dash.auto.stats("wer")
    n = dash.auto.n_segments
    idx = np.random.default_rng(12345).choice(n, size=(1000, n), replace=True)

    for system, rows in stats.items():
        sums = rows[idx].sum(axis=1)
        samples = np.sort(100 * sums[:, 0] / sums[:, 1])
        half = (samples[1000 - 25 - 1] - samples[25]) / 2
        figure = dash.significance["wer"].figure(system)
        assert figure.interval.mean == pytest.approx(samples.mean(), rel=1e-12)
        assert figure.interval.half_width == pytest.approx(half, rel=1e-12)


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

    bleu = Dashboard(corpus).significance["bleu"]

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

    dash = Dashboard(hand_corpus)
    sser = dash.significance["sser"]
    perfect, one_off = dash.table.rows[0].cell("sser"), dash.table.rows[1].cell("sser")

    assert sser.n_common[0][1] == 1  # only sentence 3 was judged for both
    assert (perfect.n, perfect.judgments, one_off.n) == (3, 3, 2)
    assert dash.table.rows[2].cell("sser").score is None  # "bad": nothing judged
    assert dash.table.rows[2].cell("sser").rank == 0


def test_a_changed_judgment_changes_the_human_bootstrap(judged_hand: Corpus) -> None:
    before = Dashboard(judged_hand).significance["sser"].figure("one-off")
    Judgment.objects.filter(target__translator__name="one-off").update(sser=2)

    after = Dashboard(judged_hand).significance["sser"].figure("one-off")

    assert (before.score, after.score) == (25.0, 80.0)
    assert after.interval.mean == 80.0


# ------------------------------------------------------------------ the table


def test_the_best_of_each_column_is_marked(judged_hand: Corpus) -> None:
    table = Dashboard(judged_hand).table
    best = {m: [r.system for r in table.rows if r.cell(m).best] for m in dashboard.METRICS}

    assert best["wer"] == ["perfect"]
    assert best["bleu"] == ["perfect"]  # higher is better
    assert best["sser"] == ["perfect"]
    assert best["ser"] == ["perfect"]


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
    rows = Dashboard(hand_corpus, sort=sort).table.rows

    assert [r.system for r in rows] == expected


def test_unscored_rows_sort_last_both_ways(
    hand_corpus: Corpus, user_factory: Callable[..., User]
) -> None:
    ann = user_factory("ann")
    done_judgment(hand_corpus, ann, "bad", 0, sser=3)
    done_judgment(hand_corpus, ann, "one-off", 0, sser=6)
    rows = Dashboard(hand_corpus).table.rows

    assert [r.system for r in sort_rows(rows, "sser")] == ["one-off", "bad", "perfect"]
    assert [r.system for r in sort_rows(rows, "-sser")] == ["bad", "one-off", "perfect"]
    with pytest.raises(ValueError, match="sort='size'"):
        sort_rows(rows, "size")


def test_csv_has_one_row_per_system_and_full_precision(judged_hand: Corpus) -> None:
    text = dashboard.table_csv(Dashboard(judged_hand).table)
    lines = [line.split(",") for line in text.splitlines()]
    header = lines[0]

    assert header[:7] == [
        "system",
        "wer",
        "wer_rank",
        "wer_ci_low",
        "wer_ci_high",
        "wer_n",
        "wer_signature",
    ]
    assert [line[0] for line in lines[1:]] == list(HAND_SYSTEMS)
    one_off = dict(zip(header, lines[2], strict=True))
    assert float(one_off["wer"]) == 25.0
    assert one_off["wer_rank"] == "2"
    assert float(one_off["sser"]) == 25.0
    assert one_off["sser_n"] == "4"


# ------------------------------------------------------------------ agreement, by hand


# ------------------------------------------------------------------ (0, 1) normalization


# ------------------------------------------------------------------ effort, by hand


# ------------------------------------------------------------------ meta-evaluation


# ------------------------------------------------------------------ drill-down


def test_wer_of_the_hand_corpus_is_what_metrics_says() -> None:
    """The hand corpus's expectations rest on WER itself (guards the test data)."""
    hyps = HAND_SYSTEMS["one-off"]
    assert WER().corpus_score(hyps, HAND_REFS).score == 25.0
    assert BLEU().corpus_score(HAND_SYSTEMS["perfect"], HAND_REFS).score == pytest.approx(100.0)
