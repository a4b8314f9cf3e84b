"""The stored automatic statistics (``annotation/statistics/``: ``compute.py``,
``store.py``): computed by the import for the default choice, at first use for any
other, read back bit for bit, and never recomputed while stored."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from django.core.management import call_command

from annotation.corpora.imports import corpus_import
from annotation.dashboard import figures, sources
from annotation.dashboard.preprocessing import Preprocessing
from annotation.judging.start import judgment_open
from annotation.models import Corpus, CorpusStatistics, Judgment, Target, User
from annotation.statistics import (
    AUTOMATIC_METRICS,
    AutomaticStats,
    app_metric,
    compute,
    compute_statistics,
    corpus_texts,
    human_scores,
    statistics_choice,
)
from annotation.statistics import FIXED_PREPROCESSING as FIXED
from annotation.statistics.encoding import STATISTICS_ENGINE, decode_statistics, encode_statistics
from annotation.tests.boards import page_viewed, view_of
from annotation.tests.factories import (
    DEMO_XML,
    HAND_REFS,
    HAND_SYSTEMS,
    finish,
    write_corpus,
)
from annotation.tests.stored import automatic_statistics
from annotation.text import hter_counts, words
from metrics.registry import build_metric
from metrics.tests.exactly import assert_same_significance
from metrics.tokenize import Preprocessor

pytestmark = pytest.mark.django_db


@pytest.fixture
def hand_corpus(tmp_path: Path) -> Corpus:
    return corpus_import(
        source=write_corpus(tmp_path / "hand.xml", HAND_REFS, HAND_SYSTEMS), name="hand"
    ).corpus


def test_the_import_stores_the_default_choice(hand_corpus: Corpus) -> None:
    rows = CorpusStatistics.objects.filter(corpus=hand_corpus)

    assert list(rows.values_list("choice", "engine")) == [
        ("tok:13a|case:mixed|reflen:nearest|bounds:no", STATISTICS_ENGINE)
    ]


def test_stored_statistics_are_the_computed_ones_to_the_last_bit() -> None:
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    pp = Preprocessor(tokenize="intl", lowercase=True, sentence_boundaries=True)
    computed = compute_statistics(corpus, pp, "best")

    stored = decode_statistics(encode_statistics(computed))

    assert stored.systems == computed.systems
    assert stored.n_segments == computed.n_segments
    for m in AUTOMATIC_METRICS:
        for s in computed.systems:
            a, b = computed.scores[m][s], stored.scores[m][s]
            assert (a.name, a.score, a.signature) == (b.name, b.score, b.signature)
            assert a.stats is not None
            assert b.stats is not None
            assert a.stats.dtype == b.stats.dtype
            assert a.stats.tobytes() == b.stats.tobytes()
        assert_same_significance(computed.significance[m], stored.significance[m])


def test_a_stored_choice_is_never_scored_again(
    hand_corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the corpus was read and scored again")

    lowered = Preprocessing(lowercase=True)
    page_viewed(hand_corpus, lowered)  # computed and stored at its first use
    monkeypatch.setattr(compute, "corpus_texts", refuse)
    monkeypatch.setattr(compute, "automatic_scores", refuse)

    for choice in (Preprocessing(), lowered):
        table = page_viewed(hand_corpus, choice).get(figures.table)
        assert table.rows[0].cell("wer").score == 0.0
    never_scored = view_of(hand_corpus, Preprocessing(tokenize="none"))
    (never_seen,) = never_scored.get(sources.chosen_statistics).jobs
    assert never_seen.status == "failed"  # its job scored, which the test refused
    assert never_seen.error == "AssertionError: the corpus was read and scored again"


def test_a_row_of_another_engine_is_ignored(hand_corpus: Corpus) -> None:
    choice = statistics_choice(Preprocessor(), "nearest")
    stats = automatic_statistics(hand_corpus)
    stale = encode_statistics(
        AutomaticStats(stats.systems, stats.n_segments, {}, {})  # nothing in it
    )
    CorpusStatistics.objects.filter(corpus=hand_corpus).update(engine="metrics 0.0.1")
    CorpusStatistics.objects.filter(corpus=hand_corpus).update(data=stale)

    again = automatic_statistics(hand_corpus)

    assert set(again.scores) == set(AUTOMATIC_METRICS)
    assert CorpusStatistics.objects.filter(
        corpus=hand_corpus, choice=choice, engine=STATISTICS_ENGINE
    ).exists()


@pytest.mark.parametrize(
    "pp, reflen, expected",
    [
        (Preprocessor(), "nearest", "tok:13a|case:mixed|reflen:nearest|bounds:no"),
        (Preprocessor("char", True, True), "best", "tok:char|case:lc|reflen:best|bounds:yes"),
    ],
)
def test_a_choice_is_named_as_the_dashboard_names_it(
    pp: Preprocessor, reflen: str, expected: str
) -> None:
    assert statistics_choice(pp, reflen) == expected
    params = Preprocessing.from_params(
        {
            "tok": pp.tokenize,
            "case": "lc" if pp.lowercase else "mixed",
            "reflen": reflen,
            "bounds": "yes" if pp.sentence_boundaries else "no",
        }
    )
    # the stored statistics are the original references' (the pool's depend on judgments)
    assert params.signature == f"{expected}|refs:original"


def test_statistics_are_float64_rows_per_system(hand_corpus: Corpus) -> None:
    stats = automatic_statistics(hand_corpus)

    for m in AUTOMATIC_METRICS:
        rows = stats.stats(m)
        assert set(rows) == set(HAND_SYSTEMS)
        assert all(r.dtype == np.float64 and r.shape[0] == 4 for r in rows.values())


ALL = AUTOMATIC_METRICS


def assert_same_statistics(a: AutomaticStats, b: AutomaticStats) -> None:
    assert (a.systems, a.n_segments) == (b.systems, b.n_segments)
    for m in AUTOMATIC_METRICS:
        for s in a.systems:
            x, y = a.scores[m][s], b.scores[m][s]
            assert (x.score, x.signature) == (y.score, y.signature)
            assert x.stats is not None
            assert y.stats is not None
            assert x.stats.tobytes() == y.stats.tobytes()
        assert_same_significance(a.significance[m], b.significance[m])


@pytest.mark.parametrize(
    "pp, ref_length, reused",
    [
        # chrF reads the case only: another tokenizer keeps it; TER and the metrics of
        # fixed preprocessing read no choice
        (Preprocessor(tokenize="intl"), "nearest", {"chrf", "chrf++", "ter", *FIXED}),
        # another reference length: only mWER, PER and bigram PER read it
        (Preprocessor(), "average", set(AUTOMATIC_METRICS) - {"mwer", "per", "per2"}),
        # another case: every metric reads it, but those
        (Preprocessor(lowercase=True), "nearest", {"ter", *FIXED}),
    ],
)
def test_a_new_choice_takes_the_metrics_it_does_not_change_from_a_stored_one(
    pp: Preprocessor, ref_length: str, reused: set[str]
) -> None:
    """Equal signatures are the same computation: what a new choice takes from the
    stored default is, to the last bit, what computing it afresh gives."""
    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    default = automatic_statistics(corpus)
    texts = corpus_texts(corpus)
    metrics = {m: app_metric(m, pp, ref_length, texts.docs) for m in AUTOMATIC_METRICS}

    taken = compute.reusable(metrics, texts.refs, tuple(texts.systems), [default])

    assert set(taken) == reused
    assert_same_statistics(
        compute_statistics(corpus, pp, ref_length, known=[default]),
        compute_statistics(corpus, pp, ref_length),
    )


def test_hter_of_a_system_is_ter_with_the_new_references_as_the_only_references(
    judge: User,
) -> None:
    """The dashboard's and ``manage.py scores``'s HTER: Σ stored TER edits / Σ lengths
    over the done judgments, which is ``ter`` scored with each judgment's new reference
    as its sentence's only reference (issue 12), shifts included."""
    corpus = corpus_import(source=DEMO_XML, name="demo-hter").corpus
    corpus.judges.add(judge)
    targets = Target.objects.filter(sentence__corpus=corpus, translator__name="NiuTrans")
    candidates, new_refs = [], []
    for k, target in enumerate(targets.order_by("sentence__position")[:12]):
        tokens = words(target.text)
        new_ref = " ".join(tokens[3:] + tokens[:3]) if k % 2 else " ".join(tokens[:-1])
        finish(judgment_open(user=judge, target=target), judge, new_ref, 5)
        candidates.append(" ".join(words(target.text)))  # HTER reads 13a words
        stored = Judgment.objects.get(target=target, evaluator=judge).new_ref
        new_refs.append(" ".join(words(stored)))  # of the new reference too, as text stored

    hter = human_scores(corpus)["NiuTrans"]["hter"]
    ter = build_metric("ter").corpus_score(candidates, [(r,) for r in new_refs])

    assert hter.score == pytest.approx(ter.score, abs=1e-9)
    assert 0 < hter.score < human_scores(corpus)["NiuTrans"]["awer"].score
    assert "judgments:12" in hter.signature


def test_judgments_without_hter_counts_get_them_from_backfill_hter(judge: User) -> None:
    corpus = corpus_import(source=DEMO_XML, name="demo-old").corpus
    target = Target.objects.filter(sentence__corpus=corpus, translator__role="system").first()
    finish(judgment_open(user=judge, target=target), judge, "a b c", 5)
    stored = Judgment.objects.get(target=target, evaluator=judge)
    assert (stored.ter_edits, stored.ter_length) == (None, None)  # left by the clicks

    out = StringIO()
    call_command("backfill_hter", stdout=out)

    stored.refresh_from_db()
    assert (stored.ter_edits, stored.ter_length) == hter_counts(target.text, "a b c")
    assert stored.ter_length == 3
    assert out.getvalue() == "1 judgment(s) given their HTER counts.\n"
