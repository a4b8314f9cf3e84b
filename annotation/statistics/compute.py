"""Every metric of a corpus, per system, through ``metrics/``: the app's one bridge
between stored corpora and the metrics engine. It gathers the texts (references
segment-major, the first reference first) and the judgments, and hands them to the
metric objects ``python -m metrics`` uses (:func:`metrics.corpus.score_corpus`).

The automatic statistics are computed here (:func:`compute_statistics`) and *stored*
with the corpus by :mod:`annotation.stored_statistics`: reading them is all a page does.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from annotation.apart import computed_apart
from annotation.metric_set import AUTOMATIC_METRICS, HUMAN_METRICS, app_metric, work_shares
from annotation.models import Corpus, Judgment, Target
from annotation.spans import major_count
from annotation.text import reference_order
from metrics import __version__ as metrics_version
from metrics import archive, human
from metrics.corpus import score_corpus
from metrics.registry import metric_info
from metrics.significance import DEFAULT_SAMPLES, DEFAULT_SEED, Bootstrap, MetricSignificance
from metrics.stats import FloatArray, Metric, References, Score, format_signature
from metrics.tokenize import Preprocessor


@dataclass(frozen=True)
class CorpusTexts:
    """A corpus as the metrics see it.

    ``refs[k]`` are sentence k's references, the first reference first and the others in
    file order; ``systems[name][k]`` is the system's candidate ("" where it has none).
    """

    refs: list[tuple[str, ...]]
    systems: dict[str, list[str]]
    #: Each sentence's document id ("" without one): the weighted n-grams weigh words
    #: per document (one document when the corpus names none).
    docs: list[str]


def corpus_texts(corpus: Corpus) -> CorpusTexts:
    """All texts of a corpus and its sentences' documents in three queries."""
    translators = {t.pk: t for t in corpus.translators.all()}
    documents = list(corpus.sentences.values_list("position", "doc"))
    n = len(documents)
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
    docs = [""] * n
    for k, doc in documents:
        docs[k] = doc or ""
    return CorpusTexts(
        refs=[tuple(text for _, text in sorted(seg)) for seg in refs], systems=systems, docs=docs
    )


def automatic_scores(
    texts: CorpusTexts,
    *,
    metrics: tuple[str, ...] = AUTOMATIC_METRICS,
    preprocessor: Preprocessor | None = None,
    ref_length: str = "nearest",
) -> dict[str, dict[str, Score]]:
    """Every metric of every system, the corpus tokenized once for all of them (the same
    figures, to the last bit, as each metric scoring each system on its own)."""
    pp = preprocessor or Preprocessor()
    objects = [app_metric(m, pp, ref_length, texts.docs) for m in metrics]
    return score_corpus(texts.refs, texts.systems, objects)


# ------------------------------------------------------------------ stored statistics

#: Names the metrics' version and the layout of ``CorpusStatistics.data``: a row written
#: by another engine is ignored and recomputed.
STATISTICS_ENGINE = f"metrics {metrics_version}, layout {archive.LAYOUT}"


@dataclass(frozen=True)
class AutomaticStats:
    """Every automatic metric of every system for one preprocessing choice:
    ``scores[metric][system]`` is :func:`automatic_scores`'s :class:`~metrics.stats.Score`
    (``.stats``: segments × k) and ``significance[metric]`` its paired bootstrap over all
    segments (none without a system)."""

    systems: tuple[str, ...]
    n_segments: int
    scores: dict[str, dict[str, Score]]
    significance: dict[str, MetricSignificance]

    def segment_stats(self, metric: str, system: str) -> FloatArray:
        """One system's statistics rows of one metric (segments × k)."""
        score = self.scores[metric][system]
        if score.stats is None:  # automatic scores always carry their rows
            raise ValueError(f"{score.name} score without per-segment statistics")
        return score.stats

    def stats(self, metric: str) -> dict[str, FloatArray]:
        return {s: self.segment_stats(metric, s) for s in self.systems}


