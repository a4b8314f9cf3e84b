"""The grown pool as references (annotation/dashboard/pool.py, annotation/statistics/
pool.py): every automatic metric against the corpus's references and the judges' accepted
new references, exactly as ``python -m metrics`` scores the files ``manage.py
export_references`` writes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from annotation.corpora.imports import corpus_import
from annotation.dashboard import figures, sources
from annotation.dashboard.pool import Shift, pool_part, rank_shifts
from annotation.dashboard.preprocessing import Preprocessing
from annotation.judging.start import judgment_open
from annotation.models import Corpus, User
from annotation.statistics import (
    AUTOMATIC_METRICS,
    AutomaticStats,
    compute_statistics,
    corpus_texts,
    forget,
    new_references,
    sentence_pools,
)
from annotation.tests.boards import view_of
from annotation.tests.factories import (
    DEMO_XML,
    HAND_REFS,
    HAND_SYSTEMS,
    HTMX,
    add_judgments,
    cells,
    finish,
    sized_corpus,
    system_pk,
    target_of,
    write_corpus,
)
from annotation.tests.pools import POOL_ACCEPTED, POOL_CORRECTED
from annotation.tests.stored import automatic_statistics, scored
from annotation.text import readable_text
from metrics.facts import APP_AUTOMATIC
from metrics.tokenize import Preprocessor

pytestmark = pytest.mark.django_db

POOL = Preprocessing(pool=True)
ACCEPTED, CORRECTED = POOL_ACCEPTED, POOL_CORRECTED


def test_the_pool_adds_each_accepted_new_reference_once_after_the_originals(
    judged_demo: Corpus,
) -> None:
    counts = view_of(judged_demo, POOL).get(sources.grown_pool).counts  # type: ignore[union-attr]
    texts = corpus_texts(judged_demo)

    assert counts.original == (2,) * 40
    # sentence 28's two references are one text: read once in the pool
    assert texts.refs[28][0] == texts.refs[28][1]
    assert counts.pool == (3,) * 12 + (2,) * 16 + (1,) + (2,) * 11
    assert (counts.least, counts.most, counts.new, counts.grown) == (1, 3, 12, 12)
    assert counts.pools[0].added == (readable_text(texts.systems[ACCEPTED][0]),)
    assert counts.pools[5].added == (readable_text(texts.systems[ACCEPTED][5]),)  # not bob's


def test_without_new_references_the_pool_reads_each_reference_once(tmp_path: Path) -> None:
    """No judgment: the pool is the corpus's references, a repeated one read once (NIST
    counts a reference's n-grams; BLEU takes the best of equal references)."""
    bare = corpus_import(source=DEMO_XML, name="bare").corpus
    original, pool = (
        view_of(bare).get(sources.chosen_statistics),
        view_of(bare, POOL).get(sources.chosen_statistics),
    )
    hand = corpus_import(
        source=write_corpus(tmp_path / "hand.xml", HAND_REFS, HAND_SYSTEMS), name="hand"
    ).corpus

    def figures(stats: AutomaticStats, metric: str) -> dict[str, float]:
        return {s: score.score for s, score in stats.scores[metric].items()}

    assert figures(pool, "bleu") == figures(original, "bleu")
    assert figures(pool, "nist") != figures(original, "nist")
    # a corpus without a repeated reference: the stored figures themselves
    assert (
        view_of(hand, POOL).get(sources.chosen_statistics).scores
        == view_of(hand).get(sources.chosen_statistics).scores
    )


def test_the_pool_changes_mwer_and_bleu_and_leaves_wer_and_ser(judged_demo: Corpus) -> None:
    original, pool = (
        view_of(judged_demo).get(sources.chosen_statistics),
        view_of(judged_demo, POOL).get(sources.chosen_statistics),
    )

    for metric in ("mwer", "bleu", "per", "chrf", "ter", "nist", "meteor"):
        assert pool.scores[metric][ACCEPTED].score != original.scores[metric][ACCEPTED].score
    assert pool.scores["mwer"][ACCEPTED].score < original.scores["mwer"][ACCEPTED].score
    assert pool.scores["bleu"][ACCEPTED].score > original.scores["bleu"][ACCEPTED].score
    for metric in ("wer", "ser", "wngram-f"):  # the first reference only
        assert pool.scores[metric] == original.scores[metric]
    assert "nrefs:var" in pool.scores["mwer"][ACCEPTED].signature


