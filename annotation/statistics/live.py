"""The statistics of the judge's live figures: this system over the judge's work so far.

After every click the judge's header (:mod:`annotation.judging.figures`) shows aWER,
aSER and SSER over the judge's done judgments of this system plus the current one, and
WER, mWER and BLEU over the same sentences against the corpus references. They are the
figures ``manage.py scores`` and the dashboard show by default, computed the same way
(under the corpus's default choice: the tokenizer its target language picks): the human ones
through :func:`annotation.statistics.human.human_metric_rows` (which judgments enter
which figure is decided there and in :mod:`metrics.human`), the automatic ones as Σ of
per-segment sufficient statistics through the same metric objects. A target's statistics
rows are computed once per process (:func:`segment_stats`) and kept, as are the done
judgments' sums, so a page costs the same whether the judge has finished three sentences
or three hundred: it reads the human counts of the done judgments, never their texts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from annotation.changes import Stamp
from annotation.models import Corpus
from annotation.statistics.encoding import default_preprocessor
from annotation.statistics.human import JudgmentRow, human_metric_rows
from annotation.statistics.memo import CACHE, CorpusState, Shelf
from annotation.statistics.metric_set import HUMAN_METRICS
from annotation.statistics.store import default_stored_rows
from metrics import human
from metrics.registry import build_metric
from metrics.stats import Metric
from metrics.tokenize import Preprocessor


@dataclass(frozen=True)
class Judged:
    """One judgment as the live figures read it: its candidate (the target, whose
    statistics rows :func:`segment_stats` holds) and its human counts."""

    target_id: int
    edits: int | None
    ref_length: int | None
    sser: int | None


@dataclass(frozen=True)
class TargetTexts:
    """The texts a target's automatic statistics are computed from."""

    candidate: str
    #: The sentence's corpus references in reference order (none: no automatic figures).
    references: tuple[str, ...]


#: A target's statistics rows, one array per automatic figure (:data:`_AUTOMATIC`), or
#: None for a sentence without references (it has no automatic figures).
SegmentStats = tuple[np.ndarray, ...] | None


@dataclass(frozen=True)
class CorpusKey:
    """A corpus as the live figures' rows and sums are kept: which corpus and its texts
    stamp (a system added or a word moved across a boundary changes candidates), and
    the preprocessing its automatic figures are scored with, the corpus's default
    (:func:`~annotation.statistics.encoding.default_preprocessor`: ``zh`` words for a
    Chinese target), which its attributes decide, not a stamp."""

    state: CorpusState
    preprocessor: Preprocessor


def texts_key(corpus: Corpus) -> CorpusKey:
    """``corpus``'s :class:`CorpusKey`."""
    return CorpusKey(CorpusState.of(corpus, Stamp.TEXTS), default_preprocessor(corpus))


def live_scores(
    corpus: CorpusKey, judged: Sequence[Judged], stats: Mapping[int, SegmentStats]
) -> dict[str, float | None]:
    """Each live figure's score over ``judged`` (None where nothing is counted yet): the
    judge's done judgments of this system, the current judgment last; ``stats`` holds
    each target's rows (:func:`segment_stats`).

    Every figure is a rate of summed statistics rows, so the done judgments' sums are
    kept (:func:`_done_sums`) and each click adds only the current judgment's rows.
    """
    *done, current = judged
    sums = _done_sums(corpus, tuple(done), stats).plus(_sums([current], stats))
    return {name: sums.score(name, corpus.preprocessor) for name in _FIGURES}


@dataclass(frozen=True)
class _Sums:
    """Per figure, how many judgments entered it and the sum of their statistics rows."""

    counts: dict[str, int]
    totals: dict[str, np.ndarray]

    def plus(self, other: _Sums) -> _Sums:
        counts = {n: self.counts.get(n, 0) + other.counts.get(n, 0) for n in _FIGURES}
        totals = dict(self.totals)
        for name, total in other.totals.items():
            totals[name] = totals[name] + total if name in totals else total
        return _Sums(counts, totals)

    def score(self, name: str, preprocessor: Preprocessor) -> float | None:
        """The figure's score from its summed rows (an automatic one's under
        ``preprocessor``), None where no judgment entered it."""
        if not self.counts.get(name):
            return None
        if name in HUMAN_METRICS:
            return float(human.HUMAN_METRICS[name].score_from_stats(self.totals[name]))
        return float(_metric(name, preprocessor).score_from_stats(self.totals[name]))


def _sums(judged: Sequence[Judged], stats: Mapping[int, SegmentStats]) -> _Sums:
    """The summed rows of ``judged``: the human ones as the human figures count them
    (:func:`~annotation.statistics.human.human_metric_rows` says which judgments enter
    which figure), the automatic ones over the judgments whose sentence has references."""
    rows = [
        JudgmentRow(
            system="",
            segment=k,
            target_id=j.target_id,
            evaluator="",
            sser=j.sser,
            edits=j.edits,
            ref_length=j.ref_length,
            new_ref="",
            active_seconds=0.0,
        )
        for k, j in enumerate(judged)
    ]
    counts: dict[str, int] = {}
    totals: dict[str, np.ndarray] = {}
    for name in _HUMAN:
        segments, metric_rows = human_metric_rows(rows, name)
        counts[name] = len(segments)
        if segments:
            totals[name] = np.asarray(metric_rows).sum(axis=0)
    automatic = [row for j in judged if (row := stats[j.target_id]) is not None]
    for m, name in enumerate(_AUTOMATIC):
        counts[name] = len(automatic)
        if automatic:
            totals[name] = np.sum([row[m] for row in automatic], axis=0)
    return _Sums(counts, totals)