def statistics_choice(preprocessor: Preprocessor, ref_length: str) -> str:
    """The stored row's name for a preprocessing choice:
    ``tok:13a|case:mixed|reflen:nearest|bounds:no``."""
    parts = preprocessor.signature_parts()
    return format_signature(
        {
            "tok": parts["tok"],
            "case": parts["case"],
            "reflen": ref_length,
            "bounds": parts["bounds"],
        },
        version=False,
    )


def compute_statistics(
    corpus: Corpus,
    preprocessor: Preprocessor,
    ref_length: str,
    *,
    known: Sequence[AutomaticStats] = (),
    texts: CorpusTexts | None = None,
) -> AutomaticStats:
    """Score the corpus (:func:`automatic_scores`; its ``texts`` if given, e.g. grown by
    the reference pool) and run the paired bootstrap of every automatic metric (1,000
    samples, seed 12345: :func:`automatic_significance`).

    A metric whose signature for this choice equals its signature in ``known`` (stored
    statistics of another choice) is taken from there, statistics and bootstrap alike:
    a signature records every choice the metric reads, so equal signatures are the same
    computation (chrF under another tokenizer, WER under another reference length). The
    others are scored in shares of about equal work (:func:`~annotation.metric_set.
    work_shares`), computed at once in forked children (:mod:`annotation.apart`).
    """
    texts = corpus_texts(corpus) if texts is None else texts
    systems = tuple(texts.systems)
    metrics = {m: app_metric(m, preprocessor, ref_length, texts.docs) for m in AUTOMATIC_METRICS}
    reused = {m: _only(m, kin) for m, kin in reusable(metrics, texts.refs, systems, known).items()}
    del known  # the stored choices' other metrics are freed before the scoring starts
    todo = tuple(m for m in AUTOMATIC_METRICS if m not in reused)
    shares = [
        partial(_encoded_share, texts, names, preprocessor, ref_length)
        for names in work_shares(todo)
    ]
    computed = [decode_statistics(data) for data in computed_apart(shares)]
    sources = {m: found for found in computed for m in found.scores} | reused
    scores = {m: sources[m].scores[m] for m in AUTOMATIC_METRICS}
    significance = {
        m: sources[m].significance[m] for m in AUTOMATIC_METRICS if m in sources[m].significance
    }
    return AutomaticStats(systems, len(texts.refs), scores, significance)


def _only(m: str, stats: AutomaticStats) -> AutomaticStats:
    """``stats`` reduced to one metric (what a new choice takes from a stored one)."""
    kept = {m: stats.significance[m]} if m in stats.significance else {}
    return AutomaticStats(stats.systems, stats.n_segments, {m: stats.scores[m]}, kept)


def _encoded_share(
    texts: CorpusTexts, names: tuple[str, ...], preprocessor: Preprocessor, ref_length: str
) -> bytes:
    """The statistics and paired bootstrap of the metrics ``names`` only, as stored bytes
    (what a child computing one share sends back)."""
    systems = tuple(texts.systems)
    by_system = automatic_scores(
        texts, metrics=names, preprocessor=preprocessor, ref_length=ref_length
    )
    scores = {m: {s: by_system[s][m] for s in systems} for m in names}
    n = len(texts.refs)
    significance: dict[str, MetricSignificance] = {}
    if n and systems:
        metrics = {m: app_metric(m, preprocessor, ref_length, texts.docs) for m in names}
        bootstrap = Bootstrap(n, DEFAULT_SAMPLES, DEFAULT_SEED)
        significance = automatic_significance(scores, metrics, bootstrap)
    return encode_statistics(AutomaticStats(systems, n, scores, significance))


