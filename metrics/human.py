"""System-level human figures from judgments (seed 001 §2.2–2.3).

The same definitions feed ``manage.py scores``, the judge's live figures and the
dashboard, so they live here, as sufficient statistics like every automatic metric:

- aWER = Σ edits / Σ new-reference lengths over done judgments (seed 001 §2.3, "the
  number of words which are to be inserted, deleted or replaced … to obtain a correct
  translation");
- aSER = share of done judgments whose candidate still needs an edit (edits > 0);
- SSER = mean of (10 − score)/10 over scored judgments: the 0–10 score of seed 001 §2.2
  "converted into %" as an error rate (10 = perfect = 0 %);
- HTER = Σ TER edits / Σ new-reference lengths over done judgments: TER with shifts
  (:mod:`metrics.ter`) of the candidate against the judge's new reference, the
  "targeted" reference of Snover et al. (2006) — aWER with shifts, and exactly ``ter``
  with the new reference as the only reference;
- MQM-style = mean penalty points per done judgment: each aWER operation the judge left
  unaccepted is an error, 1 point when minor, 5 when major (the MQM convention of
  Freitag et al. 2021; the judge marks the major ones on the judge's page). Not a
  percentage: 0 is a perfect candidate, and the figure has no upper bound.
- IER = Σ items not OK / Σ items over done judgments with information items (seed 001
  Table 1, after Nießen et al. 2000: "the sentence is segmented into information items.
  IER = % of badly translated items"): each judge splits the candidate into items and
  marks each OK or as an error of syntax, meaning or another kind.

All but MQM-style in percent.

The figures of the corpora judged by error spans (:mod:`metrics.protocols`) are rows of
the same kind, one per done judgment, so the app's table, bootstrap, estimates and
power read them as they read the others:

- ESA = mean 0–100 score: a candidate judged by several annotators is averaged first,
  then a system's figure is the mean over its candidates (:func:`candidate_mean_stats`);
- ESA z = the same of the scores z-normalised per annotator
  (:func:`metrics.correlation.z_normalize`, the project's one rule);
- MQM = the same of each judgment's penalty points under the corpus's taxonomy
  (:func:`metrics.mqm.segment_points`): the ``mqm`` figure of an MQM corpus, counted
  from the judge's spans rather than from aWER operations (:data:`MQM_SPANS`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from metrics.facts import METRIC_FACTS, facts_of
from metrics.mqm import MAJOR_POINTS, MINOR_POINTS
from metrics.stats import FloatArray, MetricInfo, Score, format_signature
from metrics.ter import TER, Row, ter_rows, ter_words

#: Seed 001 §2.2's SSER scale, 0 (nonsensical) to 10 (perfect): the metric's, and so the
#: app's (evalTrans reader and writer, the models' check constraint, the judge's page).
SSER_MIN, SSER_MAX = 0, 10


def rate(num: float, den: float) -> float:
    """The human figures' rule: 100 · num / den in percent, 0 when nothing was counted.

    In plain floats, for one row or one sum (the dashboard's sentence figures, a corpus
    score); :func:`_rate` applies the same IEEE operations to arrays of rows.
    """
    return 100.0 * num / den if den > 0 else 0.0


def _rate(stats: FloatArray, per: float = 100.0) -> FloatArray | float:
    """:func:`rate` of summed rows: shape (..., 2) → (...), vectorised for the bootstrap's
    samples; one row (shape (2,)) goes through :func:`rate` itself. ``per`` 1 makes it
    a mean (num / den) rather than a percentage."""
    arr = np.asarray(stats, dtype=np.float64)
    if arr.ndim == 1:
        return rate(float(arr[0]), float(arr[1])) * (per / 100.0)
    num, den = arr[..., 0], arr[..., 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        out: FloatArray = np.where(den > 0, per * num / np.where(den > 0, den, 1.0), 0.0)
    return out


@dataclass(frozen=True)
class HumanMetric:
    """One human figure: rows of [numerator, denominator] per judgment, summed to a rate
    (``per`` 100: a percentage; 1: a mean per judgment)."""

    info: MetricInfo
    per: float = 100.0
    #: Its rows come from the judge's error spans (an MQM corpus's ``mqm``), not from
    #: the aWER operations: its signature says so.
    spans: bool = False

    @property
    def name(self) -> str:
        return self.info.name

    def score_from_stats(self, stats: FloatArray) -> FloatArray | float:
        return _rate(stats, self.per)

    def signature(self, n_judgments: int) -> str:
        parts: dict[str, object] = {"judgments": n_judgments}
        if self.name in {"awer", "aser"}:
            parts["tok"] = "13a"
        if self.name == "sser":
            parts["scale"] = f"{SSER_MIN}-{SSER_MAX}"
        if self.name == "hter":
            parts.update(TER().signature_parts())
        if self.name == "mqm" and self.spans:
            parts.update(errors="spans", weights="taxonomy", per="candidate")
        elif self.name == "mqm":
            parts.update(tok="13a", minor=MQM_MINOR, major=MQM_MAJOR, per="judgment")
        if self.name == "esa":
            parts.update(scale=f"{ESA_MIN}-{ESA_MAX}", per="candidate")
        if self.name == "esa_z":
            parts.update(scale=f"{ESA_MIN}-{ESA_MAX}", z="annotator", per="candidate")
        if self.name == "ier":
            parts["items"] = "judge"
            parts["tok"] = "13a"
        return format_signature(parts)

    def corpus_score(self, stats: FloatArray) -> Score:
        stats = np.asarray(stats, dtype=np.float64).reshape(-1, 2)
        score = float(_rate(stats.sum(axis=0), self.per))
        return Score(self.name, score, self.signature(len(stats)), stats)


#: Each figure's facts (label, direction, unit, range) are its row of
#: :data:`metrics.facts.METRIC_FACTS`. SSER's figure is an *error* (the share of points
#: lost), never to be read as a judge's score of a candidate ("SSER 7 (score)",
#: :func:`score_label`).
SSER = HumanMetric(facts_of("sser").info)
AWER = HumanMetric(facts_of("awer").info)
ASER = HumanMetric(facts_of("aser").info)
HTER = HumanMetric(facts_of("hter").info)
#: The penalty points of a minor and a major error (MQM's convention, :mod:`metrics.mqm`).
MQM_MINOR, MQM_MAJOR = MINOR_POINTS, MAJOR_POINTS
#: Penalty points per done judgment: a mean, not a percentage.
MQM = HumanMetric(facts_of("mqm").info, per=1.0)
IER = HumanMetric(facts_of("ier").info)
#: ESA's 0–100 scale (:mod:`metrics.protocols`).
ESA_MIN, ESA_MAX = 0, 100
#: The mean per candidate of the ESA scores, raw and z-normalised per annotator, and of
#: MQM's penalty points from the judge's spans: means, not percentages.
ESA = HumanMetric(facts_of("esa").info, per=1.0)
ESA_Z = HumanMetric(facts_of("esa_z").info, per=1.0)
#: (An MQM corpus's is MQM itself, not "MQM-style": its label says so.)
MQM_SPANS = HumanMetric(replace(facts_of("mqm").info, label="MQM"), per=1.0, spans=True)
#: The human metrics by name, in the table's order (seed 001 Table 1's, then HTER,
#: MQM-style and IER).
HUMAN_METRICS: dict[str, HumanMetric] = {
    f.name: globals()[f.attribute] for f in METRIC_FACTS if f.human
}


def score_label(score: int | None) -> str:
    """One candidate's SSER as a judge gave it, ``SSER 7 (score)`` (``SSER – (score)``
    before it is scored): a score on the 0–10 scale, higher is better, unlike the SSER
    error figure of a system or a judge."""
    return f"SSER {'–' if score is None else score} (score)"


def awer_stats(edits: Sequence[int], lengths: Sequence[int]) -> FloatArray:
    """Rows [edits, new-reference length], one per done judgment."""
    return np.column_stack(
        [np.asarray(edits, dtype=np.float64), np.asarray(lengths, dtype=np.float64)]
    )


def aser_stats(edits: Sequence[int]) -> FloatArray:
    """Rows [1 if the sentence still needs an edit else 0, 1], one per done judgment."""
    wrong = (np.asarray(edits, dtype=np.float64) > 0).astype(np.float64)
    return np.column_stack([wrong, np.ones_like(wrong)])


def ier_stats(errors: Sequence[int], items: Sequence[int]) -> FloatArray:
    """Rows [items not OK, items], one per done judgment with information items: summed,
    the share of badly translated items over the whole corpus, never a mean of sentences'
    rates (a sentence of ten items weighs more than one of two, as in aWER)."""
    return np.column_stack(
        [np.asarray(errors, dtype=np.float64), np.asarray(items, dtype=np.float64)]
    )


def sser_stats(scores: Sequence[int]) -> FloatArray:
    """Rows [(10 − score)/10, 1], one per scored judgment (seed 001 §2.2)."""
    arr = np.asarray(scores, dtype=np.float64)
    if arr.size and (arr.min() < SSER_MIN or arr.max() > SSER_MAX):
        bad = arr[(arr < SSER_MIN) | (arr > SSER_MAX)][0]
        raise ValueError(f"SSER score {bad:g} is outside {SSER_MIN}–{SSER_MAX}")
    return np.column_stack([(SSER_MAX - arr) / SSER_MAX, np.ones_like(arr)])


def mqm_stats(edits: Sequence[int], majors: Sequence[int]) -> FloatArray:
    """Rows [penalty points, 1], one per done judgment: its ``edits`` aWER operations
    are its errors, ``majors`` of them major (5 points), the others minor (1 point)."""
    e = np.asarray(edits, dtype=np.float64)
    m = np.minimum(np.asarray(majors, dtype=np.float64), e)
    return np.column_stack([(e - m) * MQM_MINOR + m * MQM_MAJOR, np.ones_like(e)])


def candidate_mean_stats(
    candidates: Sequence[Hashable], values: Sequence[float] | FloatArray
) -> FloatArray:
    """Rows [value / k, 1 / k], one per judgment, where k is the number of judgments of
    its candidate (``candidates``: each judgment's). Summed over a candidate's judgments
    they are [its mean, 1]; over a system's, [Σ candidate means, candidates]: so the
    figure is the mean over candidates of each candidate's mean, as WMT reports ESA
    (:func:`metrics.annotators.system_means`), and a sentence's or a bootstrap sample's
    sums give the same rule."""
    v = np.asarray(values, dtype=np.float64)
    if len(candidates) != v.size:
        raise ValueError(f"{len(candidates)} candidates for {v.size} values: one each")
    number: dict[Hashable, int] = {}
    where = np.fromiter(
        (number.setdefault(c, len(number)) for c in candidates), np.int64, len(candidates)
    )
    k = np.bincount(where, minlength=len(number)).astype(np.float64)[where]
    return np.column_stack([v / k, 1.0 / k]) if v.size else np.zeros((0, 2))


def hter_stats(targets: Sequence[str], new_refs: Sequence[str]) -> FloatArray:
    """Rows [TER edits, new-reference length], one per done judgment: each candidate
    against its judge's new reference as the only reference (:mod:`metrics.ter`'s
    normalisation). Pairs seen before are not searched again (:func:`hter_row`)."""
    out = np.zeros((len(targets), 2), dtype=np.float64)
    for k, pair in enumerate(zip(targets, new_refs, strict=True)):
        out[k] = hter_row(*pair)
    return out


@lru_cache(maxsize=2**16)
def hter_row(target: str, new_ref: str) -> Row:
    """One judgment's HTER row ``(edits, new-reference length)``; cached because a judge
    walks back and forth through the same new references (undo, redo, a pool reference
    clicked again) and a TER search costs far more than reading it back. The app stores
    each judgment's row with it (:func:`annotation.text.new_ref_counts`), so no page
    view searches shifts."""
    return hter_rows([(target, new_ref)])[0]


def hter_rows(pairs: Sequence[tuple[str, str]]) -> list[Row]:
    """The HTER rows of many judgments ``(target, new_ref)`` (:func:`hter_row`'s each),
    their shift searches run together: an import stores thousands at once, and the
    searches share their work when run side by side."""
    searches = []
    for target, new_ref in pairs:
        vocab: dict[str, int] = {}
        hyp, ref = (
            tuple(vocab.setdefault(w, len(vocab)) for w in ter_words(t)) for t in (target, new_ref)
        )
        searches.append((hyp, [ref]))
    return ter_rows(searches)
