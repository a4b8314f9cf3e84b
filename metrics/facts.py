"""Every metric's facts in one table (:data:`METRIC_FACTS`), from which every list of
metrics and every column order derives: the command line's choices and columns, the
registry's classes and builders, the app's automatic and human metrics, which of them are
corpus-wide or keep a fixed preprocessing, and how a scoring is split into shares.

One record per metric, so adding a metric is adding a row (its class, its label, which
way it points, where the app shows it …) rather than editing lists in five modules that
must agree. The table's order is the order the dashboard shows its columns in (grouped
by family: edit distance, n-gram matches, other, human judgments); the command line keeps
its own, older order (:attr:`MetricFacts.cli_column`).

Nothing here imports a metric's module: a record names it (``home``), and
:func:`metrics.registry.metric_class` imports it when the metric is built, so start-up of
``python -m metrics`` stays light.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from metrics.stats import Metric, MetricInfo
from metrics.tokenize import Preprocessor

#: How a metric's class is built: ``build(cls, preprocessor=…, ref_length=…,
#: empty_reference=…, mweralign=…, smooth=…, mteval=…, lepor_alpha=…, lepor_beta=…,
#: weights=…, documents=…, ter_case_sensitive=…, ter_normalized=…, ter_no_punct=…,
#: ter_asian_support=…, bleu_weights=…)``, every option of :func:`metrics.registry.build_metric` by
#: keyword; each builder passes on those its class reads and ignores the rest.
Builder = Callable[..., Metric]


def _preprocessed(cls: Any, *, preprocessor: Preprocessor, **_: Any) -> Metric:
    """Classes that read the preprocessing choice alone (chrF reads its case choice only,
    METEOR its tokenizer only)."""
    metric: Metric = cls(preprocessor)
    return metric


def _error_rate(cls: Any, *, preprocessor: Preprocessor, empty_reference: str, **_: Any) -> Metric:
    """WER: the preprocessing, and the rate of an empty reference."""
    metric: Metric = cls(preprocessor, empty_reference=empty_reference)
    return metric


def _resegmented(
    cls: Any, *, preprocessor: Preprocessor, empty_reference: str, mweralign: bool, **_: Any
) -> Metric:
    """AS-WER: as WER, and whether its split charges as mwerSegmenter's does."""
    metric: Metric = cls(preprocessor, empty_reference=empty_reference, mweralign=mweralign)
    return metric


def _averaged_over_references(
    cls: Any, *, preprocessor: Preprocessor, ref_length: str, empty_reference: str, **_: Any
) -> Metric:
    """mWER, PER and 2-PER: the preprocessing, the reference length they divide by and
    the rate of an empty reference."""
    metric: Metric = cls(preprocessor, ref_length, empty_reference=empty_reference)
    return metric


def _bleu(
    cls: Any,
    *,
    preprocessor: Preprocessor,
    smooth: str,
    bleu_weights: Sequence[float] | None,
    **_: Any,
) -> Metric:
    pp = preprocessor
    metric: Metric = cls(
        tokenize=pp.tokenize,
        lowercase=pp.lowercase,
        sentence_boundaries=pp.sentence_boundaries,
        smooth_method=smooth,
        weights=bleu_weights,
    )
    return metric


def _nist(cls: Any, *, preprocessor: Preprocessor, mteval: bool, **_: Any) -> Metric:
    pp = preprocessor
    metric: Metric = cls(
        tokenize=pp.tokenize,
        lowercase=pp.lowercase,
        sentence_boundaries=pp.sentence_boundaries,
        mteval=mteval,
    )
    return metric


def _own_normalisation(
    cls: Any,
    *,
    ter_case_sensitive: bool,
    ter_normalized: bool,
    ter_no_punct: bool,
    ter_asian_support: bool,
    **_: Any,
) -> Metric:
    """TER normalises as sacreBLEU's TER does, whatever the preprocessing choice, with
    sacreBLEU's TER options."""
    metric: Metric = cls(
        ter_case_sensitive,
        normalized=ter_normalized,
        no_punct=ter_no_punct,
        asian_support=ter_asian_support,
    )
    return metric


def _lepor(
    cls: Any, *, preprocessor: Preprocessor, lepor_alpha: float, lepor_beta: float, **_: Any
) -> Metric:
    metric: Metric = cls(preprocessor, alpha=lepor_alpha, beta=lepor_beta)
    return metric


