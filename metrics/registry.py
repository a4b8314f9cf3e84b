"""Metrics by name, built with the same preprocessing choices (one place for the mapping),
and every metric's facts (:class:`~metrics.stats.MetricInfo`: label, direction, unit).

Used by ``python -m metrics`` and by the app (``annotation/statistics/``), so the command
line and the web pages can never disagree about what "bleu" or "mwer" means, nor about
which way it points.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from metrics.stats import Metric, MetricInfo
from metrics.tokenize import Preprocessor

if TYPE_CHECKING:
    from metrics.human import HumanMetric

METRIC_NAMES: tuple[str, ...] = (
    "bleu",
    "nist",
    "wer",
    "mwer",
    "ser",
    "per",
    "per2",
    "chrf",
    "chrf++",
    "ter",
    "lepor",
    "wngram-p",
    "wngram-r",
    "wngram-f",
    "meteor",
)
#: Metrics of a candidate document re-segmented against the references (``--unsegmented``).
UNSEGMENTED_METRIC_NAMES: tuple[str, ...] = ("aswer",)

#: Where each automatic metric's class lives. A module is imported when its metric is
#: asked for, never before: ``python -m metrics --metric bleu`` starts without the
#: alignment, TER, METEOR … modules (start-up is most of a command line's time).
METRIC_CLASSES: dict[str, tuple[str, str]] = {
    "wer": ("metrics.wer", "WER"),
    "ser": ("metrics.wer", "SER"),
    "mwer": ("metrics.wer", "MWER"),
    "per": ("metrics.wer", "PER"),
    "per2": ("metrics.per2", "PER2"),
    "bleu": ("metrics.bleu", "BLEU"),
    "nist": ("metrics.nist", "NIST"),
    "chrf": ("metrics.chrf", "CHRF"),
    "chrf++": ("metrics.chrf", "CHRFPlusPlus"),
    "ter": ("metrics.ter", "TER"),
    "lepor": ("metrics.lepor", "LEPOR"),
    "wngram-p": ("metrics.wngram", "WNGramP"),
    "wngram-r": ("metrics.wngram", "WNGramR"),
    "wngram-f": ("metrics.wngram", "WNGramF"),
    "meteor": ("metrics.meteor", "METEOR"),
    "aswer": ("metrics.aswer", "ASWER"),
}

#: The choices of the options some metrics read, from the modules that own them, read
#: (and those modules imported) when first asked for: :func:`__getattr__`.
_OWNED_CONSTANTS: dict[str, tuple[str, str]] = {
    "REF_LENGTHS": ("metrics.wer", "REF_LENGTH_METHODS"),
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


def _human_metrics() -> dict[str, HumanMetric]:
    from metrics.human import HUMAN_METRICS

    return HUMAN_METRICS


def __getattr__(name: str) -> Any:
    """``METRIC_INFO`` and the option choices (``REF_LENGTHS``, ``SMOOTH_METHODS``,
    ``NGRAM_WEIGHTS``), built on first use: each needs the modules of the metrics it
    describes, which a command line scoring BLEU alone never imports."""
    if name == "METRIC_INFO":
        info = _metric_info()
        globals()[name] = info
        return info
    if name in _OWNED_CONSTANTS:
        module, attribute = _OWNED_CONSTANTS[name]
        value = tuple(getattr(importlib.import_module(module), attribute))
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _metric_info() -> dict[str, MetricInfo]:
    """Every metric's facts by name: the automatic metrics' from their classes, the human
    ones' from :mod:`metrics.human`."""
    automatic = [metric_class(name).info for name in METRIC_CLASSES]
    return {info.name: info for info in (*automatic, *(m.info for m in _human_metrics().values()))}


def metric_info(name: str) -> MetricInfo:
    """The facts of the metric called ``name`` (a ``ValueError`` naming it if unknown)."""
    if name in METRIC_CLASSES:
        return metric_class(name).info
    human = _human_metrics()
    if name in human:
        return human[name].info
    known = ", ".join([*METRIC_CLASSES, *human])
    raise ValueError(f"unknown metric {name!r} (choose from {known})")


def build_metric(
    name: str,
    *,
    preprocessor: Preprocessor | None = None,
    ref_length: str = "nearest",
    smooth: str = "exp",
    mteval: bool = True,
    lepor_alpha: float = 1.0,
    lepor_beta: float = 1.0,
    weights: str = "tfidf",
    documents: Sequence[str] | None = None,
) -> Metric:
    """The metric called ``name``; ``ref_length`` is the WER family's (BLEU keeps "closest",
    NIST "average", as their reference implementations do; chrF keeps the reference with
    the best segment F-score, as sacreBLEU does, and reads only the case choice; TER
    normalises as sacreBLEU's TER does, lowercased and split at whitespace, whatever
    ``preprocessor`` says; METEOR takes the tokenizer only and lowercases every word, as
    NLTK does); ``mteval=False`` gives NIST's information weights as defined rather than
    as mteval-v13a computes them (:mod:`metrics.nist`). ``lepor_alpha`` and
    ``lepor_beta`` weigh LEPOR's recall and precision; ``weights`` (tfidf or sscore) and
    ``documents`` (one document id per segment; one document when None) are the weighted
    n-gram metrics' (:mod:`metrics.wngram`)."""
    pp = preprocessor or Preprocessor()
    cls: Any = metric_class(name)
    if name in ("wer", "ser", "chrf", "chrf++", "meteor", "aswer"):
        return cls(pp)  # type: ignore[no-any-return]
    if name in ("mwer", "per", "per2"):
        return cls(pp, ref_length)  # type: ignore[no-any-return]
    if name == "bleu":
        return cls(  # type: ignore[no-any-return]
            tokenize=pp.tokenize,
            lowercase=pp.lowercase,
            sentence_boundaries=pp.sentence_boundaries,
            smooth_method=smooth,
        )
    if name == "nist":
        return cls(  # type: ignore[no-any-return]
            tokenize=pp.tokenize,
            lowercase=pp.lowercase,
            sentence_boundaries=pp.sentence_boundaries,
            mteval=mteval,
        )
    if name == "ter":
        return cls()  # type: ignore[no-any-return]
    if name == "lepor":
        return cls(pp, alpha=lepor_alpha, beta=lepor_beta)  # type: ignore[no-any-return]
    # the weighted n-grams
    return cls(pp, weights=weights, documents=documents)  # type: ignore[no-any-return]
