"""Segment scores computed elsewhere, as a test imports them: files in both layouts
(:mod:`metrics.segment_scores`) and an import through the service the page and the
command call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from annotation.models import Corpus, ExternalMetric
from annotation.statistics import external_metric_import


def tsv(scores: Mapping[str, Sequence[float]]) -> bytes:
    """``system<TAB>segment<TAB>score`` lines, segments from 1, system by system."""
    return "".join(
        f"{system}\t{k}\t{float(value)!r}\n"
        for system, values in scores.items()
        for k, value in enumerate(values, start=1)
    ).encode()


def wmt(scores: Mapping[str, Sequence[float]]) -> bytes:
    """mt-metrics-eval's ``.seg.score``: ``SYSTEM<TAB>SCORE``, one block per system."""
    return "".join(
        f"{system}\t{float(value)!r}\n" for system, values in scores.items() for value in values
    ).encode()


def import_scores(
    corpus: Corpus,
    name: str,
    scores: Mapping[str, Sequence[float]],
    *,
    higher_is_better: bool = True,
    description: str = "",
    replace: bool = False,
) -> ExternalMetric:
    """Import ``scores`` (per system, one per sentence) as the corpus's metric ``name``."""
    return external_metric_import(
        corpus=corpus,
        data=tsv(scores),
        layout="tsv",
        name=name,
        higher_is_better=higher_is_better,
        filename=f"{name}.tsv",
        description=description,
        replace=replace,
    )
