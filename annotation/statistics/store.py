"""The automatic statistics as stored with the corpus (:class:`~annotation.statistics.
models.CorpusStatistics`): read back by every page, computed once per preprocessing choice.

They depend only on the texts and the choice: the import stores the default choice's,
any other choice is stored at its first use (scores, signatures and paired bootstrap
included), and reading them is all a page does. The texts change after the import in
two cases only (:mod:`annotation.statistics.invalidation`): a system added deletes them;
a word moved across a boundary leaves them stale (their texts stamp is older than the
corpus's), and their next reader scores only the candidates changed since
(:func:`updated_statistics`: 13.8 s → about a second for 1,000 sentences × 20
systems), with the figures of scoring afresh, to the last bit (tested).
"""

from __future__ import annotations

from collections import defaultdict
from functools import partial

from django.db.models import QuerySet

from annotation.apart import computed_apart, give_back_memory
from annotation.models import Corpus, Target, Translator
from annotation.statistics.blobs import first_blob, insert_ignoring_conflicts
from annotation.statistics.compute import (
    automatic_scores,
    automatic_significance,
    compute_statistics,
)
from annotation.statistics.encoding import (
    STATISTICS_ENGINE,
    AutomaticStats,
    decode_statistics,
    encode_statistics,
    statistics_choice,
)
from annotation.statistics.metric_set import AUTOMATIC_METRICS, CORPUS_WIDE, app_metric
from annotation.statistics.models import CorpusStatistics
from annotation.statistics.texts import CorpusTexts, corpus_texts
from metrics.significance import DEFAULT_SAMPLES, DEFAULT_SEED, Bootstrap
from metrics.stats import Score
from metrics.tokenize import Preprocessor


def automatic_statistics(
    corpus: Corpus, *, preprocessor: Preprocessor | None = None, ref_length: str = "nearest"
) -> AutomaticStats:
    """The corpus's automatic statistics for this choice: read back in one query when
    stored, else brought up to date from a stale stored row (a word moved since:
    :func:`updated_statistics`) or computed, and stored."""
    pp = preprocessor or Preprocessor()
    choice = statistics_choice(pp, ref_length)
    stored = first_blob(_rows(corpus).filter(choice=choice).values_list("data", flat=True))
    if stored is not None:
        return decode_statistics(stored)
    stats = updated_statistics(corpus, choice, pp, ref_length)
    if stats is None:
        stats = compute_statistics(corpus, pp, ref_length, known=_kin_statistics(corpus, pp))
    _store(corpus, choice, stats)
    give_back_memory()
    return stats


def _kin_statistics(corpus: Corpus, pp: Preprocessor) -> list[AutomaticStats]:
    """Stored statistics whose metrics may not depend on what differs from ``pp``: the
    default choice's (always stored) and the latest stored one of the same case (chrF
    reads the case only, so a new tokenizer keeps it). At most two rows are read."""
    rows = _rows(corpus)
    default = statistics_choice(Preprocessor(), "nearest")
    case = statistics_choice(pp, "nearest").split("|")[1]  # "case:…"
    wanted = [
        rows.filter(choice=default),
        rows.filter(choice__contains=f"|{case}|").exclude(choice=default).order_by("-pk"),
    ]
    found = (first_blob(q.values_list("data", flat=True)) for q in wanted)  # one at a time
    return [decode_statistics(data) for data in found if data is not None]


def default_stored_statistics(corpus: Corpus) -> AutomaticStats | None:
    """The default choice's statistics as stored (one query), None if they are not (yet):
    for readers that must not score a whole corpus on their request (the judge's page)."""
    default = _rows(corpus).filter(choice=statistics_choice(Preprocessor(), "nearest"))
    stored = first_blob(default.values_list("data", flat=True))
    return None if stored is None else decode_statistics(stored)


def default_statistics(corpus: Corpus) -> AutomaticStats:
    """The default choice's statistics, computed (reading only: the import calls it
    before its last transaction, so no lock is held while it scores)."""
    return compute_statistics(corpus, Preprocessor(), "nearest")


def save_default_statistics(corpus: Corpus, stats: AutomaticStats) -> None:
    """Store what :func:`default_statistics` computed, so the first dashboard view only
    reads (the caller gives the scoring's memory back once its transaction is over)."""
    _store(corpus, statistics_choice(Preprocessor(), "nearest"), stats)


