"""Every figure of a corpus per system, automatic, human and imported, as ``manage.py
scores`` prints it, and the JSON it and the dashboard's ``table.json`` write."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from annotation.models import Corpus
from annotation.statistics.encoding import AutomaticStats
from annotation.statistics.external import external_metrics
from annotation.statistics.human import JudgmentRow, human_figures, human_scores
from metrics.stats import Score


def scores_json(
    corpus_name: str,
    translators: Mapping[str, Mapping[str, Mapping[str, Any]]],
    **more: Any,
) -> dict[str, Any]:
    """The JSON leads script against, ``manage.py scores --json``'s and (with more keys)
    the dashboard's ``table.json``: ``{"corpus": NAME, …more, "translators": {system:
    {metric: figure}}}``, where a figure is at least :meth:`~metrics.stats.Score.as_json`'s
    ``{"score", "signature"}``. Missing figures are left out, never written as null."""
    return {
        "corpus": corpus_name,
        **more,
        "translators": {system: dict(figures) for system, figures in translators.items()},
    }


def corpus_scores(
    corpus: Corpus, automatic: AutomaticStats, rows: Sequence[JudgmentRow] | None = None
) -> dict[str, dict[str, Score]]:
    """Every automatic metric (of ``automatic``, the stored statistics of a choice), where
    judgments exist every human one (of ``rows``, the corpus's judgments if already
    read), and every imported metric (under its name), per system."""
    scores = {
        system: {m: automatic.scores[m][system] for m in automatic.scores}
        for system in automatic.systems
    }
    human = human_scores(corpus) if rows is None else human_figures(rows)
    for system, figures in human.items():
        scores.setdefault(system, {}).update(figures)
    for metric in external_metrics(corpus):
        for system, figure in metric.figures.items():
            scores.setdefault(system, {})[metric.name] = figure
    return scores
