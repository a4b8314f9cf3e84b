"""The meta-evaluation panel: seed 000 §4 (Pearson's r) and seed 002 (Kendall's τ) of
every automatic metric against SSER and aWER, at sentence and at system level
(:mod:`annotation.dashboard.meta`)."""

from __future__ import annotations

from annotation.changes import Stamp
from annotation.dashboard.figures import human
from annotation.dashboard.meta import MetaEvaluation, meta_evaluation, metric_sides
from annotation.dashboard.meta_human import (
    HumanSide,
    human_side,
    meta_figures,
    with_imported_human,
)
from annotation.dashboard.meta_sentence import (
    SentenceLevel,
    SentenceScores,
    sentence_level,
    sentence_scores,
)
from annotation.dashboard.parts import Parts, Pending, panel
from annotation.dashboard.sources import (
    bootstrap,
    chosen_statistics,
    human_rows,
    imported,
    judgments,
    metrics,
    remembered_from_statistics,
)
from annotation.statistics import CACHE, AutomaticStats, Shelf, remembered, remembered_for_texts
from metrics.meta import PairwiseSide


@panel("meta", title="Meta-evaluation")
def meta_panel(parts: Parts) -> MetaEvaluation | Pending:
    """Remembered per preprocessing choice too (the automatic side depends on it); its
    human side is shared by every choice, so a new choice reads no judgment."""
    inputs, corpus = parts.inputs, parts.corpus
    key = ("meta", inputs.preprocessing.signature, inputs.normalize, corpus.external_stamp)
    return remembered_from_statistics(
        parts,
        key,
        chosen_statistics,
        lambda auto: meta_evaluation(
            auto,
            parts.get(metrics),
            parts.get(meta_humans),
            normalize=inputs.normalize,
            bootstrap=parts.get(bootstrap),
            metric_sides=meta_metric_sides(parts, auto),
            imported=parts.get(imported),
            sentence=meta_sentence_level(parts, auto),
        ),
    )


#: The meta-evaluation's sentence-level points with their τ-b counts, kept for the next
#: computation to bring up to date after a judgment (:mod:`~annotation.dashboard.
#: meta_sentence`), by every process (the shared store: a second app server brings up to
#: date what the first kept). Points of any earlier state serve (they are compared with
#: today's, not trusted: two processes that keep theirs one after the other each keep
#: true counts of their own points), so they are kept under the texts stamp alone, one
#: value per corpus, choice and normalization, replaced at each computation (at real
#: size about 1 MB: 16 bytes a judged candidate and figure).
SENTENCE_POINTS = Shelf("meta-points", Stamp.TEXTS, 4, shared=True)


def meta_sentence_level(parts: Parts, auto: AutomaticStats) -> SentenceLevel:
    """The sentence-level points of the meta-evaluation, their counts brought up to date
    from those kept by the last computation, if any."""
    key = SENTENCE_POINTS.key(parts.corpus, parts.preprocessing.signature, parts.inputs.normalize)
    level = sentence_level(
        auto,
        parts.get(metrics),
        parts.get(meta_humans),
        parts.get(imported),
        before=CACHE.get(key),
        scores=meta_sentence_scores(parts, auto),
    )
    CACHE.put(key, level.points)
    return level


#: Every candidate's sentence score of every metric: computed from the stored
#: statistics and the imported scores alone, so kept as long as they hold, by every
#: process (about 2.4 MB at real size: a process computes them in 25 ms of CPU, reads
#: them from the shared store in a few, so a fresh one after a judgment reads them).
SENTENCE_SCORES = Shelf("meta-scores", Stamp.TEXTS | Stamp.EXTERNAL, 4, shared=True)


def meta_sentence_scores(parts: Parts, auto: AutomaticStats) -> SentenceScores | None:
    """:func:`~annotation.dashboard.meta_sentence.sentence_scores` of the choice, kept
    (None against the grown pool, whose statistics move with the judgments)."""
    pp = parts.preprocessing
    if pp.pool:
        return None
    return CACHE.get_or_set(
        SENTENCE_SCORES.key(parts.corpus, pp.signature),
        lambda: sentence_scores(auto, parts.get(metrics), parts.get(imported)),
    )


def meta_metric_sides(parts: Parts, auto: AutomaticStats) -> dict[str, PairwiseSide] | None:
    """The automatic side of the meta-evaluation's pairwise figures, which depends on
    the stored statistics alone: kept under the texts stamp, so a judgment does not
    compute it again (against the grown pool, whose statistics move with the
    judgments, the meta-evaluation computes it each time)."""
    pp = parts.preprocessing
    if pp.pool:
        return None
    return remembered_for_texts(
        parts.corpus,
        ("meta-sides", pp.signature),
        lambda: metric_sides(auto, parts.get(metrics), parts.get(bootstrap)),
    )


def meta_humans(parts: Parts) -> HumanSide:
    """The human side with the human scores a lead imported after the judges' figures
    (:func:`~annotation.dashboard.meta_human.with_imported_human`: they change with the
    imports, not with the judgments, so they are added to the side kept for these)."""
    return with_imported_human(parts.get(meta_human_side), parts.get(imported))


def meta_human_side(parts: Parts) -> HumanSide:
    normalize = parts.inputs.normalize
    return remembered(
        parts.corpus,
        ("meta-human", normalize),
        lambda: human_side(
            parts.get(judgments),
            parts.get(human),
            normalize=normalize,
            bootstrap=parts.get(bootstrap),
            by_system=parts.get(human_rows),
            metrics=meta_figures(parts.corpus.protocol),
        ),
    )
