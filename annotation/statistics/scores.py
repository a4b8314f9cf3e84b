"""Every figure of a corpus per system, automatic and human, as ``manage.py scores``
prints it, and the JSON it and the dashboard's ``table.json`` write."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from annotation.models import Corpus
from annotation.statistics.compute import automatic_scores
from annotation.statistics.human import human_scores
from annotation.statistics.texts import corpus_texts
from metrics.stats import Score
from metrics.tokenize import Preprocessor


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
    corpus: Corpus, *, preprocessor: Preprocessor | None = None, ref_length: str = "nearest"
) -> dict[str, dict[str, Score]]:
    """Every automatic metric and, where judgments exist, every human one, per system."""
    scores = automatic_scores(
        corpus_texts(corpus), preprocessor=preprocessor, ref_length=ref_length
    )
    for system, figures in human_scores(corpus).items():
        scores.setdefault(system, {}).update(figures)
    return scores
