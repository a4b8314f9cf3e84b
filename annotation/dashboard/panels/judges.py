"""The judges panel: per judge the judgments, mean score, SSER, aWER, active time, the
judge's effect on the scores and control items; the (0, 1) evaluator normalization of
seed 000 §3.5 as a toggle; agreement on candidates judged by two or more judges."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from annotation.changes import Stamp
from annotation.controls.api import JudgeControls, corpus_controls
from annotation.dashboard.figures import judge_aware
from annotation.dashboard.judges import (
    Agreement,
    JudgeFigures,
    JudgesPanel,
    agreement,
    judges_panel,
)
from annotation.dashboard.parts import Parts, panel
from annotation.dashboard.sources import bootstrap, judgments, judgments_read, systems
from annotation.models import Corpus
from annotation.statistics import CACHE, Shelf, remembered


@dataclass(frozen=True)
class JudgesView:
    judges: JudgesPanel
    agreement: Agreement


@panel("judges", title="Judges")
def judges_view(parts: Parts) -> JudgesView:
    return JudgesView(parts.get(judges_with_controls), parts.get(judges_agreement))


#: Each judge's figures, in this process's memory, by the version of the judge's rows
#: (:class:`~annotation.statistics.Versions`): a view after a click computes those of
#: the judge who clicked alone. A few corpora's judges.
JUDGE_FIGURES = Shelf("judge-figures", Stamp.NONE, 2048)


def judges_with_controls(parts: Parts) -> JudgesPanel:
    """Each judge's figures (remembered under the judgments stamp and the
    normalization; each judge's kept by the version of the judge's rows), with their
    control items and their effect on the scores."""
    normalize, corpus = parts.inputs.normalize, parts.corpus
    figure = judged_score(corpus)

    def compute() -> JudgesPanel:
        versions = parts.get(judgments_read).versions

        def kept(name: str, compute: Callable[[], JudgeFigures]) -> JudgeFigures:
            key = JUDGE_FIGURES.key(None, corpus.pk, figure, name, versions.of_judge(name))
            return CACHE.get_or_set(key, compute)

        rows, names = parts.get(judgments), parts.get(systems)
        return judges_panel(rows, names, normalize=normalize, figure=figure, kept=kept)

    found = remembered(corpus, ("judges", normalize), compute)
    aware = parts.get(judge_aware)
    effects = () if aware is None else aware.figures.effects
    on = parts.corpus.controls_enabled
    return found.with_controls(parts.get(control_items), on=on).with_effects(effects)


def control_items(parts: Parts) -> tuple[JudgeControls, ...]:
    """Each judge's control items (:mod:`annotation.controls.quality`): read apart from
    the counted judgments (one query), remembered under the same stamp (a control item
    finished moves it too) and the threshold."""
    corpus = parts.corpus
    key = ("controls", corpus.control_pass_threshold)
    return remembered(corpus, key, lambda: corpus_controls(corpus))


def judged_score(corpus: Corpus) -> str:
    """The score a corpus's judges give (:func:`~annotation.dashboard.judges.
    judge_scores`): SSER's, ESA's, or an MQM judgment's points."""
    return "sser" if not corpus.marks_spans else "esa" if corpus.scores_esa else "mqm"


def judges_agreement(parts: Parts) -> Agreement:
    """Agreement on SSER, or on a span protocol's score (ESA's, MQM's points)."""
    normalize, corpus = parts.inputs.normalize, parts.corpus
    figure = judged_score(corpus)
    return remembered(
        corpus,
        ("agreement", normalize),
        lambda: agreement(
            parts.get(judgments),
            normalize=normalize,
            bootstrap=parts.get(bootstrap),
            figure=figure,
        ),
    )