def write_systems(corpus: Corpus, out: Path) -> tuple[dict[str, Path], Path]:
    """Each system's candidates as a plain file, one line per sentence, and the
    sentences' documents (``--docs``)."""
    out.mkdir()
    texts = corpus_texts(corpus)
    paths = {}
    for k, (system, lines) in enumerate(texts.systems.items()):
        paths[system] = out / f"system{k}.txt"
        paths[system].write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    docs = out / "docs.txt"
    docs.write_text("".join(f"{doc}\n" for doc in texts.docs), encoding="utf-8")
    return paths, docs


def command_line(
    corpus: Corpus, tmp_path: Path, metrics: Sequence[str], *options: str
) -> dict[str, dict[str, dict[str, Any]]]:
    """``manage.py export_references``, then ``python -m metrics`` on its files: per
    system, per metric, ``{"score", "signature"}``."""
    call_command("export_references", corpus.name, "--out", str(tmp_path / "refs"))
    refs = sorted((tmp_path / "refs").glob("ref*.txt"))
    assert [r.name for r in refs] == ["ref0.txt", "ref1.txt", "ref2.txt"]
    systems, docs = write_systems(corpus, tmp_path / "systems")
    command = [sys.executable, "-m", "metrics", *(f"--ref={r}" for r in refs)]
    command += [f"--hyp={p}" for p in systems.values()]
    command += ["--metric", ",".join(metrics), "--json", "--docs", str(docs), *options]
    found = json.loads(subprocess.run(command, capture_output=True, check=True, text=True).stdout)
    return {system: {m: found[str(path)][m] for m in metrics} for system, path in systems.items()}


def pool_figures(
    corpus: Corpus, metrics: Sequence[str], **choices: str
) -> dict[str, dict[str, dict[str, Any]]]:
    """The dashboard's pool choice: per system, per metric, ``{"score", "signature"}``."""
    auto = view_of(corpus, Preprocessing(pool=True, **choices)).get(sources.chosen_statistics)  # type: ignore[arg-type]
    return {s: {m: auto.scores[m][s].as_json() for m in metrics} for s in auto.systems}


def scores(figures: dict[str, dict[str, dict[str, Any]]]) -> dict[str, dict[str, float]]:
    return {s: {m: f["score"] for m, f in by_metric.items()} for s, by_metric in figures.items()}


def test_the_pool_toggle_scores_as_the_exported_files_read_as_distinct_references(
    judged_demo: Corpus, tmp_path: Path
) -> None:
    """Every metric, to the last bit: the files' repeated first references read once
    (``--distinct-refs``) are the pool the dashboard scores."""
    found = command_line(judged_demo, tmp_path, APP_AUTOMATIC, "--distinct-refs")
    original = view_of(judged_demo).get(sources.chosen_statistics)

    assert found == pool_figures(judged_demo, APP_AUTOMATIC)  # signatures too: nrefs:var
    assert found[ACCEPTED]["mwer"]["score"] != original.scores["mwer"][ACCEPTED].score
    assert found[ACCEPTED]["bleu"]["score"] != original.scores["bleu"][ACCEPTED].score


#: The metrics a repeated reference leaves unchanged (docs/metrics.md): BLEU (clipped
#: counts take the maximum over references, the closest length is the same length),
#: chrF and chrF++, METEOR and LEPOR (the best single reference), WER, SER and the
#: weighted n-grams (the first reference only).
ALIKE = ("bleu", "chrf", "chrf++", "meteor", "lepor", "wer", "ser", "wngram-f")
#: mWER and PER take the minimum distance; their reference length is unchanged by a
#: repeated reference under ``closest`` and ``best`` (not ``nearest`` and ``average``).
ALIKE_BY_LENGTH = ("mwer", "per", "per2")


@pytest.mark.parametrize("reflen", ["closest", "best"])
def test_the_exported_files_as_sacrebleu_reads_them_give_the_pools_bleu_and_mwer(
    judged_demo: Corpus, tmp_path: Path, reflen: str
) -> None:
    metrics = (*ALIKE, *ALIKE_BY_LENGTH)
    found = command_line(judged_demo, tmp_path, metrics, "--ref-length", reflen)

    assert scores(found) == scores(pool_figures(judged_demo, metrics, ref_length=reflen))


