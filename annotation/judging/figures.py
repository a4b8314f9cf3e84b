"""The figures in the judge's header, live: this system over the judge's work so far.

After every click the header shows aWER, aSER and SSER over the judge's done judgments
of this system plus the current one, and WER, mWER and BLEU over the same sentences
against the corpus references. They are the figures ``manage.py scores`` and the
dashboard show, computed the same way: the human ones through
:func:`annotation.scoring.human_figures` (which judgments enter which figure is decided
there and in :mod:`metrics.human`), the automatic ones as Σ of per-segment sufficient
statistics through the same metric objects. Labels and units are the metrics' own
(:data:`metrics.registry.METRIC_INFO`); "no value" prints as
:func:`annotation.formatting.number` prints it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from annotation.formatting import MISSING, number
from annotation.scoring import HUMAN_METRICS, JudgmentRow, human_figures
from metrics.registry import METRIC_INFO, build_metric
from metrics.stats import Metric
from metrics.tokenize import Preprocessor

#: The header's figures, in the order it shows them.
SHOWN = ("awer", "aser", "sser", "wer", "mwer", "bleu")
#: What each figure counts here (the header's tooltips).
TITLES = {
    "awer": "aWER: edits / new-reference words, over your judgments of this system",
    "aser": "aSER: share of your judged sentences that still need an edit",
    "sser": "SSER: mean of (10 − score)/10 over your scores of this system",
    "wer": "WER against the first reference, same sentences",
    "mwer": "mWER against all references, same sentences",
    "bleu": "BLEU against all references, same sentences",
}


@dataclass(frozen=True)
class Judged:
    """One judgment as the live figures read it."""

    candidate: str
    #: The sentence's corpus references in reference order (none: no automatic figures).
    references: tuple[str, ...]
    edits: int | None
    ref_length: int | None
    sser: int | None


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


def live_figures(judged: Sequence[Judged]) -> LiveFigures:
    """The figures over ``judged``: the judge's done judgments of this system, the
    current judgment last."""
    with_refs = [j for j in judged if j.references]
    return LiveFigures(
        **_human(judged),
        **_automatic([j.candidate for j in with_refs], [j.references for j in with_refs]),
        edits=judged[-1].edits,
        sentences=len(judged),
    )


#: The one system the live figures are about, as :func:`annotation.scoring.human_figures`
#: groups rows.
_THIS_SYSTEM = "this system"


def _human(judged: Sequence[Judged]) -> dict[str, float | None]:
    """aWER, aSER and SSER of ``judged``, through the scoring module's definition (only
    the counts matter here: one system, one judge)."""
    rows = [
        JudgmentRow(
            system=_THIS_SYSTEM,
            segment=k,
            target_id=0,
            evaluator="",
            sser=j.sser,
            edits=j.edits,
            ref_length=j.ref_length,
            new_ref="",
            active_seconds=0.0,
        )
        for k, j in enumerate(judged)
    ]
    scores = human_figures(rows).get(_THIS_SYSTEM, {})
    return {name: scores[name].score if name in scores else None for name in HUMAN_METRICS}


@cache
def _metric(name: str) -> Metric:
    return build_metric(name, preprocessor=Preprocessor())


#: Per-segment statistics rows of the automatic figures, keyed by (candidate, references):
#: they depend on nothing else, so a click (which changes neither) reuses them, and a
#: finished sentence costs its rows once. Bounded (the oldest entries go first); shared by
#: the threads of one process.
_AUTOMATIC = ("wer", "mwer", "bleu")
_ROWS: OrderedDict[tuple[str, tuple[str, ...]], tuple[np.ndarray, ...]] = OrderedDict()
_ROWS_MAX = 50_000
_ROWS_LOCK = threading.Lock()


def _automatic(hyps: list[str], refs: list[tuple[str, ...]]) -> dict[str, float | None]:
    """WER, mWER, BLEU over just these sentences: Σ of per-segment sufficient statistics,
    then each metric's ``score_from_stats`` (references prepared only for new segments)."""
    if not hyps:
        return dict.fromkeys(_AUTOMATIC)
    keys = list(zip(hyps, refs, strict=True))
    with _ROWS_LOCK:
        rows: list[tuple[np.ndarray, ...] | None] = [_ROWS.get(key) for key in keys]
    missing = [k for k, row in enumerate(rows) if row is None]
    if missing:
        new_hyps = [hyps[k] for k in missing]
        new_refs = [refs[k] for k in missing]
        stats = [
            _metric(name).segment_stats(new_hyps, _metric(name).prepare_references(new_refs))
            for name in _AUTOMATIC
        ]
        with _ROWS_LOCK:
            for i, k in enumerate(missing):
                rows[k] = tuple(np.array(s[i]) for s in stats)
                _ROWS[keys[k]] = rows[k]
            while len(_ROWS) > _ROWS_MAX:
                _ROWS.popitem(last=False)
    out: dict[str, float | None] = {}
    for m, name in enumerate(_AUTOMATIC):
        total = np.sum([row[m] for row in rows if row is not None], axis=0)
        out[name] = float(_metric(name).score_from_stats(total))
    return out