def _weighted(
    cls: Any,
    *,
    preprocessor: Preprocessor,
    weights: str,
    documents: Sequence[str] | None,
    **_: Any,
) -> Metric:
    metric: Metric = cls(preprocessor, weights=weights, documents=documents)
    return metric


class WorkGroup(NamedTuple):
    """Metrics that share their work when scored together, with the group's rough share of
    a whole scoring's time on a real corpus (``bench/pages.py``): what the app's
    :func:`~annotation.statistics.metric_set.heaviest_first` orders. Its members are the records
    naming it."""

    what: str
    cost: int


_ONE_ALIGNMENT = WorkGroup("one word alignment for the WER family", 4)
_PER = WorkGroup("PER's bag of words", 3)
_PER2 = WorkGroup("2-PER's bags of words", 3)
_TER = WorkGroup("TER's shift search", 8)
_NGRAM_COUNT = WorkGroup("one n-gram count for BLEU and NIST", 5)
_CHARACTER_PASS = WorkGroup("one character pass for chrF and chrF++", 10)
_WEIGHTED_COUNT = WorkGroup("one count for the weighted n-grams' P, R and F", 4)
_METEOR = WorkGroup("METEOR's stem and synonym alignment", 3)
_LEPOR = WorkGroup("LEPOR's alignment", 5)


@dataclass(frozen=True, eq=False)
class MetricFacts:
    """One metric's facts.

    ``info`` is what pages, tables and charts show (label, direction, unit, range,
    family). ``home`` is ``"module:attribute"``: the metric's class (automatic) or its
    :class:`~metrics.human.HumanMetric` (human), imported only when needed. ``build``
    turns :func:`~metrics.registry.build_metric`'s options into the metric (None: a
    human figure, computed from judgments, never built).

    ``app``: the app computes it (the dashboard's columns, ``manage.py scores``).
    ``corpus_wide``: a sentence's row depends on other sentences' references, so whoever
    scores some sentences again scores it whole. ``fixed_preprocessing``: the app
    computes it with the default preprocessing whatever the dashboard's choice (it takes
    seconds per corpus; equal signatures let every choice reuse it). ``work``: the group
    it shares its work with when the app splits a scoring into shares.

    ``cli_column``: its place among ``python -m metrics``' columns, the order metrics
    joined the command line (None: not on the command line). ``unsegmented_only``: it
    scores a candidate document re-segmented against the references, so exists only with
    ``--unsegmented``.
    """

    info: MetricInfo
    home: str
    build: Builder | None = None
    app: bool = True
    corpus_wide: bool = False
    fixed_preprocessing: bool = False
    work: WorkGroup | None = None
    cli_column: int | None = None
    unsegmented_only: bool = False

    def __post_init__(self) -> None:
        if (self.build is None) != self.info.human:
            raise ValueError(f"{self.name}: a builder for the automatic metrics only")
        if (self.work is not None) != (self.app and not self.info.human):
            raise ValueError(f"{self.name}: a work group for the app's automatic metrics only")
        if self.info.human and (self.cli_column is not None or self.corpus_wide):
            raise ValueError(
                f"{self.name}: a human figure is neither on the command line nor corpus-wide"
            )

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def human(self) -> bool:
        return self.info.human

    @property
    def module(self) -> str:
        return self.home.partition(":")[0]

    @property
    def attribute(self) -> str:
        return self.home.partition(":")[2]


INF = math.inf