def test_a_repeated_reference_changes_the_metrics_that_average_over_references(
    judged_demo: Corpus, tmp_path: Path
) -> None:
    """NIST (information weights and average length), TER (average length), mWER and PER
    with the nearest references' average length: the reason for ``--distinct-refs``."""
    metrics = ("nist", "ter", "mwer", "per")
    found = scores(command_line(judged_demo, tmp_path, metrics))
    pool = scores(pool_figures(judged_demo, metrics))

    for m in metrics:
        assert any(found[s][m] != pool[s][m] for s in pool), m


def test_the_ranking_shifts_against_the_original_places(judged_demo: Corpus) -> None:
    dash = view_of(judged_demo, POOL)
    shifts = dash.get(sources.grown_pool).shifts  # type: ignore[union-attr]
    before = view_of(judged_demo).get(figures.table)

    # the system whose words the judges accepted climbs from last: to 1st by BLEU, to
    # 2nd by mWER (IIE-MT stays 1st)
    assert shifts["bleu"][ACCEPTED] == Shift(before=5, after=1)
    assert shifts["mwer"][ACCEPTED] == Shift(before=5, after=2)
    assert shifts["mwer"]["IIE-MT"] == Shift(before=1, after=1)
    assert (shifts["bleu"][ACCEPTED].arrow, shifts["mwer"]["IIE-MT"].arrow) == ("▲4", "=")
    for row in before.rows:  # the places are the original table's order by score
        shift = shifts["bleu"][row.system]
        better = [r for r in before.rows if r.cell("bleu").score > row.cell("bleu").score]  # type: ignore[operator]
        assert shift.before == 1 + len(better)
    assert view_of(judged_demo).get(figures.table).rows[0].cell("mwer").shift is None


def test_a_finished_judgment_is_in_the_next_pool_view(judged_demo: Corpus, user_factory) -> None:
    """Keyed by the judgments stamp: no stale pool after a new reference is accepted."""
    before = view_of(judged_demo, POOL).get(sources.grown_pool).counts.new  # type: ignore[union-attr]
    cy = user_factory("cy")
    judged_demo.judges.add(cy)
    texts = corpus_texts(judged_demo)
    finish(
        judgment_open(user=cy, target=target_of(judged_demo, CORRECTED, 30)),
        cy,
        texts.systems[ACCEPTED][30],
        8,
    )
    judged_demo.refresh_from_db()

    assert view_of(judged_demo, POOL).get(sources.grown_pool).counts.new == before + 1  # type: ignore[union-attr]


def scored_afresh(corpus: Corpus) -> AutomaticStats:
    """Every metric against the corpus's grown pool, the whole corpus scored as a new
    preprocessing choice is (nothing built on)."""
    texts = corpus_texts(corpus)
    grown = [p.texts for p in sentence_pools(texts.refs, new_references(corpus))]
    return compute_statistics(corpus, Preprocessor(), "nearest", texts=replace(texts, refs=grown))


def assert_same_statistics(mine: AutomaticStats, theirs: AutomaticStats) -> None:
    for m in AUTOMATIC_METRICS:
        for s in mine.systems:
            assert mine.scores[m][s] == theirs.scores[m][s], (m, s)  # name, score, signature
            assert np.array_equal(mine.segment_stats(m, s), theirs.segment_stats(m, s)), (m, s)
    assert mine.significance == theirs.significance


def test_the_first_view_scores_only_the_sentences_whose_pool_differs_from_their_references(
    judged_demo: Corpus,
) -> None:
    """Built on the original references' statistics: the 12 sentences that gained new
    references and the one whose repeated reference the pool reads once; every figure,
    row and bootstrap result is what scoring the whole pool afresh gives."""
    first = view_of(judged_demo, POOL).get(sources.grown_pool)

    assert first is not None
    assert first.rescored == (*range(12), 28)
    assert_same_statistics(first.stats, scored_afresh(judged_demo))


def test_a_new_judgment_rescores_only_its_sentence_with_the_figures_of_scoring_afresh(
    judged_demo: Corpus, user_factory: Callable[..., User]
) -> None:
    """The previous pool is remembered under the previous stamp: the next view scores
    again the one sentence whose pool grew."""
    view_of(judged_demo, POOL).get(sources.grown_pool)
    cy = user_factory("cy")
    judged_demo.judges.add(cy)
    accepted = corpus_texts(judged_demo).systems[ACCEPTED][30]
    finish(judgment_open(user=cy, target=target_of(judged_demo, CORRECTED, 30)), cy, accepted, 8)
    judged_demo.refresh_from_db()

    now = view_of(judged_demo, POOL).get(sources.grown_pool)

    assert now is not None
    assert now.rescored == (30,)
    assert_same_statistics(now.stats, scored_afresh(judged_demo))
    assert now.shifts == rank_shifts(
        view_of(judged_demo).get(sources.chosen_statistics), scored_afresh(judged_demo)
    )


