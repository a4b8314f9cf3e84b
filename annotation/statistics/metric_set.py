"""Which metrics the app computes, and how it builds them: one place for the set the
dashboard, ``manage.py scores``, the stored statistics and the drill-down share.

The metrics themselves are :mod:`metrics`' (``python -m metrics`` builds the same objects
through :func:`metrics.registry.build_metric`), and so are the facts every list here
derives from (:data:`metrics.facts.METRIC_FACTS`: which metrics the app computes, which
follow the dashboard's preprocessing choice, which are corpus-wide, their work groups).
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics.facts import APP_AUTOMATIC, APP_HUMAN, METRIC_FACTS, work_groups
from metrics.registry import build_metric
from metrics.stats import Metric
from metrics.tokenize import Preprocessor

#: The automatic metrics the app computes, in the dashboard's column order.
AUTOMATIC_METRICS = APP_AUTOMATIC
#: Metrics the app computes with their own fixed preprocessing (the default choice's,
#: shown in their signatures) whatever the dashboard's choice: each takes seconds per
#: corpus, so the import computes them once and every choice reuses them (equal
#: signatures, :func:`reusable`), rather than a new choice costing ten seconds more.
#: TER normalises as sacreBLEU's TER does in any case; METEOR lowercases every word as
#: NLTK does, so only its tokenizer is fixed (13a).
FIXED_PREPROCESSING = frozenset(f.name for f in METRIC_FACTS if f.app and f.fixed_preprocessing)

#: Metrics whose row of a sentence depends on other sentences' references: NIST's
#: information weights count every reference n-gram of the corpus, the weighted n-grams'
#: document weights every word of a document's first references. Whoever scores some
#: sentences again (the grown pool, a moved word) scores these whole.
CORPUS_WIDE = frozenset(f.name for f in METRIC_FACTS if f.app and f.corpus_wide)


def app_metric(
    name: str,
    preprocessor: Preprocessor | None = None,
    ref_length: str = "nearest",
    documents: Sequence[str] | None = None,
) -> Metric:
    """The metric ``name`` as the app computes it under a preprocessing choice (the one
    place the app builds its metrics): those of :data:`FIXED_PREPROCESSING` with the
    default choice, the weighted n-grams with the sentences' documents."""
    pp = Preprocessor() if name in FIXED_PREPROCESSING else preprocessor or Preprocessor()
    return build_metric(name, preprocessor=pp, ref_length=ref_length, documents=documents)


HUMAN_METRICS = APP_HUMAN

#: The figures of the corpora judged by error spans (:mod:`metrics.protocols`): ESA's
#: mean score, raw and z-normalised per annotator. MQM's is ``mqm``, which an aWER
#: corpus has too (its MQM-style figure, every aWER operation an error).
ESA_FIGURES: tuple[str, ...] = ("esa", "esa_z")
#: The human figures a corpus's judgments feed, by its protocol (``Corpus.protocol``):
#: an aWER corpus's are today's; an ESA corpus's its scores'; an MQM corpus's its spans'
#: points (:mod:`annotation.statistics.human`).
PROTOCOL_FIGURES: dict[str, tuple[str, ...]] = {
    "awer": tuple(m for m in HUMAN_METRICS if m not in ESA_FIGURES),
    "esa": ESA_FIGURES,
    "esa_prefill": ESA_FIGURES,
    "mqm": ("mqm",),
}


def protocol_figures(protocol: str) -> tuple[str, ...]:
    """The human figures a corpus of ``protocol`` shows (:data:`PROTOCOL_FIGURES`), in
    the table's order; a ``ValueError`` names an unknown protocol."""
    try:
        return PROTOCOL_FIGURES[protocol]
    except KeyError:
        raise ValueError(f"unknown protocol {protocol!r}") from None


#: The metrics that share their work when scored together (one alignment for the WER
#: family, one n-gram count for BLEU and NIST, one character pass for chrF and chrF++, one
#: count for the weighted n-grams' P, R and F), each group with its rough share of a
#: whole scoring's time on a real corpus (``bench/pages.py``), heaviest first. Each
#: metric's group and cost is in :data:`metrics.facts.METRIC_FACTS`.
WORK_GROUPS: tuple[tuple[tuple[str, ...], int], ...] = work_groups()


def heaviest_first(metrics: Sequence[str]) -> list[tuple[str, ...]]:
    """``metrics`` in their :data:`WORK_GROUPS` (a metric of none a group of its own, the
    lightest), the heaviest group first, no empty group: what a scoring hands its
    processes one at a time, so the longest work starts first and the metrics that share
    work are scored together."""
    grouped = {m for group, _ in WORK_GROUPS for m in group}
    groups = [(tuple(m for m in metrics if m in group), cost) for group, cost in WORK_GROUPS]
    groups += [((m,), 1) for m in metrics if m not in grouped]
    return [names for names, _ in sorted(groups, key=lambda g: -g[1]) if names]
