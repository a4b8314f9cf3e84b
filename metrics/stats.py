"""Sufficient statistics, scores and signatures shared by every metric.

A metric is an object with four steps (see :class:`Metric`):

1. ``prepare_references(refs)`` tokenizes the references and precomputes whatever
   does not depend on the hypothesis (n-gram counts, lengths, bit masks) once, so that
   scoring 20 systems against the same references costs far less than 20× one;
2. ``segment_stats(hyps, prepared)`` → ``np.ndarray`` of shape (segments, k);
3. ``score_from_stats(stats)`` maps summed statistics (shape (..., k)) to scores
   (shape (...)), vectorised so that bootstrap samples (B, k) are scored in one call;
4. ``corpus_score(hyps, refs)`` / ``sentence_scores(hyps, refs)`` put them together.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from metrics import __version__

FloatArray = npt.NDArray[np.float64]
References = Sequence[Sequence[str]]


#: The metric families with their headings, in the order the dashboard shows them:
#: the automatic ones first, then the judges' (seed 001 Table 1's order), so the CSV's
#: first columns stay WER's; last the scores a lead imported, computed elsewhere (COMET,
#: MetricX, …: :mod:`metrics.segment_scores`), which come and go with each corpus, so
#: every column before them keeps its place.
FAMILIES: dict[str, str] = {
    "edit": "Edit distance",
    "ngram": "N-gram matches",
    "other": "Other",
    "human": "Human judgments",
    "external": "Imported scores",
}


def family_rank(family: str) -> int:
    """Where ``family`` stands in :data:`FAMILIES` (a sort key)."""
    return list(FAMILIES).index(family)


@dataclass(frozen=True)
class MetricInfo:
    """What every page, table and chart needs to know about a metric, kept on the metric
    (as sacreBLEU keeps its defaults on the class) and read there from the metric's row of
    :data:`metrics.facts.METRIC_FACTS`, so no caller holds a table of its own about it.

    ``unit`` is "%" for BLEU and the error rates (their scores are percentages), "" for raw
    scores such as NIST; ``higher_is_better`` says which way "better" points (rank groups,
    "best" marks, sort order); ``human`` marks the figures that come from judgments: the
    ``human`` family's, and of the ``external`` family (scores made elsewhere) the human
    scores a lead imported (mt-metrics-eval's ``.seg.score`` of WMT's MQM, say).

    ``lowest`` and ``highest`` are the range every score of the metric lies in
    (``math.inf``: no upper bound). A rate of things that either happen or not per
    sentence (SER, aSER, SSER's share of lost points) or BLEU cannot leave 0–100; a rate
    of edits per reference word (WER, mWER, PER, aWER) exceeds 100 % when a candidate
    is longer than its reference (insertions), and NIST is a raw sum of information. A
    confidence interval is never drawn or printed outside this range.

    ``family`` is the kind of comparison the metric makes (:data:`FAMILIES`): the judges'
    figures, counts of word edits, n-gram matches, or another kind (word alignments with
    stems and synonyms, say). The dashboard groups its columns by it, so metrics that
    measure alike stand together.

    ``system_level`` marks a metric with figures per system only, as published
    elsewhere (human scores imported as mt-metrics-eval's ``.sys.score`` alone): no
    segment scores, so no interval, no rank group and no sentence-level correlation.
    """

    name: str
    label: str
    higher_is_better: bool
    unit: str = "%"
    human: bool = False
    lowest: float = 0.0
    highest: float = 100.0
    family: str = "other"
    system_level: bool = False

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(
                f"{self.name}: family={self.family!r} (choose from {', '.join(FAMILIES)})"
            )
        if self.human != (self.family == "human") and self.family != "external":
            raise ValueError(f"{self.name}: human={self.human} but family={self.family!r}")
        if not self.lowest < self.highest:
            raise ValueError(
                f"{self.name}: lowest={self.lowest!r} must be below highest={self.highest!r}"
            )

    @property
    def bounds(self) -> tuple[float, float]:
        """(lowest, highest): what an interval of this metric is clipped to."""
        return (self.lowest, self.highest)

    @property
    def bounded_above(self) -> bool:
        return math.isfinite(self.highest)


@dataclass(frozen=True)
class Score:
    """A metric's value with the signature that lets anyone reproduce it.

    ``score`` is in the metric's display unit: percent (0–100) for BLEU and the error
    rates, raw for NIST.
    """

    name: str
    score: float
    signature: str
    stats: FloatArray | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.name} = {self.score:.2f} ({self.signature})"

    def as_json(self) -> dict[str, Any]:
        """``{"score", "signature"}``: a figure in every JSON this project writes
        (``python -m metrics --json``, ``manage.py scores --json``, the dashboard's table)."""
        return {"score": self.score, "signature": self.signature}


def format_signature(parts: dict[str, object], *, version: bool = True) -> str:
    """sacreBLEU-style ``key:value|key:value|…|version:…`` (version always last).

    ``version=False`` leaves the version out: for a partial signature that is shown
    beside full ones (the dashboard's preprocessing choices), never for a score.
    """
    items = [f"{key}:{value}" for key, value in parts.items() if key != "version"]
    if version:
        items.append(f"version:{__version__}")
    return "|".join(items)


def nrefs_label(refs: References) -> str:
    """The number of references per segment, or ``var`` when it varies (sacreBLEU's rule)."""
    counts = {len(r) for r in refs}
    if len(counts) == 1:
        return str(counts.pop())
    return "var" if counts else "0"


def check_prepared_for(prepared: object, kind: type, config: object, hyps: Sequence[str]) -> None:
    """``prepared`` is what this metric's ``prepare_references`` made (a ``kind`` with this
    ``config``, one segment per hypothesis): references prepared by another metric or
    configuration would give figures of something else, silently."""
    if not isinstance(prepared, kind) or getattr(prepared, "config", None) != config:
        raise ValueError(
            f"references were prepared for {getattr(prepared, 'config', prepared)!r}, "
            f"not for {config!r}: call this metric's prepare_references"
        )
    if len(hyps) != len(prepared):  # type: ignore[arg-type]
        raise ValueError(
            f"{len(hyps)} hypotheses but {len(prepared)} reference segments: "  # type: ignore[arg-type]
            "they must be parallel"
        )


def check_parallel(hyps: Sequence[str], refs: References) -> None:
    """Every hypothesis needs a segment of references, and every segment at least one."""
    if len(hyps) != len(refs):
        raise ValueError(
            f"{len(hyps)} hypotheses but {len(refs)} reference segments: they must be parallel"
        )
    for k, seg in enumerate(refs):
        if len(seg) == 0:
            raise ValueError(f"segment {k + 1} has no reference")


class Metric(ABC):
    """The common shape of every metric; see the module docstring."""

    info: ClassVar[MetricInfo]

    @property
    def name(self) -> str:
        return self.info.name

    @abstractmethod
    def prepare_references(self, refs: References) -> Any:
        """Tokenize and precompute the references once (reused for every system)."""

    @abstractmethod
    def segment_stats(self, hyps: Sequence[str], prepared: Any) -> FloatArray:
        """One row of sufficient statistics per segment."""

    @abstractmethod
    def score_from_stats(self, stats: FloatArray) -> Any:
        """Scores from summed statistics: shape (..., k) → shape (...)."""

    @abstractmethod
    def signature(self, refs: References) -> str:
        """Every choice that affects the score, sacreBLEU style."""

    def sentence_score_from_stats(self, stats: FloatArray) -> Any:
        """Sentence-level scores from per-segment rows (BLEU overrides: effective order)."""
        return self.score_from_stats(stats)

    def corpus_score(self, hyps: Sequence[str], refs: References, prepared: Any = None) -> Score:
        check_parallel(hyps, refs)
        if prepared is None:
            prepared = self.prepare_references(refs)
        stats = self.segment_stats(hyps, prepared)
        total = stats.sum(axis=0)
        return Score(self.name, float(self.score_from_stats(total)), self.signature(refs), stats)

    def sentence_scores(
        self, hyps: Sequence[str], refs: References, prepared: Any = None
    ) -> FloatArray:
        check_parallel(hyps, refs)
        if prepared is None:
            prepared = self.prepare_references(refs)
        return np.asarray(
            self.sentence_score_from_stats(self.segment_stats(hyps, prepared)), dtype=np.float64
        )
