"""The figures in the judge's header, live: this system over the judge's work so far,
as the page shows them.

What a judgment's page reads for them is built here too: the statistics rows known
without reading a text (:func:`known_statistics`), those computed from the page's target
rows (:func:`page_statistics`), and the figures over them (:func:`judge_figures`).

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
from typing import Any

from annotation.formatting import MISSING, number
from annotation.judging.pool import NO_REFERENCES, References
from annotation.models import Judgment
from annotation.statistics import (
    CorpusKey,
    Judged,
    SegmentStats,
    TargetTexts,
    known_stats,
    live_scores,
    segment_stats,
    stored_stats,
    texts_key,
)
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


@dataclass(frozen=True)
class KnownStatistics:
    """What the live figures read before the page's targets are read: the statistics
    rows this process keeps or the import stored (by target id; a bad reference's under
    minus its judgment's pk, ``stats_id``: its text is not its target's), and the
    targets whose rows are still to compute, with their sentences."""

    key: CorpusKey
    stats_id: int
    stats: dict[int, SegmentStats]
    missing: set[int]
    sentence_of: dict[int, int]


def known_statistics(
    judgment: Judgment, mine: Sequence[Any], *, shows_figures: bool
) -> KnownStatistics:
    """The statistics of the page's candidate and of the judge's others of this system
    (``mine``) that need no text read: kept by this process, else stored by the import
    (one query); none where the corpus hides the live figures from judges."""
    target = judgment.target
    key = texts_key(target.sentence.corpus)
    degraded = judgment.control == Judgment.Control.DEGRADED
    stats_id = -judgment.pk if degraded else target.pk
    stats: dict[int, SegmentStats] = {}
    missing: set[int] = set()
    if shows_figures:
        stats, missing = known_stats(key, [stats_id, *(r.target_id for r in mine)])
    if missing:
        found = _stored(judgment, mine, missing)
        stats |= found
        missing -= found.keys()
    sentence_of = {r.target_id: r.target__sentence_id for r in mine}
    sentence_of[stats_id] = target.sentence_id
    return KnownStatistics(key, stats_id, stats, missing, sentence_of)


def page_statistics(
    known: KnownStatistics,
    refs_of: dict[int, References],
    references: References,
    text_of: dict[int, str],
) -> dict[int, SegmentStats]:
    """Every statistics row the live figures read: the known ones, and the missing ones
    computed from the page's target rows (and kept: :func:`~annotation.statistics.live.
    segment_stats`); the page's candidate against its pool's ``references``."""
    if not known.missing:
        return known.stats
    refs = {t: refs_of.get(known.sentence_of[t], NO_REFERENCES) for t in known.missing}
    if known.stats_id in refs:
        refs[known.stats_id] = references
    segments = {t: TargetTexts(text_of[t], refs[t].texts) for t in known.missing}
    return known.stats | segment_stats(known.key, segments)


def judge_figures(
    judgment: Judgment,
    known: KnownStatistics,
    mine: Sequence[Any],
    stats: dict[int, SegmentStats],
) -> LiveFigures:
    """The system's live figures over the judge's done judgments of it, this one last."""
    judged = [Judged(r.target_id, r.edits, r.ref_length, r.sser) for r in mine]
    judged.append(Judged(known.stats_id, judgment.edits, judgment.ref_length, judgment.sser))
    return live_figures(known.key, judged, stats)


def _stored(judgment: Judgment, mine: Sequence[Any], missing: set[int]) -> dict[int, Any]:
    """The statistics of the ``missing`` targets (the page's and the judge's others of
    this system) that the import stored: read, not computed. Not a reference shown as a
    candidate's, which is compared with the other references (nothing stored that)."""
    target = judgment.target
    system = (judgment.shown_as or target.translator).name
    wanted = {
        r.target_id: (system, r.target__sentence__position) for r in mine if r.target_id in missing
    }
    if not judgment.control or judgment.control == Judgment.Control.REPEAT:
        wanted[target.pk] = (system, target.sentence.position)
    return stored_stats(target.sentence.corpus, wanted)
