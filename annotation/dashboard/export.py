"""The metrics table as files: ``table.json`` (``manage.py scores --json``'s shape, built
by :func:`annotation.statistics.scores.scores_json`, plus the bootstrap's figures, at full
precision) and ``table.csv`` (the figures rounded as the table shows them: a spreadsheet
should not suggest more digits than the page claims; the JSON keeps them all)."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from typing import Any

from annotation.dashboard.estimates import Estimates
from annotation.dashboard.meta import COEFFICIENTS, MIN_JUDGED, MetaEvaluation
from annotation.dashboard.table import Cell, MetricsTable, too_few_note
from annotation.dashboard.verdicts import ClusterView, JudgeAwareView, Line
from annotation.formatting import number, spreadsheet_safe
from annotation.statistics import effects_json, scores_json
from metrics import claims
from metrics.claims import TOO_FEW
from metrics.json_out import json_dumps
from metrics.ranking import MetricSignificance
from metrics.significance import DEFAULT_SAMPLES, DEFAULT_SEED, UNRANKED


def figure_json(cell: Cell) -> dict[str, Any]:
    """A figure of ``table.json``: :meth:`~metrics.stats.Score.as_json` (``score``,
    ``signature``), then its ``rank``, 95% ``ci`` [low, high] (``null`` where undefined,
    and as a whole where the figure rests on too few sentences for one), the sentences
    ``n`` it rests on, ``too_few`` (the page's "too few judged sentences (n = 2)", ""
    when there are enough: :mod:`metrics.claims`) and the ``bootstrap`` signature;
    against the grown pool (``refs=pool``) an automatic figure's ``place`` in its
    metric's ranking against the ``original`` references and against the ``pool`` (1 =
    best; 0: no figure)."""
    if cell.figure is None:
        raise ValueError(f"{cell.metric}: a cell without a figure has no JSON")
    iv = cell.interval
    shift = cell.shift
    ci = None
    if not cell.too_few:
        ci = [iv.low if iv else None, iv.high if iv else None]  # json_dumps: no NaN
    return {
        **cell.figure.as_json(),
        "rank": cell.rank,
        "ci": ci,
        "n": cell.n,
        "too_few": cell.too_few,
        "bootstrap": cell.bootstrap,
        **({"place": {"original": shift.before, "pool": shift.after}} if shift else {}),
    }


def table_json(
    table: MetricsTable,
    verdicts: Sequence[Line] = (),
    clusters: ClusterView | None = None,
    estimates: Estimates | None = None,
    judge_aware: JudgeAwareView | None = None,
    protocol_clusters: Sequence[ClusterView] = (),
) -> dict[str, Any]:
    """``manage.py scores --json``'s shape — ``{"corpus", "translators": {system: {metric:
    {"score", "signature"}}}}``, the same numbers — plus per figure its bootstrap figures
    (:func:`figure_json`), and at the top the preprocessing, the test, what each
    column's test can claim (``metrics``: ``ranks`` "earned" or "too-few", ``n``, the
    ``verdict`` line, ``higher_is_better``, and ``imported``: true for a metric a lead
    imported) and WMT's clusters of SSER (``clusters``; of a span protocol's figures,
    ``protocol_clusters``, under their names). Missing figures are left out,
    as ``manage.py scores`` does.

    With ``estimates``, each human figure also carries its ``estimate`` of the whole
    corpus (:meth:`~annotation.dashboard.estimates.SystemEstimate.as_json`: mean, 95%
    interval, rank group by the estimates, the judged sentences' plain mean, the
    covariates with their correlations; ``null`` where the figure's ``too_few`` says it
    rests on too few judged sentences), ``estimates`` at the top says how they were
    made, and ``rank_by`` which ranks the page's human columns show ("bootstrap" or
    "estimate"); a figure's own ``score``, ``rank`` and ``ci`` stay the judged
    sentences' either way.

    With ``judge_aware``, ``annotators`` holds SSER raw and z-normalised per judge with
    their intervals and ranks, and each judge's effect (:func:`judge_aware_json`)."""
    lines = {v.metric: v.text for v in verdicts}
    extra: dict[str, Any] = {}
    shown = [*([] if clusters is None else [clusters]), *protocol_clusters]
    if shown:
        extra["clusters"] = {view.metric: clusters_json(view) for view in shown}
    if judge_aware is not None:
        extra["annotators"] = judge_aware_json(judge_aware)
    if estimates is not None:
        extra["estimates"] = estimates.as_json()
        extra["rank_by"] = "estimate" if table.by_estimate else "bootstrap"

    def figure(system: str, cell: Cell) -> dict[str, Any]:
        out = figure_json(cell)
        found = None if estimates is None else estimates.get(cell.metric, system)
        if found is not None:
            out["estimate"] = found.as_json()
        elif estimates is not None and cell.is_human:
            out["estimate"] = None
        return out

    return scores_json(
        table.corpus,
        {
            row.system: {c.metric: figure(row.system, c) for c in row.cells if c.figure is not None}
            for row in table.rows
        },
        preprocessing=table.preprocessing.params(),
        significance={
            "test": "paired-bs",
            "samples": table.n_samples,
            "seed": table.seed,
            "alpha": table.alpha,
            "ci": "95% percentile bootstrap",
            "min_common": table.min_common,
        },
        metrics={
            m: {
                "ranks": t.ranks,
                "n": t.n,
                **({"verdict": lines[m]} if m in lines else {}),
                "higher_is_better": table.infos[m].higher_is_better,
                "imported": table.infos[m].family == "external",
            }
            for m, t in table.tests.items()
        },
        **extra,
    )


