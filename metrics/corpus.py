"""Every automatic metric of every system of one corpus, the work they share done once.

Scoring a corpus metric by metric (``prepare_references``, then ``segment_stats`` per
system) tokenizes every text once per metric and compares every candidate with the
references once per metric that needs it. Yet the metrics share most of that work:

* WER, SER, mWER and PER read the same tokens; WER's distance is mWER's to the first
  reference, and SER's "identical to the first reference" is a distance of 0;
* BLEU's n-gram matches are NIST's first four orders (the same references, the same
  clipping counts: :mod:`metrics.ngrams`).

:func:`score_corpus` tokenizes each distinct candidate of a segment once (a sentence that
several systems output is one candidate; :mod:`metrics.encode`, uncached, because a
corpus is scored once and its tokens need not stay in memory), compares each
distinct candidate of a segment with each of the segment's references once (a sentence
that several systems output is one candidate), matches each system's n-grams once for
BLEU and NIST together, and gives every metric its statistics rows from that shared
work. The rows are those of each metric's own ``segment_stats``, to the last bit: the
same functions compute them from the same integers (the tests compare the two paths on
every preprocessing choice).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from metrics.encode import IntArray, Lines, encode
from metrics.ngrams import ReferenceNgrams, check_references, index_lines
from metrics.stats import FloatArray, Metric, References, Score, check_parallel
from metrics.tokenize import BOS, EOS, Preprocessor

if TYPE_CHECKING:
    from metrics.wer import MWER, PER, SER, WER, SegmentPairs


class _NotImported:
    """Stands for a metric class whose module is not imported: no object is one."""


def _metric_class(module: str, name: str) -> Any:
    """The class ``module.name`` if that module is imported, else :class:`_NotImported`.

    A metric object exists only once its class's module is imported, so telling the
    metrics apart needs no other module: scoring BLEU alone imports neither the
    alignment nor TER, METEOR … (start-up is most of a command line's time).
    """
    loaded = sys.modules.get(module)
    return _NotImported if loaded is None else getattr(loaded, name)


def _shared_classes() -> tuple[Any, ...]:
    """The metrics whose work :func:`score_corpus` shares (bigram PER with PER); every
    other one is scored on its own."""
    edit = tuple(_metric_class("metrics.wer", n) for n in ("WER", "SER", "MWER", "PER"))
    return (
        *edit,
        _metric_class("metrics.bleu", "BLEU"),
        _metric_class("metrics.nist", "NIST"),
        _metric_class("metrics.chrf", "CHRF"),
    )


@dataclass(frozen=True, eq=False)
class EncodedCorpus:
    """A corpus as token ids, each distinct text tokenized once.

    ``refs`` are all references, segment after segment (segment ``k``'s are lines
    ``seg_start[k]`` to ``seg_start[k + 1]``, the first reference first); ``cands`` are
    the distinct (segment, candidate text) pairs of all systems, ``cand_segment`` their
    segments, and ``systems[name][k]`` the candidate of that system in segment ``k``.
    """

    preprocessor: Preprocessor
    vocab: dict[str, int]
    refs: Lines
    seg_start: IntArray
    cands: Lines
    cand_segment: IntArray
    systems: dict[str, IntArray]

    @classmethod
    def build(
        cls, refs: References, systems: Mapping[str, Sequence[str]], pp: Preprocessor
    ) -> EncodedCorpus:
        check_references(refs)
        for name, hyps in systems.items():
            if len(hyps) != len(refs):
                raise ValueError(
                    f"{name}: {len(hyps)} hypotheses but {len(refs)} reference segments: "
                    "they must be parallel"
                )
        vocab: dict[str, int] = {}
        ref_lines = encode(pp, [r for seg in refs for r in seg], vocab, grow=True, cached=False)
        if pp.sentence_boundaries:  # a candidate's own "<s>" is the boundary word, as in BLEU
            vocab.setdefault(BOS, len(vocab))
            vocab.setdefault(EOS, len(vocab))
        n_refs = np.fromiter(map(len, refs), dtype=np.int64, count=len(refs))
        seg_start = np.zeros(len(refs) + 1, dtype=np.int64)
        np.cumsum(n_refs, out=seg_start[1:])
        cand_of: dict[tuple[int, str], int] = {}
        by_system: dict[str, IntArray] = {}
        for name, hyps in systems.items():
            own = np.empty(len(hyps), dtype=np.int64)
            for k, text in enumerate(hyps):
                own[k] = cand_of.setdefault((k, text), len(cand_of))
            by_system[name] = own
        cand_segment = np.fromiter((k for k, _ in cand_of), dtype=np.int64, count=len(cand_of))
        return cls(
            preprocessor=pp,
            vocab=vocab,
            refs=ref_lines,
            seg_start=seg_start,
            cands=encode(pp, [t for _, t in cand_of], vocab, grow=False, cached=False),
            cand_segment=cand_segment,
            systems=by_system,
        )

    @property
    def n_segments(self) -> int:
        return len(self.seg_start) - 1

    @cached_property
    def pairs(self) -> SegmentPairs:
        """Every candidate against every reference of its segment."""
        from metrics.wer import SegmentPairs

        return SegmentPairs.of(self.cand_segment, self.seg_start)

    @cached_property
    def distances(self) -> IntArray:
        """The Levenshtein distance of every pair (:func:`metrics.align.levenshtein`)."""
        from metrics.align import levenshtein

        ref_group = np.repeat(np.arange(self.n_segments, dtype=np.int64), np.diff(self.seg_start))
        pairs = self.pairs
        return levenshtein(
            self.cands, self.refs, pairs.cand, pairs.ref, self.cand_segment, ref_group
        )

    def reference_ngrams(self, max_order: int) -> ReferenceNgrams:
        return index_lines(
            self.refs, np.diff(self.seg_start), self.preprocessor, max_order, self.vocab
        )


def score_corpus(
    refs: References,
    systems: Mapping[str, Sequence[str]],
    metrics: Sequence[Metric],
) -> dict[str, dict[str, Score]]:
    """Every metric of ``metrics`` for every system: ``out[system][metric name]`` is the
    :class:`~metrics.stats.Score` ``metric.corpus_score(hyps, refs)`` gives, statistics
    included. The metrics must share one preprocessor (the module doc says why that is
    the point); any other (not in :data:`SHARED`: TER with its own normalisation, METEOR,
    LEPOR, the weighted n-grams) are scored apart: METEOR aligning each distinct candidate
    of a segment once (:func:`metrics.meteor.corpus_rows`; its words are lowercased
    whatever the case choice), TER searching all systems together, the weighted n-grams
    counted once for P, R and F, LEPOR with its own ``segment_stats``."""
    if not systems:  # a corpus of references only: nothing to score
        return {}
    stats: dict[str, dict[str, FloatArray]] = {s: {} for s in systems}
    weighted: dict[tuple[object, ...], dict[str, FloatArray]] = {}
    shared_classes = _shared_classes()
    shared = [m for m in metrics if isinstance(m, shared_classes)]
    meteor = _metric_class("metrics.meteor", "METEOR")
    ter = _metric_class("metrics.ter", "TER")
    weighted_ngram = _metric_class("metrics.wngram", "WeightedNgram")
    for metric in metrics:
        if isinstance(metric, meteor):
            from metrics.meteor import corpus_rows as meteor_rows

            check_references(refs)
            for system, found in meteor_rows(metric, refs, systems).items():
                stats[system][metric.name] = found
        elif isinstance(metric, ter):  # its own normalisation; all systems searched together
            check_references(refs)
            for hyps in systems.values():
                check_parallel(hyps, refs)
            rows = metric.systems_stats(systems, metric.prepare_references(refs))
            for system, own in rows.items():
                stats[system][metric.name] = own
        elif isinstance(metric, weighted_ngram):  # P, R and F of one configuration: one count
            key = metric.rows_key()
            if key not in weighted:
                weighted[key] = _own_rows(metric, refs, systems)
            for system, counted in weighted[key].items():
                stats[system][metric.name] = counted
        elif not isinstance(metric, shared_classes):  # LEPOR: on its own
            for system, counted in _own_rows(metric, refs, systems).items():
                stats[system][metric.name] = counted
    if shared:
        _shared_stats(refs, systems, shared, stats)
    out: dict[str, dict[str, Score]] = {}
    for system in systems:
        out[system] = {}
        for metric in metrics:
            if metric.name not in stats[system]:
                raise ValueError(f"score_corpus cannot score {metric.name!r}")
            s = stats[system][metric.name]
            out[system][metric.name] = Score(
                metric.name,
                float(metric.score_from_stats(s.sum(axis=0))),
                metric.signature(refs),
                s,
            )
    return out


def _own_rows(
    metric: Metric, refs: References, systems: Mapping[str, Sequence[str]]
) -> dict[str, FloatArray]:
    """Each system's rows from the metric's own ``segment_stats`` (references prepared once)."""
    check_references(refs)
    prepared = metric.prepare_references(refs)
    out = {}
    for system, hyps in systems.items():
        check_parallel(hyps, refs)
        out[system] = metric.segment_stats(hyps, prepared)
    return out


def _shared_stats(
    refs: References,
    systems: Mapping[str, Sequence[str]],
    metrics: Sequence[Metric],
    stats: dict[str, dict[str, FloatArray]],
) -> None:
    """The statistics of the metrics that share one tokenization, into ``stats``."""
    preprocessors = {getattr(m, "preprocessor", None) for m in metrics}
    if len(preprocessors) != 1 or None in preprocessors:
        raise ValueError(
            f"metrics with {len(preprocessors)} preprocessors: score_corpus shares one"
        )
    pp = preprocessors.pop()
    if not isinstance(pp, Preprocessor):
        raise ValueError("score_corpus needs metrics that tokenize with a Preprocessor")
    corpus = EncodedCorpus.build(refs, systems, pp)
    wer, ser, mwer, per, bleu, nist, chrf = _shared_classes()
    per2 = _metric_class("metrics.per2", "PER2")
    rows: dict[str, FloatArray] = {}  # per metric of the edit family, per candidate
    for metric in metrics:
        if isinstance(metric, per2):
            from metrics.per2 import bigram_lines

            bounds = pp.sentence_boundaries
            rows[metric.name] = metric.bigram_rows(
                bigram_lines(corpus.cands, corpus.vocab, bounds),
                bigram_lines(corpus.refs, corpus.vocab, bounds),
                corpus.pairs,
            )
        elif isinstance(metric, wer | ser | mwer | per):
            rows[metric.name] = _edit_rows(metric, corpus)
    ngram_metrics = [m for m in metrics if isinstance(m, bleu | nist)]
    if ngram_metrics:
        from metrics.ngrams import match_lines

        top = max(
            m.counted_order if isinstance(m, bleu) else m.max_ngram_order for m in ngram_metrics
        )
        ngrams = corpus.reference_ngrams(top)
        info = {}
        if any(isinstance(m, nist) for m in ngram_metrics):
            from metrics.nist import information_weights

            quirks = {m.mteval for m in ngram_metrics if isinstance(m, nist)}
            info = {q: information_weights(ngrams, mteval=q) for q in quirks}
        for system, cands in corpus.systems.items():
            matches = match_lines(corpus.cands.take(cands), ngrams)
            for metric in ngram_metrics:
                if isinstance(metric, nist):
                    stats[system][metric.name] = metric.stats_of(matches, info[metric.mteval])
                elif isinstance(metric, bleu):
                    stats[system][metric.name] = metric.stats_of(matches)
    chrf_metrics = [m for m in metrics if isinstance(m, chrf)]
    if chrf_metrics:
        from metrics.chrf import corpus_rows

        for system, found in corpus_rows(chrf_metrics, refs, dict(systems)).items():
            stats[system] |= found
    for system, cands in corpus.systems.items():
        for name, per_cand in rows.items():
            stats[system][name] = per_cand[cands]


def _edit_rows(metric: WER | SER | MWER | PER, corpus: EncodedCorpus) -> FloatArray:
    """Rows of every candidate for a metric of the edit-distance family."""
    from metrics.wer import MWER, PER, SER, per_commons, per_distances, ser_rows, wer_rows

    pairs = corpus.pairs
    ref_lengths = corpus.refs.lengths
    if isinstance(metric, MWER | PER):
        if isinstance(metric, PER):
            common = per_commons(corpus.cands, corpus.refs, pairs.cand, pairs.ref)
            distances = per_distances(
                common, corpus.cands.lengths[pairs.cand], ref_lengths[pairs.ref]
            )
        else:
            distances = corpus.distances
        return metric.reduce(pairs, distances, ref_lengths, corpus.cands.lengths)
    first = pairs.slot == 0
    if isinstance(metric, SER):
        return ser_rows(corpus.distances[first] == 0)
    return wer_rows(corpus.distances[first], ref_lengths[pairs.ref[first]])