def test_a_pool_scored_on_other_candidates_is_not_built_on(judged_demo: Corpus) -> None:
    """A system added or a boundary moved changes the texts stamp: the pool is built on
    the original references again."""
    original = view_of(judged_demo).get(sources.chosen_statistics)
    previous = pool_part(judged_demo, Preprocessor(), "nearest", original)
    stale = replace(previous, texts_stamp=previous.texts_stamp - 1)
    forget()

    assert pool_part(judged_demo, Preprocessor(), "nearest", original, stale).rescored == (
        *range(12),
        28,
    )
    assert pool_part(judged_demo, Preprocessor(), "nearest", original, previous).rescored == ()


# ------------------------------------------------------------------ the page


def test_the_toggle_shows_the_pool_figures_and_the_reference_counts(
    lead_client: Client, judged_demo: Corpus
) -> None:
    url = f"/dashboard/{judged_demo.pk}/"
    original = cells(lead_client.get(url).content.decode())
    html = lead_client.get(url + "?refs=pool").content.decode()
    shown = cells(html)
    pool = view_of(judged_demo, POOL).get(sources.chosen_statistics)

    assert 'id="pool-references"' in html
    assert 'data-most="3"' in html
    assert 'data-new="12"' in html
    assert "1–3</span> references" in html
    assert '<option value="pool" selected>' in html
    assert "refs:pool" in html
    for metric in ("mwer", "bleu"):
        value = float(shown[(ACCEPTED, metric)]["data-value"])
        assert value == pool.scores[metric][ACCEPTED].score
        assert value != float(original[(ACCEPTED, metric)]["data-value"])
    assert "▲4" in shown[(ACCEPTED, "bleu")]["text"]
    assert (
        "place 5 against the original references, 1 against the grown pool"
        in (shown[(ACCEPTED, "bleu")]["title"])
    )
    assert 'class="shift"' in html
    assert 'class="shift"' not in lead_client.get(url).content.decode()


def test_table_json_has_each_automatic_figures_places_against_the_pool(
    lead_client: Client, judged_demo: Corpus
) -> None:
    pool = lead_client.get(f"/dashboard/{judged_demo.pk}/table.json?refs=pool").json()
    original = lead_client.get(f"/dashboard/{judged_demo.pk}/table.json").json()
    shifts = view_of(judged_demo, POOL).get(sources.grown_pool).shifts  # type: ignore[union-attr]

    assert pool["preprocessing"]["refs"] == "pool"
    assert original["preprocessing"]["refs"] == "original"
    mwer = pool["translators"][ACCEPTED]["mwer"]
    assert mwer["place"] == {
        "original": shifts["mwer"][ACCEPTED].before,
        "pool": shifts["mwer"][ACCEPTED].after,
    }
    assert "place" not in original["translators"][ACCEPTED]["mwer"]
    assert "place" not in pool["translators"][CORRECTED]["sser"]


def test_the_toggle_is_one_fragment_for_htmx_and_refuses_a_bad_choice(
    lead_client: Client, judged_demo: Corpus
) -> None:
    url = f"/dashboard/{judged_demo.pk}/"
    fragment = lead_client.get(url + "?refs=pool", **HTMX)
    bad = lead_client.get(url + "?refs=more")

    assert fragment.content.decode().startswith('<div id="dashboard"')
    assert bad.status_code == 400
    assert "refs=&#x27;more&#x27;" in bad.content.decode()


def test_the_drill_down_counts_each_sentences_references_in_the_pool(
    lead_client: Client, judged_demo: Corpus
) -> None:
    base = f"/dashboard/{judged_demo.pk}/system/{system_pk(judged_demo, ACCEPTED)}/"
    html = lead_client.get(base + "?refs=pool&order=position&metric=mwer").content.decode()
    plain = lead_client.get(base + "?order=position&metric=mwer").content.decode()

    assert html.count('data-col="references">3 references') == 12
    assert html.count('data-col="references">2 references') == 27
    assert html.count('data-col="references">1 reference<') == 1
    assert 'data-col="references"' not in plain
    # Online-W's candidates are now references: its nearest one is its own words
    assert html.count("vs <bdi>new reference</bdi>") == 12


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, **HTMX).status_code == 200, url
    return len(captured)


