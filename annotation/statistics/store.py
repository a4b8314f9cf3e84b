"""The automatic statistics as stored with the corpus (:class:`~annotation.statistics.
models.CorpusStatistics`): read back by every page, computed once per preprocessing choice.

They depend only on the texts and the choice, and are computed by a worker
(:mod:`annotation.statistics.jobs`): the import queues the corpus's default choice's
(:func:`~annotation.statistics.encoding.default_preprocessor`: the tokenizer its target
language picks), which every reader that names no choice reads, a page
that finds a choice not stored queues it, and reading them is all a page does. When
the texts change after the import (:mod:`annotation.changes`), a system added (or a
translator or sentence changed in the admin) deletes them; a candidate changed (a word
moved across a boundary) leaves them stale (their texts stamp is older than the
corpus's), and the next job scores only the candidates changed since
(:func:`updated_statistics`), with the figures of scoring afresh, to the last bit
(tested).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from django.db.models import QuerySet

from annotation.models import Corpus, CorpusStatistics, Target, Translator
from annotation.statistics.blobs import first_blob, insert_ignoring_conflicts
from annotation.statistics.compute import (
    automatic_scores,
    automatic_significance,
    compute_statistics,
    paired_bootstrap,
)
from annotation.statistics.encoding import (
    STATISTICS_ENGINE,
    AutomaticStats,
    decode_statistics,
    default_choice,
    default_preprocessor,
    score_rows,
    statistics_choice,
)
from annotation.statistics.metric_set import AUTOMATIC_METRICS, CORPUS_WIDE, app_metric
from annotation.statistics.texts import CorpusTexts, corpus_texts
from metrics import archive
from metrics.stats import FloatArray, Score
from metrics.tokenize import Preprocessor


def stored_statistics(
    corpus: Corpus, preprocessor: Preprocessor | None = None, ref_length: str = "nearest"
) -> AutomaticStats | None:
    """The corpus's automatic statistics for this choice (no ``preprocessor``: the
    corpus's default one, :func:`~annotation.statistics.encoding.default_preprocessor`)
    as stored for its current texts (one query), None when they are not (yet): all a web
    request ever does with them; computing them is a job's
    (:mod:`annotation.statistics.jobs`)."""
    choice = statistics_choice(preprocessor or default_preprocessor(corpus), ref_length)
    stored = first_blob(_rows(corpus).filter(choice=choice).values_list("data", flat=True))
    return None if stored is None else decode_statistics(stored)


def fresh_statistics(
    corpus: Corpus,
    preprocessor: Preprocessor,
    ref_length: str,
    progress: Callable[[int, int, str], None] | None = None,
) -> AutomaticStats:
    """The statistics of this choice computed for the corpus's current texts, in a
    worker: a stale stored row brought up to date (a word moved since:
    :func:`updated_statistics`), else scored, reusing what stored choices share."""
    choice = statistics_choice(preprocessor, ref_length)
    stats = updated_statistics(corpus, choice, preprocessor, ref_length)
    if stats is None:
        known = _kin_statistics(corpus, preprocessor)
        stats = compute_statistics(corpus, preprocessor, ref_length, known=known, progress=progress)
    return stats


def store_statistics(corpus_id: int, choice: str, texts_stamp: int, data: bytes) -> None:
    """Store encoded statistics of ``choice`` scored at ``texts_stamp``, in place of any
    stale row of that choice (call it in one transaction with whatever marks it done)."""
    CorpusStatistics.objects.filter(
        corpus_id=corpus_id, choice=choice, texts_stamp__lt=texts_stamp
    ).delete()
    # Stored once per stamp: a row already there (an earlier job) stays.
    insert_ignoring_conflicts(
        CorpusStatistics(
            corpus_id=corpus_id,
            choice=choice,
            engine=STATISTICS_ENGINE,
            texts_stamp=texts_stamp,
            data=data,
        )
    )


def _kin_statistics(corpus: Corpus, pp: Preprocessor) -> list[AutomaticStats]:
    """Stored statistics whose metrics may not depend on what differs from ``pp``: the
    corpus's default choice's (always stored) and the latest stored one of the same case
    (chrF reads the case only, so a new tokenizer keeps it). At most two rows are read."""
    rows = _rows(corpus)
    default = default_choice(corpus)
    case = statistics_choice(pp, "nearest").split("|")[1]  # "case:…"
    wanted = [
        rows.filter(choice=default),
        rows.filter(choice__contains=f"|{case}|").exclude(choice=default).order_by("-pk"),
    ]
    found = (first_blob(q.values_list("data", flat=True)) for q in wanted)  # one at a time
    return [decode_statistics(data) for data in found if data is not None]


def default_stored_statistics(corpus: Corpus) -> AutomaticStats | None:
    """The corpus's default choice's statistics as stored (one query), None if they are
    not (yet): for readers that must not score a whole corpus on their request (the
    judge's page)."""
    default = _rows(corpus).filter(choice=default_choice(corpus))
    stored = first_blob(default.values_list("data", flat=True))
    return None if stored is None else decode_statistics(stored)


def default_stored_rows(
    corpus: Corpus, metrics: Sequence[str]
) -> tuple[tuple[str, ...], dict[str, FloatArray]] | None:
    """The systems and, per metric of ``metrics``, the rows (systems × segments × k) of
    the corpus's default choice's statistics as stored (one query), None if they are not
    (yet).
    Only those metrics' rows are decoded (:func:`metrics.archive.unpack_rows`): a tenth
    of what decoding every metric, score and bootstrap costs, for the judge's page,
    which reads three metrics' rows."""
    default = _rows(corpus).filter(choice=default_choice(corpus))
    stored = first_blob(default.values_list("data", flat=True))
    return None if stored is None else archive.unpack_rows(stored, metrics)


def _rows(corpus: Corpus) -> QuerySet[CorpusStatistics]:
    """The corpus's stored statistics as of its candidates' texts (none stale)."""
    rows = CorpusStatistics.objects.filter(corpus=corpus, engine=STATISTICS_ENGINE)
    return rows.filter(texts_stamp=corpus.texts_stamp)


def updated_statistics(
    corpus: Corpus, choice: str, preprocessor: Preprocessor, ref_length: str
) -> AutomaticStats | None:
    """The statistics stored for ``choice`` at an earlier texts stamp, brought up to date
    by scoring again the candidates changed since (:func:`store_statistics` replaces the
    stale row); None when there is no such row or it cannot be built on."""
    stale = CorpusStatistics.objects.filter(
        corpus=corpus, choice=choice, engine=STATISTICS_ENGINE, texts_stamp__lt=corpus.texts_stamp
    )
    found = stale.values_list("pk", "texts_stamp").order_by("-texts_stamp").first()
    if found is None:
        return None
    data = first_blob(CorpusStatistics.objects.filter(pk=found[0]).values_list("data", flat=True))
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
    return _rescored(texts, before, changed, preprocessor, ref_length)


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
                rows = score_rows(wide_again[system][m])
            else:
                rows[ks] = again[system][m].stats
            total = float(metrics[m].score_from_stats(rows.sum(axis=0)))
            scores[m][system] = Score(old.name, total, old.signature, rows)
    bootstrap = paired_bootstrap(before.n_segments)
    significance = automatic_significance(scores, metrics, bootstrap) if before.systems else {}
    return AutomaticStats(before.systems, before.n_segments, scores, significance)