#: Every metric, in the order the dashboard shows its columns.
METRIC_FACTS: tuple[MetricFacts, ...] = (
    # --- edit distance -----------------------------------------------------------------
    # The rates of edits per reference word (WER, mWER, PER, 2-PER, TER, AS-WER) exceed
    # 100 % when a candidate is longer than its reference (insertions); SER, a share of
    # sentences, cannot.
    MetricFacts(
        MetricInfo("wer", "WER", higher_is_better=False, highest=INF, family="edit"),
        "metrics.wer:WER",
        _error_rate,
        work=_ONE_ALIGNMENT,
        cli_column=2,
    ),
    MetricFacts(
        MetricInfo("ser", "SER", higher_is_better=False, family="edit"),
        "metrics.wer:SER",
        _preprocessed,
        work=_ONE_ALIGNMENT,
        cli_column=4,
    ),
    MetricFacts(
        MetricInfo("mwer", "mWER", higher_is_better=False, highest=INF, family="edit"),
        "metrics.wer:MWER",
        _averaged_over_references,
        work=_ONE_ALIGNMENT,
        cli_column=3,
    ),
    MetricFacts(
        MetricInfo("per", "PER", higher_is_better=False, highest=INF, family="edit"),
        "metrics.wer:PER",
        _averaged_over_references,
        work=_PER,
        cli_column=5,
    ),
    MetricFacts(
        MetricInfo("per2", "2-PER", higher_is_better=False, highest=INF, family="edit"),
        "metrics.per2:PER2",
        _averaged_over_references,
        work=_PER2,
        cli_column=6,
    ),
    MetricFacts(
        MetricInfo("ter", "TER", higher_is_better=False, highest=INF, family="edit"),
        "metrics.ter:TER",
        _own_normalisation,
        work=_TER,
        cli_column=9,
    ),
    MetricFacts(
        MetricInfo("aswer", "AS-WER", higher_is_better=False, highest=INF, family="edit"),
        "metrics.aswer:ASWER",
        _resegmented,
        app=False,
        cli_column=15,
        unsegmented_only=True,
    ),
    # jiwer's measures beside WER (issue 40), in metrics/wil.py: on the command line, not
    # in the app. CER exceeds 100 % as WER does; MER, WIL and WIP are shares, 0–100 %.
    *(
        MetricFacts(info, f"metrics.wil:{info.label}", build, app=False, cli_column=column)
        for column, (info, build) in enumerate(
            (
                (MetricInfo("cer", "CER", False, highest=INF, family="edit"), _error_rate),
                (MetricInfo("mer", "MER", False, family="edit"), _preprocessed),
                (MetricInfo("wil", "WIL", False, family="edit"), _preprocessed),
                (MetricInfo("wip", "WIP", True, family="edit"), _preprocessed),
            ),
            start=16,
        )
    ),
    # --- n-gram matches ----------------------------------------------------------------
    # NIST is a raw sum of information, without a bound. NIST's information weights count
    # every reference n-gram of the corpus, the weighted n-grams' document weights every
    # word of a document's first references: corpus-wide. The weighted n-grams take
    # seconds per corpus: fixed preprocessing.
    MetricFacts(
        MetricInfo("bleu", "BLEU", higher_is_better=True, family="ngram"),
        "metrics.bleu:BLEU",
        _bleu,
        work=_NGRAM_COUNT,
        cli_column=0,
    ),
    MetricFacts(
        MetricInfo("nist", "NIST", higher_is_better=True, unit="", highest=INF, family="ngram"),
        "metrics.nist:NIST",
        _nist,
        corpus_wide=True,
        work=_NGRAM_COUNT,
        cli_column=1,
    ),
    MetricFacts(
        MetricInfo("chrf", "chrF", higher_is_better=True, family="ngram"),
        "metrics.chrf:CHRF",
        _preprocessed,
        work=_CHARACTER_PASS,
        cli_column=7,
    ),
    MetricFacts(
        MetricInfo("chrf++", "chrF++", higher_is_better=True, family="ngram"),
        "metrics.chrf:CHRFPlusPlus",
        _preprocessed,
        work=_CHARACTER_PASS,
        cli_column=8,
    ),
    MetricFacts(
        MetricInfo("wngram-p", "Prec (w)", higher_is_better=True, family="ngram"),
        "metrics.wngram:WNGramP",
        _weighted,
        corpus_wide=True,
        fixed_preprocessing=True,
        work=_WEIGHTED_COUNT,
        cli_column=11,
    ),
    MetricFacts(
        MetricInfo("wngram-r", "Recall (w)", higher_is_better=True, family="ngram"),
        "metrics.wngram:WNGramR",
        _weighted,
        corpus_wide=True,
        fixed_preprocessing=True,
        work=_WEIGHTED_COUNT,
        cli_column=12,
    ),
    MetricFacts(
        MetricInfo("wngram-f", "F (w)", higher_is_better=True, family="ngram"),
        "metrics.wngram:WNGramF",
        _weighted,
        corpus_wide=True,
        fixed_preprocessing=True,
        work=_WEIGHTED_COUNT,
        cli_column=13,
    ),
    # --- other -------------------------------------------------------------------------
    # Both take seconds per corpus: fixed preprocessing (METEOR lowercases every word as
    # NLTK does, so only its tokenizer is fixed).
    MetricFacts(
        MetricInfo("meteor", "METEOR", higher_is_better=True, family="other"),
        "metrics.meteor:METEOR",
        _preprocessed,
        fixed_preprocessing=True,
        work=_METEOR,
        cli_column=14,
    ),
    MetricFacts(
        MetricInfo("lepor", "LEPOR", higher_is_better=True, family="other"),
        "metrics.lepor:LEPOR",
        _lepor,
        fixed_preprocessing=True,
        work=_LEPOR,
        cli_column=10,
    ),
    # --- human judgments ---------------------------------------------------------------
    # Seed 001 Table 1's order, then HTER, MQM-style, IER, ESA and ESA z (each added last,
    # so earlier tables keep their columns' places).
    # SSER's figure is an *error* (the share of points lost), labelled so wherever it is
    # shown ("SSER error 30.0 %"), never to be read as a judge's score of a candidate.
    MetricFacts(
        MetricInfo("sser", "SSER error", higher_is_better=False, human=True, family="human"),
        "metrics.human:SSER",
    ),
    # aWER exceeds 100 % when judges delete more words than the new reference keeps.
    MetricFacts(
        MetricInfo("awer", "aWER", higher_is_better=False, human=True, highest=INF, family="human"),
        "metrics.human:AWER",
    ),
    MetricFacts(
        MetricInfo("aser", "aSER", higher_is_better=False, human=True, family="human"),
        "metrics.human:ASER",
    ),
    # HTER, like aWER, exceeds 100 % when the new reference is shorter than the edits.
    MetricFacts(
        MetricInfo("hter", "HTER", higher_is_better=False, human=True, highest=INF, family="human"),
        "metrics.human:HTER",
    ),
    # Penalty points per done judgment: a mean, not a percentage, and without a bound.
    MetricFacts(
        MetricInfo(
            "mqm",
            "MQM-style",
            higher_is_better=False,
            unit="",
            human=True,
            highest=INF,
            family="human",
        ),
        "metrics.human:MQM",
    ),
    # IER: a share of items, so within 0–100 %.
    MetricFacts(
        MetricInfo("ier", "IER", higher_is_better=False, human=True, family="human"),
        "metrics.human:IER",
    ),
    # ESA (metrics.protocols): the annotators' 0–100 score, mean per candidate then per
    # system, raw and z-normalised per annotator (relative, so without bounds).
    MetricFacts(
        MetricInfo(
            "esa", "ESA", higher_is_better=True, unit="", human=True, family="human", highest=100.0
        ),
        "metrics.human:ESA",
    ),
    MetricFacts(
        MetricInfo(
            "esa_z",
            "ESA z (per annotator)",
            higher_is_better=True,
            unit="",
            human=True,
            lowest=-INF,
            highest=INF,
            family="human",
        ),
        "metrics.human:ESA_Z",
    ),
)

