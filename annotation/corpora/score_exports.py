"""A corpus's scores per segment as files other tools read: mt-metrics-eval's
``.seg.score`` and ``.sys.score`` (:mod:`metrics.mtme`), so WMT's analysis scripts
(correlations, rankings) take an evaltool campaign as they take WMT's own.

Which scores (:func:`segment_scores`): ``esa``, each candidate's ESA score averaged over
the judges who scored it (the judgments the figures count: no control item, no judge
left out), ``None`` where nobody did; or an imported metric's by its name (human scores
imported from mt-metrics-eval come back as they were read).
"""

from __future__ import annotations

import numpy as np

from annotation.models import Corpus, Judgment, Translator
from annotation.statistics import external_metrics
from metrics.annotators import ratings
from metrics.protocols import esa
from metrics.stats import FloatArray

#: The human scores a corpus's own judgments give, by the name ``--metric`` takes.
OWN = ("esa",)
ERR_NO_SUCH_SCORES = (
    "the corpus {corpus!r} has no scores named {name!r} (esa, or an imported metric: {known})"
)


def segment_scores(corpus: Corpus, name: str) -> dict[str, FloatArray]:
    """Per system of ``corpus`` (its order), one score per sentence (NaN: none), of the
    scores ``name`` (module doc); a ``LookupError`` naming what there is otherwise."""
    if name == "esa":
        return esa_segment_scores(corpus)
    metrics = external_metrics(corpus)
    for metric in metrics:
        if metric.name == name:
            return {s: v.copy() for s, v in metric.scores.items()}
    known = ", ".join(m.name for m in metrics) or "none"
    raise LookupError(ERR_NO_SUCH_SCORES.format(corpus=corpus.name, name=name, known=known))


def esa_segment_scores(corpus: Corpus) -> dict[str, FloatArray]:
    """Each candidate's mean ESA score over its judges (:func:`metrics.protocols.esa`'s
    ``per_segment``), every system of the corpus, NaN where none scored it."""
    systems = list(
        corpus.translators.filter(role=Translator.Role.SYSTEM)
        .order_by("position")
        .values_list("name", flat=True)
    )
    rows = list(
        Judgment.objects.in_figures(corpus.pk)
        .filter(esa_score__isnull=False)
        .values_list(
            "target__translator__name",
            "target__sentence__position",
            "evaluator__username",
            "esa_score",
        )
    )
    if not rows:
        return {s: np.full(corpus.n_sentences, np.nan) for s in systems}
    names, segments, judges, values = zip(*rows, strict=True)
    figures = esa(ratings(names, segments, judges, values, corpus.n_sentences, order=systems))
    found = dict(zip(figures.systems, figures.per_segment, strict=True))
    return {s: found.get(s, np.full(corpus.n_sentences, np.nan)) for s in systems}
