"""The figures in the judge's header, live: this system over the judge's work so far,
as the page shows them.

The figures themselves (aWER, aSER and SSER over the judge's done judgments of this
system plus the current one; WER, mWER and BLEU over the same sentences) and the
statistics rows they are summed from are computed and kept by
:mod:`annotation.statistics.live`. Labels and units are the metrics' own
(:data:`metrics.registry.METRIC_INFO`); "no value" prints as
:func:`annotation.formatting.number` prints it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from annotation.formatting import MISSING, number
from annotation.statistics import CorpusKey, Judged, SegmentStats, live_scores
from metrics.registry import METRIC_INFO

#: The header's figures, in the order it shows them.
SHOWN = ("awer", "aser", "sser", "wer", "mwer", "bleu")
#: What each figure counts here (the header's tooltips).
TITLES = {
    "awer": "aWER: edits / new-reference words, over your judgments of this system",
    "aser": "aSER: share of your judged sentences that still need an edit",
    "sser": "SSER error: the share of points lost, mean of (10 − score)/10 over your "
    "scores of this system (your score of this candidate is shown apart)",
    "wer": "WER against the first reference, same sentences",
    "mwer": "mWER against all references, same sentences",
    "bleu": "BLEU against all references, same sentences",
}


@dataclass(frozen=True)
class LiveFigures:
    """This system's figures over the judge's done judgments plus the current one.

    Human figures (aWER, aSER, SSER in percent; None where nothing is counted yet); WER,
    mWER and BLEU (percent) over the same sentences that have references.
    """

    awer: float | None
    aser: float | None
    sser: float | None
    wer: float | None
    mwer: float | None
    bleu: float | None
    #: The current judgment's edits.
    edits: int | None
    sentences: int

    def shown(self) -> list[dict[str, str]]:
        """The six figures as the page prints them: one decimal and the metric's unit, or
        "–" and no unit when undefined."""
        out = []
        for key in SHOWN:
            info = METRIC_INFO[key]
            value = number(getattr(self, key), 1)
            out.append(
                {
                    "key": key,
                    "label": info.label,
                    "value": value,
                    "unit": "" if value == MISSING else info.unit,
                    "title": TITLES[key],
                }
            )
        return out


def candidate_awer(edits: int | None, ref_length: int | None) -> str:
    """One candidate's aWER as the page prints it, with its unit (its edits over its new
    reference's words, seed 001 §2.3), "–" before it has a new reference with words."""
    if edits is None or not ref_length:
        return MISSING
    return f"{number(100 * edits / ref_length, 1)} {METRIC_INFO['awer'].unit}"


def live_figures(
    corpus: CorpusKey, judged: Sequence[Judged], stats: Mapping[int, SegmentStats]
) -> LiveFigures:
    """The figures over ``judged``: the judge's done judgments of this system, the
    current judgment last; ``stats`` holds each target's rows
    (:func:`~annotation.statistics.live.segment_stats`)."""
    return LiveFigures(
        **live_scores(corpus, judged, stats), edits=judged[-1].edits, sentences=len(judged)
    )