def clusters_json(view: ClusterView) -> dict[str, Any]:
    """WMT's clusters: the test, and per system (best first) its cluster (none: not
    clustered), mean (``mean_z`` for SSER's, of z-scores) and judged sentences."""
    return {
        "test": view.test,
        "ranks": "too-few" if view.too_few else "earned",
        "systems": {
            f.system: {
                "cluster": f.cluster if f.cluster != UNRANKED else None,
                ("mean_z" if view.metric == "sser" else "mean"): f.mean,
                "n": f.n,
            }
            for f in view.ranked
        },
    }


def judge_aware_json(view: JudgeAwareView) -> dict[str, Any]:
    """``table.json``'s ``annotators`` (``manage.py scores --json``'s keys, and more):
    ``{"judges", "items", "twice", "sser": {"raw": …, "z": …}, "effects": {judge: …}}``,
    each of ``raw`` and ``z`` with its ``signature``, ``ranks`` ("earned" or "too-few"),
    ``verdict`` line and per system ``{"score", "ci", "rank", "n", "too_few"}`` (``ci``
    null on too few judged sentences), the effects as
    :func:`~annotation.statistics.effects_json` writes them (points of the 0–10 score)."""
    found = view.figures
    raw_line, z_line = view.lines
    return {
        "judges": found.judges,
        "items": found.items,
        "twice": found.twice,
        "sser": {
            "raw": _judge_aware_figures(found.raw, raw_line),
            "z": _judge_aware_figures(found.z, z_line),
        },
        "effects": effects_json(found.effects),
    }


def _judge_aware_figures(significance: MetricSignificance, line: Line) -> dict[str, Any]:
    systems = {}
    for f in significance.figures:
        if not f.n:
            continue
        note = too_few_note(f.n) if claims.too_few(f.n) else ""
        systems[f.system] = {
            "score": f.score,
            "ci": None if note else [f.interval.low, f.interval.high],
            "rank": 1 if significance.too_few else f.group,
            "n": f.n,
            "too_few": note,
        }
    return {
        "signature": significance.signature,
        "ranks": "too-few" if significance.too_few else "earned",
        "verdict": line.text,
        "systems": systems,
    }


def json_text(
    table: MetricsTable,
    verdicts: Sequence[Line] = (),
    clusters: ClusterView | None = None,
    estimates: Estimates | None = None,
    judge_aware: JudgeAwareView | None = None,
    protocol_clusters: Sequence[ClusterView] = (),
) -> str:
    """``table.json``'s text (:func:`table_json`; a number that is not finite is null)."""
    return json_dumps(
        table_json(table, verdicts, clusters, estimates, judge_aware, protocol_clusters)
    )


