"""A corpus's scores per segment as files other tools read: mt-metrics-eval's
``.seg.score`` and ``.sys.score`` (:mod:`metrics.mtme`), so WMT's analysis scripts
(correlations, rankings) take an evaltool campaign as they take WMT's own.

Which scores (:func:`segment_scores`): ``esa``, each candidate's ESA score averaged over
the judges who scored it (the judgments the figures count: no control item, no judge
left out), ``None`` where nobody did; ``mqm``, each candidate's MQM penalty points under
the corpus's taxonomy averaged likewise and negated, as mt-metrics-eval keeps WMT's MQM
scores (higher is better, 0 a perfect candidate); or an imported metric's by its name
(human scores imported from mt-metrics-eval come back as they were read). Unless asked
(:func:`default_scores`): the judges' of an ESA or MQM corpus, else the first human
scores imported. The command ``export_scores`` and the dashboard's ``seg.score`` and
``sys.score`` downloads write the same files (:func:`score_file`).

A ``.sys.score`` is each system's mean of its scored segments, except for human scores
imported as a ``.sys.score`` alone: their published figures, written back as read; they
have no ``.seg.score`` to write, and asking for one says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

import numpy as np

from annotation.models import Corpus, Judgment, Protocol, Span, Translator
from annotation.statistics import external_metrics, external_segment_scores
from metrics.mqm import segment_points
from metrics.mtme import figures_sys_score_text, seg_score_text, sys_score_text
from metrics.protocols import SystemFigures, esa, mqm
from metrics.ratings import Ratings, ratings
from metrics.stats import FloatArray

#: The human scores a corpus's own judgments give, by the name ``--metric`` takes.
OWN = ("esa", "mqm")
#: The scores a corpus's own judgments give, by its protocol.
DEFAULT_METRIC: dict[str, str] = {
    Protocol.ESA.value: "esa",
    Protocol.ESA_PREFILL.value: "esa",
    Protocol.MQM.value: "mqm",
}
ERR_WHICH_SCORES = (
    "the corpus {corpus!r} has no human scores of its own (esa, mqm): name the scores "
    "(an imported metric: {known})"
)
ERR_NO_SUCH_SCORES = (
    "the corpus {corpus!r} has no scores named {name!r} (esa, mqm, or an imported metric: {known})"
)


def default_scores(corpus: Corpus) -> str | None:
    """Which scores a file of ``corpus`` holds unless asked: its judges' (ESA's, MQM's),
    else the first human scores imported (mt-metrics-eval's), else None (ask)."""
    own = DEFAULT_METRIC.get(corpus.protocol)
    if own is not None:
        return own
    return next((m.name for m in external_metrics(corpus) if m.human), None)


def chosen_scores(corpus: Corpus, name: str | None) -> tuple[str, dict[str, FloatArray]]:
    """The scores ``name`` (None: :func:`default_scores`) with the name they have, or a
    ``LookupError`` naming what there is."""
    name = _chosen_name(corpus, name)
    return name, segment_scores(corpus, name)


def _chosen_name(corpus: Corpus, name: str | None) -> str:
    """``name``, or else :func:`default_scores`, or a ``LookupError`` naming what there is."""
    name = name or default_scores(corpus)
    if name is None:
        known = ", ".join(m.name for m in external_metrics(corpus)) or "none"
        raise LookupError(ERR_WHICH_SCORES.format(corpus=corpus.name, known=known))
    return name


def chosen_file(corpus: Corpus, name: str | None, level: str) -> tuple[str, str]:
    """The scores ``name`` (None: :func:`default_scores`) with the name they have, and
    their :func:`score_file` at ``level``; a ``LookupError`` naming what there is."""
    name = _chosen_name(corpus, name)
    return name, score_file(corpus, name, level)


def score_file(corpus: Corpus, name: str, level: str) -> str:
    """The scores ``name`` as mt-metrics-eval's ``.seg.score`` (``level`` ``seg``) or
    ``.sys.score`` (``sys``): module doc; a ``LookupError`` naming what there is, or
    saying that system-level scores alone have no ``.seg.score``."""
    if level == "sys":
        published = _published(corpus, name)
        if published is not None:
            return figures_sys_score_text(published)
        return sys_score_text(segment_scores(corpus, name))
    return seg_score_text(segment_scores(corpus, name))


def has_seg_score(corpus: Corpus, name: str) -> bool:
    """Whether the scores ``name`` have a ``.seg.score`` (not system-level scores imported
    alone)."""
    return _published(corpus, name) is None


def _published(corpus: Corpus, name: str) -> dict[str, float] | None:
    """The published figures of the imported scores ``name``, if they are system-level
    scores imported alone."""
    if name in OWN:
        return None
    return next((m.published for m in external_metrics(corpus) if m.name == name), None)


def segment_scores(corpus: Corpus, name: str) -> dict[str, FloatArray]:
    """Per system of ``corpus`` (its order), one score per sentence (NaN: none), of the
    scores ``name`` (module doc); a ``LookupError`` naming what there is otherwise (or
    that the scores are system-level only)."""
    if name == "esa":
        return esa_segment_scores(corpus)
    if name == "mqm":
        return mqm_segment_scores(corpus)
    metrics = external_metrics(corpus)
    if any(m.name == name for m in metrics):
        return external_segment_scores(corpus, name)
    known = ", ".join(m.name for m in metrics) or "none"
    raise LookupError(ERR_NO_SUCH_SCORES.format(corpus=corpus.name, name=name, known=known))


def _systems(corpus: Corpus) -> list[str]:
    return list(
        corpus.translators.filter(role=Translator.Role.SYSTEM)
        .order_by("position")
        .values_list("name", flat=True)
    )


def _per_candidate(
    corpus: Corpus,
    rows: Sequence[tuple[str, int, str, float | None]],
    figure: Callable[[Ratings], SystemFigures],
) -> dict[str, FloatArray]:
    """Each candidate's mean of ``rows`` (system, position, judge, value) as ``figure``
    averages them, every system of the corpus, NaN where none."""
    systems = _systems(corpus)
    blank = np.full(corpus.n_sentences, np.nan)
    if not rows:
        return {s: blank.copy() for s in systems}
    names, segments, judges, values = zip(*rows, strict=True)
    r = ratings(names, segments, judges, values, corpus.n_sentences, order=systems)
    found = figure(r)
    means = dict(zip(found.systems, found.per_segment, strict=True))
    return {s: means.get(s, blank.copy()) for s in systems}


def mqm_segment_scores(corpus: Corpus) -> dict[str, FloatArray]:
    """Each candidate's mean MQM penalty points over its judges, negated (module doc):
    the points of a judgment's spans (the judge's) under the corpus's taxonomy."""
    taxonomy = corpus.taxonomy
    errors: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for judgment, severity, category in Span.objects.filter(
        judgment__target__translator__corpus_id=corpus.pk, origin=Span.Origin.JUDGE
    ).values_list("judgment_id", "severity", "category"):
        errors[judgment].append((severity, category))
    judged = Judgment.objects.in_figures(corpus.pk).values_list(
        "pk", "target__translator__name", "target__sentence__position", "evaluator__username"
    )
    rows = [
        (system, position, judge, segment_points(errors.get(pk, ()), taxonomy))
        for pk, system, position, judge in judged
    ]
    return {s: -v for s, v in _per_candidate(corpus, rows, mqm).items()}


def esa_segment_scores(corpus: Corpus) -> dict[str, FloatArray]:
    """Each candidate's mean ESA score over its judges (:func:`metrics.protocols.esa`'s
    ``per_segment``), every system of the corpus, NaN where none scored it."""
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
    return _per_candidate(corpus, rows, esa)