def reusable(
    metrics: Mapping[str, Metric],
    refs: References,
    systems: Sequence[str],
    known: Sequence[AutomaticStats],
) -> dict[str, AutomaticStats]:
    """For each metric, stored statistics in ``known`` computed with the same signature
    for the same systems and segments (:func:`compute_statistics` takes it from there)."""
    out: dict[str, AutomaticStats] = {}
    for name, metric in metrics.items():
        signature = metric.signature(refs)
        for stats in known:
            same_corpus = stats.systems == tuple(systems) and stats.n_segments == len(refs)
            by_system = stats.scores.get(name, {})
            if (
                same_corpus
                and systems
                and name in stats.significance
                and all(s in by_system and by_system[s].signature == signature for s in systems)
            ):
                out[name] = stats
                break
    return out


def automatic_significance(
    scores: Mapping[str, Mapping[str, Score]],
    metrics: Mapping[str, Metric],
    bootstrap: Bootstrap,
) -> dict[str, MetricSignificance]:
    """Paired bootstrap of every automatic metric over all segments (``scores[metric]
    [system]`` with its statistics rows)."""
    return {
        m: bootstrap.compare(
            {s: score.stats for s, score in scores[m].items() if score.stats is not None},
            metrics[m].score_from_stats,
            higher_is_better=metric_info(m).higher_is_better,
            metric=m,
            bounds=metric_info(m).bounds,
        )
        for m in scores
    }


def encode_statistics(stats: AutomaticStats) -> bytes:
    """``stats`` as stored: :func:`metrics.archive.pack` (exact, nothing pickled)."""
    return archive.pack(stats.systems, stats.n_segments, stats.scores, stats.significance)


def decode_statistics(data: bytes) -> AutomaticStats:
    """What :func:`encode_statistics` wrote."""
    found = archive.unpack(data)
    return AutomaticStats(found.systems, found.n_segments, found.scores, found.significance)


class JudgmentRow(NamedTuple):
    """One done judgment as the human figures read it (one query for all of them).

    A named tuple rather than a frozen dataclass: the dashboard reads every judgment of a
    corpus at once (18,000 in a real campaign), and a tuple is made and read several
    times faster."""

    system: str
    segment: int
    target_id: int
    evaluator: str
    sser: int | None
    edits: int | None
    ref_length: int | None
    new_ref: str
    active_seconds: float
    #: HTER's counts (:func:`annotation.text.new_ref_counts`), stored with the new reference.
    ter_edits: int | None = None
    ter_length: int | None = None
    #: The operations the judge marked major (:mod:`annotation.spans`), for MQM-style.
    severities: dict[str, str] | None = None
    ier_errors: int | None = None  # IER's counts (annotation.ier), and its share of
    ier_length: int | None = None  # the active time and its clicks (seed 001 Table 3)
    ier_seconds: float = 0.0
    ier_clicks: int = 0

    @property
    def sser_error(self) -> float | None:
        """The judgment's SSER row as a percentage: (10 − score)/10 × 100 (seed 001 §2.2)."""
        return None if self.sser is None else (human.SSER_MAX - self.sser) * 100 / human.SSER_MAX

    @property
    def counted(self) -> bool:
        """Whether it enters aWER and aSER (it has an edit count)."""
        return self.edits is not None and self.ref_length is not None


def judgment_rows(corpus: Corpus, *, systems: Sequence[str] = ()) -> list[JudgmentRow]:
    """Every judgment the corpus's figures count (done, no control item, no judge left
    out: :meth:`~annotation.models.JudgmentQuerySet.in_figures`; of ``systems`` only, if
    given) in one query: all that the human figures and the dashboard read of them
    (figures, bootstrap, judges, agreement, effort, drill-down)."""
    qs = Judgment.objects.in_figures(corpus.pk)
    if systems:
        qs = qs.filter(target__translator__name__in=systems)
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
        "ter_edits",
        "ter_length",
        "severities",
        "ier_errors",
        "ier_length",
        "ier_seconds",
        "ier_clicks",
    )
    return list(map(JudgmentRow._make, values))