def table_csv(table: MetricsTable) -> str:
    """One row per system; per metric its score, rank, interval (rounded as the table
    shows them: :func:`annotation.formatting.number`'s two decimals; ``table.json`` has
    them at full precision), the sentences it rests on and its signature. Empty where
    there is no figure; the interval's two cells say "too few" (:data:`metrics.claims.
    TOO_FEW`) where the figure rests on too few sentences for one, as the page does."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["system"]
    for m in table.metrics:
        header += [m, f"{m}_rank", f"{m}_ci_low", f"{m}_ci_high", f"{m}_n", f"{m}_signature"]
    writer.writerow(header)
    for row in table.rows:
        line = [spreadsheet_safe(row.system)]
        for c in row.cells:
            line += _csv_cells(c)
        writer.writerow(line)
    return out.getvalue()


def _csv_cells(cell: Cell) -> list[str]:
    if cell.figure is None:
        return ["", "", "", "", "", ""]
    iv = cell.shown_interval
    low, high = (
        (TOO_FEW, TOO_FEW)
        if cell.too_few
        else (_shown(iv.low if iv else None), _shown(iv.high if iv else None))
    )
    return [
        _shown(cell.score),
        str(cell.rank_attr),
        low,
        high,
        str(cell.n),
        spreadsheet_safe(cell.signature),
    ]


#: What a spreadsheet takes for the start of a formula (OWASP, "CSV injection").
def _shown(v: float | None) -> str:
    """A number as the table shows it (two decimals), "" if undefined."""
    return "" if v is None or not math.isfinite(v) else number(v)


def meta_json(corpus: str, preprocessing: dict[str, str], meta: MetaEvaluation) -> dict[str, Any]:
    """The meta-evaluation panel as data, at full precision: per automatic metric (its
    scores' ``signature``), human figure and level, each coefficient the cell shows
    (``pearson``, ``kendall``, and at system level ``pairwise_accuracy`` and
    ``soft_pairwise_accuracy``) as ``{"value", "n", "ci": [low, high]}`` (``null``
    where undefined or not computed) and ``too_few`` (the page's note, "" if none;
    with a note, every ``value`` and ``ci`` is ``null``, as the page shows none);
    ``none``: at sentence level, why there is no correlation at all (a human figure of
    system-level scores only, :data:`~annotation.dashboard.meta.NO_SENTENCE_LEVEL`), ""
    otherwise."""
    rows: list[dict[str, Any]] = []
    for row in meta.grid:
        by_place: dict[tuple[str, str], dict[str, Any]] = {}
        for c in row["cells"]:
            entry = by_place.setdefault(
                (c["human"], c["level"]),
                {
                    "metric": row["metric"],
                    "signature": meta.signatures.get(row["metric"], ""),
                    "human": c["human"],
                    "level": c["level"],
                    "too_few": c["too_few"],
                    "none": c["none"],
                },
            )
            shown = c["interval"] != ""
            entry[c["coef"]] = {
                "value": c["value"],
                "n": c["n"],
                "ci": [c["ci_low"], c["ci_high"]] if shown else None,
            }
        rows.extend(by_place.values())
    return {
        "corpus": corpus,
        "preprocessing": preprocessing,
        "normalized": meta.normalize,
        "coefficients": list(COEFFICIENTS),
        "intervals": {
            "resampling": "bootstrap over sentences",
            "samples": DEFAULT_SAMPLES,
            "seed": DEFAULT_SEED,
            "ci": "95% percentile bootstrap",
            "min_judged": MIN_JUDGED,
        },
        "correlations": rows,
    }


def meta_json_text(corpus: str, preprocessing: dict[str, str], meta: MetaEvaluation) -> str:
    """``meta.json``'s text (:func:`meta_json`; a number that is not finite is null)."""
    return json_dumps(meta_json(corpus, preprocessing, meta))
