"""Metrics by name, built with the same preprocessing choices (one place for the mapping),
and every metric's facts (:class:`~metrics.stats.MetricInfo`: label, direction, unit).

Used by ``python -m metrics`` and by the app (``annotation/scoring.py``), so the command
line and the web pages can never disagree about what "bleu" or "mwer" means, nor about
which way it points.
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics.aswer import ASWER
from metrics.bleu import BLEU, SMOOTH_DEFAULTS
from metrics.chrf import CHRF, CHRFPlusPlus
from metrics.human import HUMAN_METRICS
from metrics.lepor import LEPOR
from metrics.meteor import METEOR
from metrics.nist import NIST
from metrics.per2 import PER2
from metrics.stats import Metric, MetricInfo
from metrics.ter import TER
from metrics.tokenize import Preprocessor
from metrics.wer import MWER, PER, REF_LENGTH_METHODS, SER, WER
from metrics.wngram import WEIGHTINGS, WNGramF, WNGramP, WNGramR

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
REF_LENGTHS: tuple[str, ...] = tuple(REF_LENGTH_METHODS)
SMOOTH_METHODS: tuple[str, ...] = tuple(SMOOTH_DEFAULTS)
NGRAM_WEIGHTS: tuple[str, ...] = WEIGHTINGS

#: Every metric's facts by name: the automatic metrics' from their classes, the human
#: ones' from :mod:`metrics.human`.
METRIC_INFO: dict[str, MetricInfo] = {
    info.name: info
    for info in (
        WER.info,
        SER.info,
        MWER.info,
        PER.info,
        PER2.info,
        BLEU.info,
        NIST.info,
        CHRF.info,
        CHRFPlusPlus.info,
        TER.info,
        LEPOR.info,
        WNGramP.info,
        WNGramR.info,
        WNGramF.info,
        METEOR.info,
        ASWER.info,
        *(m.info for m in HUMAN_METRICS.values()),
    )
}


def metric_info(name: str) -> MetricInfo:
    """The facts of the metric called ``name`` (a ``ValueError`` naming it if unknown)."""
    try:
        return METRIC_INFO[name]
    except KeyError:
        known = ", ".join(METRIC_INFO)
        raise ValueError(f"unknown metric {name!r} (choose from {known})") from None


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
    if name == "wer":
        return WER(pp)
    if name == "ser":
        return SER(pp)
    if name == "mwer":
        return MWER(pp, ref_length)
    if name == "per":
        return PER(pp, ref_length)
    if name == "bleu":
        return BLEU(
            tokenize=pp.tokenize,
            lowercase=pp.lowercase,
            sentence_boundaries=pp.sentence_boundaries,
            smooth_method=smooth,
        )
    if name == "nist":
        return NIST(
            tokenize=pp.tokenize,
            lowercase=pp.lowercase,
            sentence_boundaries=pp.sentence_boundaries,
            mteval=mteval,
        )
    if name == "per2":
        return PER2(pp, ref_length)
    if name == "chrf":
        return CHRF(pp)
    if name == "chrf++":
        return CHRFPlusPlus(pp)
    if name == "ter":
        return TER()
    if name == "lepor":
        return LEPOR(pp, alpha=lepor_alpha, beta=lepor_beta)
    wngram = {"wngram-p": WNGramP, "wngram-r": WNGramR, "wngram-f": WNGramF}.get(name)
    if wngram is not None:
        return wngram(pp, weights=weights, documents=documents)
    if name == "meteor":
        return METEOR(pp)
    if name == "aswer":
        return ASWER(pp)
    raise ValueError(f"unknown metric {name!r} (choose from {', '.join(METRIC_NAMES)})")
