"""Metrics by name, built with the same preprocessing choices, and every metric's facts
(:class:`~metrics.stats.MetricInfo`: label, direction, unit), all read from the one table
of :mod:`metrics.facts`.

Used by ``python -m metrics`` and by the app (``annotation/statistics/``), so the command
line and the web pages can never disagree about what "bleu" or "mwer" means, nor about
which way it points.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from metrics.facts import (
    COMMAND_LINE_METRICS,
    METRIC_FACTS,
    UNSEGMENTED_METRICS,
    facts_of,
)
from metrics.stats import Metric, MetricInfo
from metrics.tokenize import Preprocessor

#: The automatic metrics of ``python -m metrics``, in its columns' order.
METRIC_NAMES: tuple[str, ...] = COMMAND_LINE_METRICS
#: Metrics of a candidate document re-segmented against the references (``--unsegmented``).
UNSEGMENTED_METRIC_NAMES: tuple[str, ...] = UNSEGMENTED_METRICS

#: Where each automatic metric's class lives (:attr:`MetricFacts.home`). A module is
#: imported when its metric is asked for, never before: ``python -m metrics --metric
#: bleu`` starts without the alignment, TER, METEOR … modules (start-up is most of a
#: command line's time).
METRIC_CLASSES: dict[str, tuple[str, str]] = {
    f.name: (f.module, f.attribute) for f in METRIC_FACTS if not f.human
}

#: Every metric's facts by name, in the dashboard's column order.
METRIC_INFO: dict[str, MetricInfo] = {f.name: f.info for f in METRIC_FACTS}

#: The choices of the options some metrics read, from the modules that own them, read
#: (and those modules imported) when first asked for: :func:`__getattr__`.
_OWNED_CONSTANTS: dict[str, tuple[str, str]] = {
    "REF_LENGTHS": ("metrics.wer", "REF_LENGTH_METHODS"),
    "EMPTY_REFERENCE_RULES": ("metrics.wer", "EMPTY_REFERENCE_RULES"),
    "SMOOTH_METHODS": ("metrics.bleu", "SMOOTH_DEFAULTS"),
    "NGRAM_WEIGHTS": ("metrics.wngram", "WEIGHTINGS"),
}


def metric_class(name: str) -> type[Metric]:
    """The class of the automatic metric called ``name``, its module imported now."""
    try:
        module, attribute = METRIC_CLASSES[name]
    except KeyError:
        raise ValueError(
            f"unknown metric {name!r} (choose from {', '.join(METRIC_NAMES)})"
        ) from None
    cls: type[Metric] = getattr(importlib.import_module(module), attribute)
    return cls


def __getattr__(name: str) -> Any:
    """The option choices (``REF_LENGTHS``, ``EMPTY_REFERENCE_RULES``, ``SMOOTH_METHODS``,
    ``NGRAM_WEIGHTS``), read on first use from the modules that own them, which a command
    line scoring BLEU alone never imports."""
    if name in _OWNED_CONSTANTS:
        module, attribute = _OWNED_CONSTANTS[name]
        value = tuple(getattr(importlib.import_module(module), attribute))
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def metric_info(name: str) -> MetricInfo:
    """The facts of the metric called ``name`` (a ``ValueError`` naming it if unknown)."""
    return facts_of(name).info


def build_metric(
    name: str,
    *,
    preprocessor: Preprocessor | None = None,
    ref_length: str = "nearest",
    empty_reference: str = "ins",
    mweralign: bool = True,
    smooth: str = "exp",
    mteval: bool = True,
    lepor_alpha: float = 1.0,
    lepor_beta: float = 1.0,
    weights: str = "tfidf",
    documents: Sequence[str] | None = None,
    ter_case_sensitive: bool = False,
    ter_normalized: bool = False,
    ter_no_punct: bool = False,
    ter_asian_support: bool = False,
    bleu_weights: Sequence[float] | None = None,
) -> Metric:
    """The metric called ``name``; ``ref_length`` is the WER family's (BLEU keeps "closest",
    NIST "average", as their reference implementations do; chrF keeps the reference with
    the best segment F-score, as sacreBLEU does, and reads only the case choice; TER
    normalises as sacreBLEU's TER does, lowercased and split at whitespace, whatever
    ``preprocessor`` says; METEOR takes the tokenizer only and lowercases every word, as
    NLTK does). ``empty_reference`` is the WER family's rate of an empty reference
    (``ins``: the insertions over 1, as jiwer; ``100``: 0 or 100 %; :mod:`metrics.wer`);
    TER keeps sacreBLEU's ``100``. ``mweralign=False`` gives AS-WER as seed 002 defines it
    rather than as mwerSegmenter computes it (:mod:`metrics.segment`); ``mteval=False``
    NIST's information weights as defined rather than as mteval-v13a computes them
    (:mod:`metrics.nist`). ``lepor_alpha`` and
    ``lepor_beta`` weigh LEPOR's recall and precision; ``weights`` (tfidf or sscore) and
    ``documents`` (one document id per segment; one document when None) are the weighted
    n-gram metrics' (:mod:`metrics.wngram`). The ``ter_…`` options are sacreBLEU's TER
    options (``TER(case_sensitive=…, normalized=…, no_punct=…, asian_support=…)``,
    :mod:`metrics.ter_tokenize`). ``bleu_weights``: BLEU's n-gram weights, one per order
    (NLTK's ``weights``; None: the mean of orders 1–4)."""
    facts = facts_of(name)
    if facts.build is None:
        raise ValueError(f"{name!r} is a human figure, computed from judgments: nothing to build")
    return facts.build(
        metric_class(name),
        preprocessor=preprocessor or Preprocessor(),
        ref_length=ref_length,
        empty_reference=empty_reference,
        mweralign=mweralign,
        smooth=smooth,
        mteval=mteval,
        lepor_alpha=lepor_alpha,
        lepor_beta=lepor_beta,
        weights=weights,
        documents=documents,
        ter_case_sensitive=ter_case_sensitive,
        ter_normalized=ter_normalized,
        ter_no_punct=ter_no_punct,
        ter_asian_support=ter_asian_support,
        bleu_weights=bleu_weights,
    )