#: Per URL the queries of a first view and of a later one. The first: the original
#: choice's view's (test_views.QUERIES), plus the corpus's texts (translators, sentences,
#: targets), the new references, the stored pool (none) and storing the pool scored
#: (a savepoint, the older row deleted, the new one inserted, the savepoint released);
#: a later one reads nothing of either, nor the stored statistics (the pool's figures
#: and the ranking's shifts are remembered together); one after the judgments stamp
#: moved but no pool changed reads the texts and new references again, builds on the
#: pool this process remembers and stores nothing, nor reads the stored statistics
#: (decoded by then: annotation.dashboard.sources.DECODED). Whenever nothing is
#: remembered, the pool's job is looked up first (none is running).
POOL_QUERIES = {
    # + the judges left out (the page's header) and, on a first view, the sentences'
    # documents (the estimates, which read the original references' statistics, never
    # the pool's; kept under the texts stamp, so a judgment reads them no more)
    "/dashboard/{pk}/?refs=pool": (19, 4, 12),
    "/dashboard/{pk}/panel/table/?refs=pool": (16, 4, 10),
    "/dashboard/{pk}/system/{system}/?refs=pool&metric=mwer": (17, 6, 11),
}


@pytest.mark.parametrize("url", list(POOL_QUERIES))
def test_pool_views_cost_the_same_queries_whatever_the_corpus_size(
    lead_client: Client,
    user_factory: Callable[..., User],
    tmp_path: Path,
    url: str,
    settings: Any,
) -> None:
    """A first view (the texts, the new references and the original statistics are read
    once), a later one (all remembered) and one after a judgment changed: the same
    number of queries for a corpus of 5 and of 50 judged sentences, both scored on the
    page (a larger backlog is a worker's job: its own tests)."""
    settings.EVALTOOL_POOL_ON_THE_PAGE = 10_000
    users = [user_factory("ann"), user_factory("bob")]
    counts = {}
    for size in (5, 50):
        corpus = sized_corpus(tmp_path, f"c{size}", size)
        scored(corpus)  # stored, as once its import's job is done
        add_judgments(corpus, users, 3 * size)
        address = url.format(pk=corpus.pk, system=system_pk(corpus, "system 0"))

        first, later = queries(lead_client, address), queries(lead_client, address)
        add_judgments(corpus, users[:1], 0)  # the stamp moves, as when a judgment changes
        counts[size] = (first, later, queries(lead_client, address))

    assert counts[5] == counts[50] == POOL_QUERIES[url]


def test_a_view_while_the_pool_job_runs_reads_no_judgment_whatever_the_corpus_size(
    lead_client: Client, user_factory: Callable[..., User], tmp_path: Path, settings: Any
) -> None:
    """The page polls every second while a worker scores the grown pool: each poll
    looks the job up and shows its progress, with the backlog the job was queued with,
    without reading the texts, the new references or the pool stored before."""
    settings.EVALTOOL_POOL_ON_THE_PAGE = 0
    settings.TASKS = settings.QUEUED_TASKS  # the job waits for a worker
    users = [user_factory("ann"), user_factory("bob")]
    polls = {}
    for size in (5, 50):
        corpus = sized_corpus(tmp_path, f"c{size}", size)
        automatic_statistics(corpus)
        add_judgments(corpus, users, 3 * size)
        url = f"/dashboard/{corpus.pk}/panel/table/?refs=pool"
        first = lead_client.get(url, **HTMX)
        assert first.status_code == 202
        queued = first.content.decode()
        with CaptureQueriesContext(connection) as captured:
            poll = lead_client.get(url, **HTMX)
        assert poll.status_code == 202
        shown = poll.content.decode()
        assert 'id="pool-scoring"' in shown
        for attribute in ("data-sentences", "data-pairs", "data-job"):
            assert _attribute(shown, attribute) == _attribute(queued, attribute)
        assert _attribute(shown, "data-sentences") != "0"
        polls[size] = len(captured)

    assert polls[5] == polls[50]
    assert polls[5] <= 6


def _attribute(page: str, name: str) -> str:
    return page.split(f'{name}="', 1)[1].split('"', 1)[0]
