"""The judges panel: per judge the judgments, mean score, SSER, aWER, active time, the
judge's effect on the scores and control items; the (0, 1) evaluator normalization of
seed 000 §3.5 as a toggle; agreement on candidates judged by two or more judges."""

from __future__ import annotations

from dataclasses import dataclass

from annotation.changes import Stamp
from annotation.controls.api import JudgeControls, corpus_controls
from annotation.dashboard.figures import judge_aware
from annotation.dashboard.judges import (
    Agreement,
    JudgesPanel,
    agreement,
    judges_panel,
)
from annotation.dashboard.parts import Parts, panel
from annotation.dashboard.sources import bootstrap, judgments, judgments_read, kept_by_rows, systems
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
        kept = kept_by_rows(parts, JUDGE_FIGURES, "judge", figure)
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
    finished moves it too) and the threshold; after a judge's click, those of the judges
    whose judgments changed alone (:func:`_controls_brought_up_to_date`)."""
    corpus = parts.corpus
    key = ("controls", corpus.control_pass_threshold)
    return remembered(corpus, key, lambda: _controls_brought_up_to_date(parts))


@dataclass(frozen=True)
class KeptControls:
    """Every judge's control results as of the judgments' whole read ``read`` and each
    judge's latest change seen after it (:class:`~annotation.statistics.Versions`)."""

    read: int
    judges: dict[str, int]
    controls: tuple[JudgeControls, ...]


#: Each corpus's :class:`KeptControls` (by its threshold), in this process's memory.
CONTROLS = Shelf("judge-controls", Stamp.NONE, 16)


def _controls_brought_up_to_date(parts: Parts) -> tuple[JudgeControls, ...]:
    """Every judge's control results, those of the judges whose judgments changed since
    the view before read again (one query of their control items and originals), the
    others' kept. A judge's results are of their own control items and real judgments
    alone, every change of which (done, to or from done, a click on a control item too)
    moves the judge's version (:func:`~annotation.changes.judgment_changing`), and any
    other change a whole read; so they equal :func:`~annotation.controls.api.
    corpus_controls`. An error-span corpus reads them all: its spans are not stamped."""
    corpus = parts.corpus
    if corpus.marks_spans:
        return corpus_controls(corpus)
    versions = parts.get(judgments_read).versions
    key = CONTROLS.key(
        None, corpus.pk, corpus.created_at.isoformat(), corpus.control_pass_threshold
    )
    kept: KeptControls | None = CACHE.get(key)
    if kept is None or kept.read != versions.read:
        found = corpus_controls(corpus)
    else:
        changed = {name for name, seen in versions.judges.items() if kept.judges.get(name) != seen}
        found = kept.controls
        if changed:
            again = corpus_controls(corpus, changed)
            others = [c for c in kept.controls if c.name not in changed]
            found = tuple(sorted([*others, *again], key=lambda c: c.name))
    CACHE.put(key, KeptControls(versions.read, dict(versions.judges), found))
    return found


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
