"""What the dashboard keeps in the file cache (``settings.CACHES["default"]``), and why a
stale entry is never found.

* The per-segment automatic statistics of a corpus (:func:`automatic_stats`), per
  preprocessing choice: they depend only on the corpus texts, which never change after
  import, so the key is the corpus (pk and creation time: a re-imported corpus under a
  reused pk is another corpus) and every choice (:func:`cache_key`).
* The paired bootstrap results (:func:`cached_significance`): the automatic ones beside
  their statistics, the human ones under a fingerprint of the judgments' statistics
  (:func:`human_cache_key`), so a changed judgment is a new key rather than a stale entry.

Entries hold plain data (floats, strings, arrays, dicts), never objects of this package,
so a changed class can never unpickle wrongly; :data:`CACHE_FORMAT` versions the layout.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from annotation.dashboard.preprocessing import Preprocessing
from annotation.models import Corpus
from annotation.scoring import AUTOMATIC_METRICS, JudgmentRow, automatic_scores, corpus_texts
from metrics.significance import Interval, MetricSignificance, SystemFigure
from metrics.stats import FloatArray, Score

#: Bump when the cached value's layout changes: old entries are then simply not found.
CACHE_FORMAT = 1


@dataclass(frozen=True)
class AutomaticStats:
    """Every automatic metric of every system: ``scores[metric][system]`` is the
    :class:`~metrics.stats.Score` of ``automatic_scores`` (``.stats``: segments × k)."""

    systems: tuple[str, ...]
    n_segments: int
    scores: dict[str, dict[str, Score]]

    def segment_stats(self, metric: str, system: str) -> FloatArray:
        """One system's statistics rows of one metric (segments × k)."""
        score = self.scores[metric][system]
        if score.stats is None:  # automatic scores always carry their rows
            raise ValueError(f"{score.name} score without per-segment statistics")
        return score.stats

    def stats(self, metric: str) -> dict[str, FloatArray]:
        return {s: self.segment_stats(metric, s) for s in self.systems}


def _corpus_key(prefix: str, corpus: Corpus) -> str:
    return f"{prefix}:v{CACHE_FORMAT}:{corpus.pk}:{corpus.created_at.isoformat()}"


def cache_key(corpus: Corpus, preprocessing: Preprocessing) -> str:
    """Corpus pk + creation time (a re-imported corpus under a reused pk is another
    corpus) + every preprocessing choice + the layout version."""
    return f"{_corpus_key('dashboard-auto', corpus)}:{preprocessing.signature}"


def automatic_stats(corpus: Corpus, preprocessing: Preprocessing) -> AutomaticStats:
    """The per-segment automatic statistics of ``corpus``, computed once per
    preprocessing choice and then read from the file cache (see the module doc).

    The scores are those of :func:`annotation.scoring.automatic_scores` on
    :func:`~annotation.scoring.corpus_texts` — with the default preprocessing, exactly
    ``manage.py scores``'s.
    """
    key = cache_key(corpus, preprocessing)
    stored = cache.get(key)
    if stored is None:
        texts = corpus_texts(corpus)
        by_system = automatic_scores(
            texts,
            preprocessor=preprocessing.preprocessor(),
            ref_length=preprocessing.ref_length,
        )
        stored = {
            "systems": list(texts.systems),
            "n_segments": len(texts.refs),
            "scores": {
                m: {s: (f[m].score, f[m].signature, f[m].stats) for s, f in by_system.items()}
                for m in AUTOMATIC_METRICS
            },
        }
        cache.set(key, stored)
    return AutomaticStats(
        systems=tuple(stored["systems"]),
        n_segments=int(stored["n_segments"]),
        scores={
            m: {s: Score(m, score, sig, stats) for s, (score, sig, stats) in by_sys.items()}
            for m, by_sys in stored["scores"].items()
        },
    )


def human_cache_key(
    corpus: Corpus, systems: Sequence[str], n_segments: int, rows: Sequence[JudgmentRow]
) -> str:
    """The key of the human metrics' bootstrap: a fingerprint of everything it reads (the
    systems, the number of segments and each judgment's statistics, in order)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(repr((tuple(systems), n_segments)).encode())
    for r in rows:
        digest.update(repr((r.system, r.segment, r.sser, r.edits, r.ref_length)).encode())
    return f"{_corpus_key('dashboard-human', corpus)}:{digest.hexdigest()}"


def cached_significance(
    key: str, compute: Callable[[], dict[str, MetricSignificance]]
) -> dict[str, MetricSignificance]:
    """``compute()``'s bootstrap results, kept in the file cache as plain data (dicts and
    tuples, not pickled classes); an entry that no longer fits the classes is recomputed."""
    stored = cache.get(key)
    if stored is not None:
        try:
            return {m: _significance_from_plain(d) for m, d in stored.items()}
        except (TypeError, KeyError, AttributeError):
            pass  # written by another version of metrics.significance
    result = compute()
    cache.set(key, {m: dataclasses.asdict(sig) for m, sig in result.items()})
    return result


def _significance_from_plain(d: dict[str, Any]) -> MetricSignificance:
    figures = tuple(
        SystemFigure(**{**f, "interval": Interval(**f["interval"])}) for f in d["figures"]
    )
    return MetricSignificance(**{**d, "figures": figures})
