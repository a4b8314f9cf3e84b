"""Every metric of a corpus, per system, through ``metrics/``.

The app's one bridge between stored corpora and the metrics engine: it gathers the texts
(references segment-major, the first reference first) and the judgments, and hands them
to the same metric objects ``python -m metrics`` uses. ``manage.py scores`` and the
dashboard read their figures from here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from annotation.models import Corpus, Judgment, Target
from annotation.text import reference_order
from metrics import human
from metrics.registry import build_metric
from metrics.stats import FloatArray, Score
from metrics.tokenize import Preprocessor

AUTOMATIC_METRICS = ("wer", "ser", "mwer", "per", "bleu", "nist")
HUMAN_METRICS = ("sser", "awer", "aser")


@dataclass(frozen=True)
class CorpusTexts:
    """A corpus as the metrics see it.

    ``refs[k]`` are sentence k's references, the first reference first and the others in
    file order; ``systems[name][k]`` is the system's candidate ("" where it has none).
    """

    refs: list[tuple[str, ...]]
    systems: dict[str, list[str]]


def corpus_texts(corpus: Corpus) -> CorpusTexts:
    """All texts of a corpus in two queries."""
    translators = {t.pk: t for t in corpus.translators.all()}
    n = corpus.sentences.count()
    refs: list[list[tuple[tuple[bool, int], str]]] = [[] for _ in range(n)]
    systems = {t.name: [""] * n for t in translators.values() if not t.is_reference}
    rows = Target.objects.filter(sentence__corpus=corpus).values_list(
        "sentence__position", "translator_id", "position", "text"
    )
    for k, translator_id, position, text in rows:
        translator = translators[translator_id]
        if translator.is_reference:
            refs[k].append((reference_order(translator.role, position), text))
        else:
            systems[translator.name][k] = text
    return CorpusTexts(
        refs=[tuple(text for _, text in sorted(seg)) for seg in refs], systems=systems
    )


def automatic_scores(
    texts: CorpusTexts,
    *,
    metrics: tuple[str, ...] = AUTOMATIC_METRICS,
    preprocessor: Preprocessor | None = None,
    ref_length: str = "nearest",
) -> dict[str, dict[str, Score]]:
    """Each metric prepares the references once and scores every system against them."""
    pp = preprocessor or Preprocessor()
    out: dict[str, dict[str, Score]] = {name: {} for name in texts.systems}
    for metric_name in metrics:
        metric = build_metric(metric_name, preprocessor=pp, ref_length=ref_length)
        prepared = metric.prepare_references(texts.refs)
        for system, hyps in texts.systems.items():
            out[system][metric_name] = metric.corpus_score(hyps, texts.refs, prepared)
    return out


@dataclass(frozen=True)
class JudgmentRow:
    """One done judgment as the human figures read it (one query for all of them)."""

    system: str
    segment: int
    target_id: int
    evaluator: str
    sser: int | None
    edits: int | None
    ref_length: int | None
    new_ref: str
    active_seconds: float

    @property
    def sser_error(self) -> float | None:
        """The judgment's SSER row as a percentage: (10 − score)/10 × 100 (seed 001 §2.2)."""
        return None if self.sser is None else (human.SSER_MAX - self.sser) * 100 / human.SSER_MAX

    @property
    def counted(self) -> bool:
        """Whether it enters aWER and aSER (it has an edit count)."""
        return self.edits is not None and self.ref_length is not None


def judgment_rows(corpus: Corpus) -> list[JudgmentRow]:
    """Every done judgment of the corpus in one query: all that the human figures and the
    dashboard read of them (figures, bootstrap, judges, agreement, effort, drill-down)."""
    qs = Judgment.objects.done().filter(target__sentence__corpus=corpus)
    values = qs.values_list(
        "target__translator__name",
        "target__sentence__position",
        "target_id",
        "evaluator__username",
        "sser",
        "edits",
        "ref_length",
        "new_ref",
        "active_seconds",
    )
    return [JudgmentRow(*v) for v in values]


def human_metric_rows(rows: Sequence[JudgmentRow], metric: str) -> tuple[list[int], FloatArray]:
    """(segment of each row, statistics rows) of the judgments that enter ``metric``, as
    :mod:`metrics.human` defines them (SSER: scored ones; aWER, aSER: counted ones)."""
    if metric == "sser":
        scored = [(r.segment, r.sser) for r in rows if r.sser is not None]
        return [seg for seg, _ in scored], human.sser_stats([score for _, score in scored])
    counted = [(r.segment, r.edits, r.ref_length) for r in rows if r.counted]
    segments = [seg for seg, _, _ in counted]
    edits = [e or 0 for _, e, _ in counted]
    if metric == "awer":
        return segments, human.awer_stats(edits, [n or 0 for _, _, n in counted])
    if metric == "aser":
        return segments, human.aser_stats(edits)
    raise ValueError(f"unknown human metric {metric!r}")


def human_figures(rows: Sequence[JudgmentRow]) -> dict[str, dict[str, Score]]:
    """Per system its SSER, aWER and aSER :class:`~metrics.stats.Score` (``metrics.human``
    definitions) from rows already read, so the dashboard reads the judgments once per view.
    A system has a figure only where a judgment enters it."""
    by_system: dict[str, list[JudgmentRow]] = defaultdict(list)
    for r in rows:
        by_system[r.system].append(r)
    out: dict[str, dict[str, Score]] = {}
    for system, mine in by_system.items():
        figures = {}
        for m in HUMAN_METRICS:
            segments, stats = human_metric_rows(mine, m)
            if segments:
                figures[m] = human.HUMAN_METRICS[m].corpus_score(stats)
        out[system] = figures
    return out


def human_scores(corpus: Corpus) -> dict[str, dict[str, Score]]:
    """SSER, aWER and aSER per system over done judgments (``manage.py scores``)."""
    return human_figures(judgment_rows(corpus))


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