def _rows(corpus: Corpus) -> QuerySet[CorpusStatistics]:
    """The corpus's stored statistics as of its candidates' texts (none stale)."""
    rows = CorpusStatistics.objects.filter(corpus=corpus, engine=STATISTICS_ENGINE)
    return rows.filter(texts_stamp=corpus.texts_stamp)


def _store(corpus: Corpus, choice: str, stats: AutomaticStats) -> None:
    # Two requests may compute the same choice at once: the first row stays.
    stamp, data = corpus.texts_stamp, encode_statistics(stats)
    insert_ignoring_conflicts(
        CorpusStatistics(
            corpus=corpus, choice=choice, engine=STATISTICS_ENGINE, texts_stamp=stamp, data=data
        )
    )


def updated_statistics(
    corpus: Corpus, choice: str, preprocessor: Preprocessor, ref_length: str
) -> AutomaticStats | None:
    """The statistics stored for ``choice`` at an earlier texts stamp, brought up to date
    by scoring again the candidates changed since (and the stale row deleted, so the
    caller stores these); None when there is no such row or it cannot be built on."""
    stale = CorpusStatistics.objects.filter(
        corpus=corpus, choice=choice, engine=STATISTICS_ENGINE, texts_stamp__lt=corpus.texts_stamp
    )
    found = stale.values_list("pk", "texts_stamp").order_by("-texts_stamp").first()
    if found is None:
        return None
    data = first_blob(CorpusStatistics.objects.filter(pk=found[0]).values_list("data", flat=True))
    stale.delete()
    if data is None:
        return None
    changed: dict[str, list[int]] = defaultdict(list)
    for name, position in Target.objects.filter(
        sentence__corpus=corpus,
        translator__role=Translator.Role.SYSTEM,
        text_stamp__gt=found[1],
    ).values_list("translator__name", "sentence__position"):
        changed[name].append(position)
    before = decode_statistics(data)
    texts = corpus_texts(corpus)
    if before.systems != tuple(texts.systems) or before.n_segments != len(texts.refs):
        return None
    # in a child, as every scoring (annotation.apart): METEOR's WordNet alone would stay
    # in the server process for good
    work = partial(_rescored, texts, before, changed, preprocessor, ref_length)
    (found,) = computed_apart([lambda: encode_statistics(work())])
    return decode_statistics(found)


def _rescored(
    texts: CorpusTexts,
    before: AutomaticStats,
    changed: dict[str, list[int]],
    preprocessor: Preprocessor,
    ref_length: str,
) -> AutomaticStats:
    """``before`` with the rows of the ``changed`` candidates (system → sentence
    positions) scored again (by :data:`~annotation.statistics.metric_set.CORPUS_WIDE` metrics, the
    changed system whole: the references did not change, so no other system is), every
    corpus score summed again and the paired bootstrap run again."""
    metrics = {m: app_metric(m, preprocessor, ref_length, texts.docs) for m in AUTOMATIC_METRICS}
    local = tuple(m for m in AUTOMATIC_METRICS if m not in CORPUS_WIDE)
    wide = tuple(m for m in AUTOMATIC_METRICS if m in CORPUS_WIDE)
    scores = {m: dict(before.scores[m]) for m in AUTOMATIC_METRICS}
    for system, positions in changed.items():
        ks = sorted(set(positions))
        part = CorpusTexts(
            refs=[texts.refs[k] for k in ks],
            systems={system: [texts.systems[system][k] for k in ks]},
            docs=[texts.docs[k] for k in ks],
        )
        again = automatic_scores(
            part, metrics=local, preprocessor=preprocessor, ref_length=ref_length
        )
        whole = CorpusTexts(texts.refs, {system: texts.systems[system]}, texts.docs)
        wide_again = automatic_scores(
            whole, metrics=wide, preprocessor=preprocessor, ref_length=ref_length
        )
        for m in AUTOMATIC_METRICS:
            old = before.scores[m][system]
            rows = before.segment_stats(m, system).copy()
            if m in wide:
                rows = wide_again[system][m].stats
            else:
                rows[ks] = again[system][m].stats
            total = float(metrics[m].score_from_stats(rows.sum(axis=0)))
            scores[m][system] = Score(old.name, total, old.signature, rows)
    bootstrap = Bootstrap(before.n_segments, DEFAULT_SAMPLES, DEFAULT_SEED)
    significance = automatic_significance(scores, metrics, bootstrap) if before.systems else {}
    return AutomaticStats(before.systems, before.n_segments, scores, significance)
