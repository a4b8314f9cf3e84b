"""SSER's figures when items have different judges (issue 37, point 4), from the
judgments the other human figures read (:class:`~annotation.statistics.human.
JudgmentRow`): raw and per-judge z side by side with intervals and rank groups that
re-estimate each judge's normalisation on every resample, and each judge's effect.
The statistics are :mod:`metrics.annotators`' (its docstring says what they claim).

**Which figures.** SSER is a per-item score (a judge's 0–10 score of one candidate), so
it is z-normalised per judge as WMT normalises direct assessment. aWER and aSER are not:
aWER is a ratio of sums (a judgment's edits over its new reference's words, summed over
the corpus, so a long sentence weighs more), and a judge's "strictness" there is which
words they accept, counted against the growing pool of references that every judge
shares: a z of per-sentence rates would replace the ratio of sums by a mean of rates
(another figure, in which a one-word sentence weighs as much as a forty-word one) and
divide by a spread that mostly measures sentence length. aSER is a share of yes/no
answers, whose standard deviation is fixed by its mean. Both keep their raw figures and
the sentence bootstrap, which already carries the spread between judges where items
have different judges (each drawn item brings its judge). Each judge's own aWER and SSER
stand in the dashboard's judges panel, so a judge who accepts less shows there.

**Scales.** The system figures are SSER *errors* (percent, lower is better), as the
table's column and WMT's clusters show them; the judges' effects are in points of the
judges' 0–10 score (higher: more lenient), the scale a judge gave them on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import compress
from operator import itemgetter
from typing import Any

import numpy as np

from annotation.statistics.human import JudgmentRow
from metrics import human
from metrics.annotator_effects import KeptSums
from metrics.annotators import (
    SSER_Z,
    AnnotatorEffect,
    Offset,
    Ratings,
    annotator_effects,
    judge_aware,
    ratings,
    system_means,
    z_scores,
)
from metrics.facts import facts_of
from metrics.judge_aware import KeptNormalisation
from metrics.ranking import MetricSignificance
from metrics.significance import Bootstrap
from metrics.stats import MetricInfo, format_signature

#: SSER's raw figure in this view: the table's SSER error, each item's judgments averaged
#: first (equal to the table's figure wherever every item has as many judgments).
SSER_RAW: MetricInfo = facts_of("sser").info

#: The range of a difference of two judges' scores: what an effect's interval is cut to.
OFFSET_BOUNDS = (float(human.SSER_MIN - human.SSER_MAX), float(human.SSER_MAX - human.SSER_MIN))


def sser_ratings(
    rows: Sequence[JudgmentRow], systems: Sequence[str], n_segments: int, *, scores: bool = False
) -> Ratings:
    """The scored judgments as :class:`~metrics.annotators.Ratings`: SSER errors in
    percent (``scores``: the judges' 0–10 scores), systems in corpus order.

    The rows' columns are read one at a time (:func:`operator.itemgetter`) and the
    errors computed on the array of scores (None: NaN), as :attr:`~annotation.statistics.
    human.JudgmentRow.sser_error` computes each: (10 − score) · 100 and a score are whole
    numbers, so the one division gives the same bits. A view after a click reads every
    row: this is a third of the time a loop over the rows took."""
    system, segment, judge, score = (list(map(column, rows)) for column in _SSER_COLUMNS)
    sser = np.array(score, dtype=np.float64)  # None: NaN
    scored = ~np.isnan(sser)
    values = sser if scores else (human.SSER_MAX - sser) * 100 / human.SSER_MAX
    return ratings(
        list(compress(system, scored)),
        list(compress(segment, scored)),
        list(compress(judge, scored)),
        values[scored],
        n_segments,
        order=systems,
    )


#: Readers of a row's system, sentence, judge and SSER score (:class:`JudgmentRow`'s fields).
_SSER_COLUMNS = tuple(
    itemgetter(JudgmentRow._fields.index(name))
    for name in ("system", "segment", "evaluator", "sser")
)


@dataclass(frozen=True)
class JudgeAware:
    """SSER raw and per-judge z (:func:`metrics.annotators.judge_aware`, each with its
    intervals, p-values and rank groups), each judge's effect, and how the items were
    judged: ``items`` scored, ``twice`` of them by more than one judge, ``judges``."""

    raw: MetricSignificance
    z: MetricSignificance
    effects: tuple[AnnotatorEffect, ...]
    items: int
    twice: int
    judges: int

    def effect(self, judge: str) -> AnnotatorEffect | None:
        return next((e for e in self.effects if e.annotator == judge), None)


def judge_aware_figures(
    rows: Sequence[JudgmentRow],
    systems: Sequence[str],
    n_segments: int,
    bootstrap: Bootstrap,
    kept: KeptNormalisation | None = None,
    kept_sums: KeptSums | None = None,
) -> JudgeAware:
    """:class:`JudgeAware` of the done judgments ``rows`` (every system of ``systems``
    has a row, NaN where nothing is scored), resampled with ``bootstrap``; ``kept``:
    each judge's normalisation of their SSER errors on its resamples as kept
    (:data:`~metrics.judge_aware.KeptNormalisation`: the same figures to the bit);
    ``kept_sums``: each judge's sums of their scores on them as kept, for their effect
    (:data:`~metrics.annotator_effects.KeptSums`: the same figures to the bit)."""
    errors = sser_ratings(rows, systems, n_segments)
    # the judges' own scores of the same judgments, in the same order (the same rows
    # scored: neither has a NaN), without reading the rows a second time
    scores = replace(errors, value=human.SSER_MAX - errors.value * human.SSER_MAX / 100)
    per_item = errors.judged().sum()
    return JudgeAware(
        raw=judge_aware(errors, bootstrap, normalise=False, info=SSER_RAW),
        z=judge_aware(errors, bootstrap, normalise=True, info=SSER_Z, kept=kept),
        effects=annotator_effects(scores, bootstrap, bounds=OFFSET_BOUNDS, kept=kept_sums),
        items=int(per_item),
        twice=int(len(errors) - per_item),
        judges=len(errors.annotators),
    )


def sser_by_judge_json(
    rows: Sequence[JudgmentRow], systems: Sequence[str], n_segments: int
) -> dict[str, Any]:
    """``manage.py scores --json``'s ``annotators``: ``{"sser": {"raw": {"systems":
    {system: figure}}, "z": {…}}}``, SSER's raw figure and its per-judge z (items
    averaged first), each figure ``{"score", "n", "signature"}`` (``n``: the judged
    sentences it rests on); systems without a scored judgment left out. The dashboard's
    ``table.json`` writes the same keys and more (intervals, ranks, the judges)."""
    errors = sser_ratings(rows, systems, n_segments)
    raw, n = system_means(errors)
    z, _ = system_means(errors, z_scores(errors))
    out: dict[str, Any] = {}
    for kind, values in (("raw", raw), ("z", z)):
        signature = figure_signature(len(errors), normalise=kind == "z")
        out[kind] = {
            "systems": {
                system: {"score": float(values[k]), "n": int(n[k]), "signature": signature}
                for k, system in enumerate(errors.systems)
                if n[k]
            }
        }
    return {"sser": out}


def figure_signature(judgments: int, *, normalise: bool) -> str:
    """``judgments:N|scale:0-10|items:mean-first|norm:z-per-judge|std:population|…``."""
    parts: dict[str, object] = {
        "judgments": judgments,
        "scale": f"{human.SSER_MIN}-{human.SSER_MAX}",
        "items": "mean-first",
        "norm": "z-per-judge" if normalise else "none",
    }
    if normalise:
        parts["std"] = "population"
    return format_signature(parts)


def offset_json(offset: Offset) -> dict[str, Any]:
    """``{"value", "ci": [low, high] or null, "n", "sentences", "too_few"}``."""
    iv = offset.shown_interval
    return {
        "value": offset.value,
        "ci": None if iv is None else [iv.low, iv.high],
        "n": offset.n,
        "sentences": offset.sentences,
        "too_few": offset.too_few,
    }


def effects_json(effects: Sequence[AnnotatorEffect]) -> dict[str, Any]:
    """Per judge ``{"judgments", "sentences", "mean_score", "offset_shared",
    "offset_overall"}`` (:func:`offset_json`; points of the 0–10 score)."""
    return {
        e.annotator: {
            "judgments": e.judgments,
            "sentences": e.sentences,
            "mean_score": e.mean,
            "offset_shared": offset_json(e.shared),
            "offset_overall": offset_json(e.overall),
        }
        for e in effects
    }