#: :func:`_done_sums` by corpus and the done judgments' (target, counts): the same sums
#: on every click of a candidate, and until the judge finishes another judgment of the
#: system.
DONE_SUMS = Shelf("live-sums", Stamp.TEXTS, 256)


def _done_sums(
    corpus: CorpusKey, done: tuple[Judged, ...], stats: Mapping[int, SegmentStats]
) -> _Sums:
    """:func:`_sums` of the done judgments, kept while they stay the same (a key is what
    the sums are computed from: the targets, whose statistics change only with the
    texts stamp, and each judgment's counts)."""
    key = DONE_SUMS.key(corpus.state, corpus.preprocessor, done)
    return CACHE.get_or_set(key, lambda: _sums(done, stats))


@cache
def _metric(name: str, preprocessor: Preprocessor) -> Metric:
    return build_metric(name, preprocessor=preprocessor)


#: The automatic figures of the header.
_AUTOMATIC = ("wer", "mwer", "bleu")
#: The human figures of the header (HTER, MQM-style and IER are the dashboard's).
_HUMAN = tuple(m for m in HUMAN_METRICS if m in ("awer", "aser", "sser"))
#: Every live figure: the human ones, then the automatic ones.
_FIGURES = (*_HUMAN, *_AUTOMATIC)
#: Per-target statistics rows of the automatic figures, under the texts stamp (which a
#: candidate's text changed moves: :mod:`annotation.changes`): computed once and then
#: found by the target's id, so a click (which changes no text) and every later page of
#: the judge reuse them, and the page reads the texts only of targets it has not seen.
ROWS = Shelf("live-rows", Stamp.TEXTS, 50_000)
_NOT_KEPT = object()  # a kept row may be None (a sentence without references)


def known_stats(
    corpus: CorpusKey, target_ids: Iterable[int]
) -> tuple[dict[int, SegmentStats], set[int]]:
    """The statistics rows already computed for these targets of ``corpus``, and the ids
    of those still to compute (:func:`segment_stats`)."""
    found: dict[int, SegmentStats] = {}
    missing: set[int] = set()
    for target_id in target_ids:
        row = CACHE.get(ROWS.key(corpus.state, corpus.preprocessor, target_id), _NOT_KEPT)
        if row is _NOT_KEPT:
            missing.add(target_id)
        else:
            found[target_id] = row
    return found, missing


def stored_stats(corpus: Corpus, wanted: Mapping[int, tuple[str, int]]) -> dict[int, SegmentStats]:
    """The statistics rows of the targets in ``wanted`` (target id → (system name,
    sentence position)) as the import stored them with the corpus's default statistics,
    kept from now on as :func:`segment_stats` keeps what it computes: the same rows, to
    the last bit, since the live figures use the default choice's metrics and every
    sentence has a first reference. Targets the stored statistics do not hold are left
    out (the caller computes them). One query per corpus and process reads them all.
    """
    key = texts_key(corpus)
    stored = _stored_rows(corpus, key)
    found: dict[int, SegmentStats] = {}
    for target_id, (system, segment) in wanted.items():
        rows = stored.get(system)
        if rows is not None and 0 <= segment < len(rows[0]):
            found[target_id] = tuple(r[segment] for r in rows)
    _keep(key, found)
    return found


#: Per corpus judged lately, the live figures' rows of every system (segments × k per
#: figure) from its stored default statistics (a few MB at real size:
#: ``docs/performance.md``).
STORED = Shelf("live-stored", Stamp.TEXTS, 4)


def _stored_rows(corpus: Corpus, live: CorpusKey) -> dict[str, tuple[np.ndarray, ...]]:
    """The corpus's stored rows per system: kept, or read (one query, the live figures'
    metrics' rows decoded, nothing else of the stored statistics) and kept; none when
    the default statistics are not stored (every row is then computed)."""
    key = STORED.key(live.state, live.preprocessor)
    kept: dict[str, tuple[np.ndarray, ...]] | None = CACHE.get(key)
    if kept is not None:
        return kept
    stored = default_stored_rows(corpus, _AUTOMATIC)
    if stored is None:
        return {}
    systems, by_metric = stored
    rows = {s: tuple(by_metric[m][i] for m in _AUTOMATIC) for i, s in enumerate(systems)}
    CACHE.put(key, rows)
    return rows


def segment_stats(
    corpus: CorpusKey, segments: Mapping[int, TargetTexts]
) -> dict[int, SegmentStats]:
    """Compute (and keep) the statistics rows of these targets of ``corpus``, with the
    same metric objects as every other figure (references prepared once per call)."""
    with_refs = [(t, s) for t, s in segments.items() if s.references]
    out: dict[int, SegmentStats] = {t: None for t, s in segments.items() if not s.references}
    if with_refs:
        hyps = [s.candidate for _, s in with_refs]
        refs = [s.references for _, s in with_refs]
        metrics = [_metric(name, corpus.preprocessor) for name in _AUTOMATIC]
        stats = [m.segment_stats(hyps, m.prepare_references(refs)) for m in metrics]
        for i, (target_id, _) in enumerate(with_refs):
            out[target_id] = tuple(np.array(s[i]) for s in stats)
    _keep(corpus, out)
    return out


def _keep(corpus: CorpusKey, rows: Mapping[int, SegmentStats]) -> None:
    CACHE.put_many(
        (ROWS.key(corpus.state, corpus.preprocessor, target_id), row)
        for target_id, row in rows.items()
    )