_BY_NAME: dict[str, MetricFacts] = {f.name: f for f in METRIC_FACTS}


def facts_of(name: str) -> MetricFacts:
    """The facts of the metric called ``name`` (a ``ValueError`` naming it if unknown)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(_BY_NAME)
        raise ValueError(f"unknown metric {name!r} (choose from {known})") from None


def _on_the_command_line(*, unsegmented: bool) -> tuple[str, ...]:
    on_it = [f for f in METRIC_FACTS if f.cli_column is not None]
    chosen = [f for f in on_it if f.unsegmented_only == unsegmented]
    return tuple(f.name for f in sorted(chosen, key=lambda f: f.cli_column or 0))


#: The automatic metrics of ``python -m metrics``, in its columns' order.
COMMAND_LINE_METRICS: tuple[str, ...] = _on_the_command_line(unsegmented=False)
#: Those of a candidate document re-segmented against the references (``--unsegmented``).
UNSEGMENTED_METRICS: tuple[str, ...] = _on_the_command_line(unsegmented=True)
#: The automatic metrics the app computes, in the dashboard's column order.
APP_AUTOMATIC: tuple[str, ...] = tuple(f.name for f in METRIC_FACTS if f.app and not f.human)
#: The judges' figures the app shows, in the dashboard's column order.
APP_HUMAN: tuple[str, ...] = tuple(f.name for f in METRIC_FACTS if f.app and f.human)


def work_groups() -> tuple[tuple[tuple[str, ...], int], ...]:
    """The app's work groups as (members, cost), the heaviest first (ties: in the order of
    their first member's column)."""
    groups: dict[WorkGroup, list[str]] = {}
    for f in METRIC_FACTS:
        if f.work is not None:
            groups.setdefault(f.work, []).append(f.name)
    ordered = sorted(groups.items(), key=lambda item: -item[0].cost)
    return tuple((tuple(names), group.cost) for group, names in ordered)
