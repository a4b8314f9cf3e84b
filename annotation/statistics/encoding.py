"""How the automatic statistics are kept: :class:`AutomaticStats` (every metric's
per-segment rows, scores, signatures and paired bootstrap), their bytes (exact, nothing
pickled: :mod:`metrics.archive`), the engine that wrote them and the name of the
preprocessing choice they were computed for; and which choice is a corpus's default
(:func:`default_preprocessor`), the one its import scores."""

from __future__ import annotations

from dataclasses import dataclass

from annotation.text import Attributed, corpus_tokenizer
from metrics import __version__ as metrics_version
from metrics import archive
from metrics.significance import MetricSignificance
from metrics.stats import FloatArray, Score, format_signature
from metrics.tokenize import Preprocessor

#: Names the metrics' version and the layout of ``CorpusStatistics.data``: a row written
#: by another engine is ignored and recomputed.
STATISTICS_ENGINE = f"metrics {metrics_version}, layout {archive.LAYOUT}"


@dataclass(frozen=True)
class AutomaticStats:
    """Every automatic metric of every system for one preprocessing choice:
    ``scores[metric][system]`` is :func:`automatic_scores`'s :class:`~metrics.stats.Score`
    (``.stats``: segments × k) and ``significance[metric]`` its paired bootstrap over all
    segments (none without a system)."""

    systems: tuple[str, ...]
    n_segments: int
    scores: dict[str, dict[str, Score]]
    significance: dict[str, MetricSignificance]

    def segment_stats(self, metric: str, system: str) -> FloatArray:
        """One system's statistics rows of one metric (segments × k)."""
        return score_rows(self.scores[metric][system])

    def stats(self, metric: str) -> dict[str, FloatArray]:
        return {s: self.segment_stats(metric, s) for s in self.systems}


def score_rows(score: Score) -> FloatArray:
    """An automatic score's statistics rows (segments × k), which it always carries."""
    if score.stats is None:
        raise ValueError(f"{score.name} score without per-segment statistics")
    return score.stats


def statistics_choice(preprocessor: Preprocessor, ref_length: str) -> str:
    """The stored row's name for a preprocessing choice:
    ``tok:13a|case:mixed|reflen:nearest|bounds:no``."""
    parts = preprocessor.signature_parts()
    return format_signature(
        {
            "tok": parts["tok"],
            "case": parts["case"],
            "reflen": ref_length,
            "bounds": parts["bounds"],
        },
        version=False,
    )


def default_preprocessor(corpus: Attributed) -> Preprocessor:
    """The corpus's default preprocessing: seed 000's defaults, with the tokenizer its
    target language picks (:func:`annotation.text.corpus_tokenizer`: ``zh``, ``ja-mecab``
    or ``ko-mecab`` for a Chinese, Japanese or Korean target, else 13a). One rule for
    every reader: the job queued with the corpus's texts scores it, and the dashboard
    (its default choice), ``manage.py scores`` and the judge's live figures read it, so
    the first view after the import finds its figures stored."""
    return Preprocessor(tokenize=corpus_tokenizer(corpus))


def default_choice(corpus: Attributed) -> str:
    """The stored row's name of the corpus's default choice (:func:`default_preprocessor`,
    the nearest reference length)."""
    return statistics_choice(default_preprocessor(corpus), "nearest")


def encode_statistics(stats: AutomaticStats) -> bytes:
    """``stats`` as stored: :func:`metrics.archive.pack` (exact, nothing pickled)."""
    return archive.pack(stats.systems, stats.n_segments, stats.scores, stats.significance)


def decode_statistics(data: bytes) -> AutomaticStats:
    """What :func:`encode_statistics` wrote."""
    found = archive.unpack(data)
    return AutomaticStats(found.systems, found.n_segments, found.scores, found.significance)