def human_metric_rows(rows: Sequence[JudgmentRow], metric: str) -> tuple[list[int], FloatArray]:
    """(segment of each row, statistics rows) of the judgments that enter ``metric``, as
    :mod:`metrics.human` defines them (SSER: scored ones; aWER, aSER: counted ones)."""
    if metric not in HUMAN_METRICS:
        raise ValueError(f"unknown human metric {metric!r}")
    return _human_rows(rows, (metric,))[metric]


def _human_rows(
    rows: Sequence[JudgmentRow], metrics: Sequence[str] = HUMAN_METRICS
) -> dict[str, tuple[list[int], FloatArray]]:
    """:func:`human_metric_rows` of several metrics, each kind of judgment listed once
    (the dashboard lists 18,000 of them)."""
    out = {}
    if "sser" in metrics:
        scored = [(r.segment, r.sser) for r in rows if r.sser is not None]
        segments, scores = (list(c) for c in zip(*scored, strict=True)) if scored else ([], [])
        out["sser"] = segments, human.sser_stats(scores)
    if "awer" in metrics or "aser" in metrics:
        segments, edits, lengths = _counts_of(rows, "edits", "ref_length")
        if "awer" in metrics:
            out["awer"] = segments, human.awer_stats(edits, lengths)
        if "aser" in metrics:
            out["aser"] = segments, human.aser_stats(edits)
    if "hter" in metrics:  # the same rows [edits, length], of TER's counts
        segments, edits, lengths = _counts_of(rows, "ter_edits", "ter_length")
        out["hter"] = segments, human.awer_stats(edits, lengths)
    if "mqm" in metrics:  # every aWER edit an error, minor unless marked major
        mine = [r for r in rows if r.counted]
        majors = [major_count(r.severities) for r in mine]
        out["mqm"] = [r.segment for r in mine], human.mqm_stats([r.edits for r in mine], majors)
    if "ier" in metrics:  # judgments with information items only
        segments, errors, items = _counts_of(rows, "ier_errors", "ier_length")
        out["ier"] = segments, human.ier_stats(errors, items)
    return out


def _counts_of(
    rows: Sequence[JudgmentRow], edits: str, length: str
) -> tuple[list[int], list[int], list[int]]:
    """(segments, edits, lengths) of the rows that have both counts (named fields)."""
    found = [
        (r.segment, e, n)
        for r in rows
        if (e := getattr(r, edits)) is not None and (n := getattr(r, length)) is not None
    ]
    if not found:
        return [], [], []
    segments, counts, lengths = zip(*found, strict=True)
    return list(segments), list(counts), list(lengths)


#: Per system (first-appearance order), per human metric: ``human_metric_rows`` of the
#: system's judgments (only the metrics some judgment enters).
HumanRows = dict[str, dict[str, tuple[list[int], FloatArray]]]


def human_rows_by_system(rows: Sequence[JudgmentRow]) -> HumanRows:
    """:func:`human_metric_rows` of each system's judgments, the rows grouped once (the
    figures and the bootstrap read the same statistics)."""
    by_system: dict[str, list[JudgmentRow]] = defaultdict(list)
    for r in rows:
        by_system[r.system].append(r)
    return {
        system: {m: found for m, found in _human_rows(mine).items() if found[0]}
        for system, mine in by_system.items()
    }


def human_figures(
    rows: Sequence[JudgmentRow], by_system: HumanRows | None = None
) -> dict[str, dict[str, Score]]:
    """Per system its SSER, aWER and aSER :class:`~metrics.stats.Score` (``metrics.human``
    definitions) from rows already read (or their :func:`human_rows_by_system`), so the
    dashboard reads the judgments once per view. A system has a figure only where a
    judgment enters it."""
    grouped = human_rows_by_system(rows) if by_system is None else by_system
    return {
        system: {m: human.HUMAN_METRICS[m].corpus_score(stats) for m, (_, stats) in mine.items()}
        for system, mine in grouped.items()
    }


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
