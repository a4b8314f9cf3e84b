"""A column of the metrics table as papers print it: ``table.tex`` (LaTeX, booktabs) and
``table.typ`` (Typst).

One metric per table (the download's ``?metric=``; by default the first human column
with figures, as a human evaluation's findings print it, else the first column): its
systems best first, each with its rank group, score and 95% interval, as the dashboard
shows them (two decimals; the estimates' when the page ranks by them). A rule separates
two rank groups, as WMT's findings print their clusters: the systems within one are not
told apart by the column's test. A figure that rests on too few sentences for an
interval says so in the interval's place, as the page does; a system with no figure is
left out. The caption names the corpus, the metric, the test and the figure's signature,
so that a table pasted into a paper says how it was made.

With ``?clusters=wmt`` a human column's groups are WMT's clusters instead (the one-sided
Wilcoxon rank-sum test of the findings: ESA's, ESA z's, MQM's and SSER's, the
dashboard's ``#…-clusters``), so a campaign judged in Appraise or WMT's MQM prints the
clusters WMT published for it; the scores and intervals stay the column's.

Names a lead typed (a corpus's, a system's) go into a document's source, so each is
written so that no name can change the document: LaTeX's ten special characters are
escaped, and Typst reads every cell as a string literal. ``annotation/tests/dashboard/
test_paper.py`` compiles both, names of every special character included, with pdflatex
and Typst.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from annotation.dashboard.table import Cell, MetricsTable
from annotation.dashboard.verdicts import ClusterView
from annotation.formatting import number
from metrics.claims import TOO_FEW
from metrics.significance import UNRANKED


class UnknownMetric(ValueError):
    """A metric the table has no column of (the download answers 400, naming them)."""


@dataclass(frozen=True)
class PaperRow:
    """One system as the paper prints it."""

    group: int
    system: str
    score: str
    interval: str


@dataclass(frozen=True)
class PaperTable:
    """One column of the table, best first, with what its caption says."""

    corpus: str
    metric: str
    label: str
    signature: str
    test: str
    rows: tuple[PaperRow, ...]


def default_metric(table: MetricsTable) -> str:
    """The column a paper's table shows unless asked: the first human column with a
    figure, else the first column."""
    with_figures = [m for m in table.metrics if any(_cell(r.cells, m).figure for r in table.rows)]
    human = [m for m in with_figures if table.infos[m].human]
    return (human or with_figures or list(table.metrics) or [""])[0]


def paper_table(
    table: MetricsTable,
    metric: str | None = None,
    clusters: Sequence[ClusterView] | None = None,
) -> PaperTable:
    """Column ``metric`` of ``table`` (:func:`default_metric` when None), its systems in
    rank group order, best score first within a group. ``clusters``: the dashboard's
    WMT clusters, whose cluster of ``metric`` is the group instead (module doc;
    :class:`UnknownMetric` when there is none of it)."""
    metric = metric or default_metric(table)
    if metric not in table.metrics:
        raise UnknownMetric(f"no column {metric!r}: one of {', '.join(table.metrics)}")
    info = table.infos[metric]
    wmt = None if clusters is None else _clusters_of(clusters, metric)
    cells = [(r.system, _cell(r.cells, metric)) for r in table.rows]
    judged = [(system, c) for system, c in cells if c.figure is not None and c.score is not None]
    groups = {s: c.shown_rank if wmt is None else _cluster(wmt, s) for s, c in judged}
    if info.system_level and wmt is None:  # published figures: nothing to rank them apart by
        groups = dict.fromkeys(groups, 1)
    sign = -1.0 if info.higher_is_better else 1.0

    def order(sc: tuple[str, Cell]) -> tuple[bool, int, float, str]:
        group = groups[sc[0]]  # a system without a WMT cluster last
        last = wmt is not None and group == UNRANKED
        return (last, group, sign * float(sc[1].score or 0.0), sc[0])

    judged.sort(key=order)
    rows = tuple(
        PaperRow(groups[system], system, number(float(c.score or 0.0)), _interval(c))
        for system, c in judged
    )
    signature = next((c.signature for _, c in judged if c.signature), "")
    direction = "higher is better" if info.higher_is_better else "lower is better"
    column = table.tests.get(metric)
    if wmt is not None:
        test = f"WMT's clusters by {wmt.test}; 95% percentile bootstrap intervals; {direction}"
    elif info.system_level:
        test = f"published system-level figures, not ranked apart (no segment scores); {direction}"
    elif column is not None and column.ranks == "too-few":
        test = f"too few judged sentences to rank the systems apart; {direction}"
    elif table.by_estimate and info.human:
        test = f"estimates of the whole corpus, their rank groups and 95% intervals; {direction}"
    else:
        test = (
            f"rank groups by paired bootstrap resampling ({table.n_samples} samples, "
            f"p < {table.alpha:g}); 95% percentile bootstrap intervals; {direction}"
        )
    return PaperTable(table.corpus, metric, info.label or metric, signature, test, rows)


def _clusters_of(clusters: Sequence[ClusterView], metric: str) -> ClusterView:
    """The clusters of ``metric`` among ``clusters``, or :class:`UnknownMetric` naming
    the columns that have some."""
    for view in clusters:
        if view.metric == metric:
            return view
    have = ", ".join(v.metric for v in clusters) or "none in this corpus"
    raise UnknownMetric(f"no WMT clusters of {metric!r}: of {have}")


def _cluster(view: ClusterView, system: str) -> int:
    """The system's cluster (:data:`~metrics.ranksum.UNRANKED` where it has none)."""
    return next((f.cluster for f in view.clusters.figures if f.system == system), UNRANKED)


def _cell(cells: tuple[Cell, ...], metric: str) -> Cell:
    return next(c for c in cells if c.metric == metric)


def _interval(cell: Cell) -> str:
    if cell.too_few:
        return TOO_FEW
    iv = cell.shown_interval
    if iv is None:
        return ""
    return f"[{number(iv.low)}, {number(iv.high)}]"


def _body(paper: PaperTable) -> Iterator[tuple[str, ...]]:
    """The table's rows as cells (rank group, system, score, interval), an empty row
    where a rule separates two rank groups."""
    previous = None
    for row in paper.rows:
        if previous is not None and row.group != previous:
            yield ()
        previous = row.group
        yield (str(row.group), row.system, row.score, row.interval)


def _caption(paper: PaperTable) -> str:
    signature = f" Signature: {paper.signature}." if paper.signature else ""
    return f"{paper.label} of each system on {paper.corpus}: {paper.test}.{signature}"


# ------------------------------------------------------------------ LaTeX

#: LaTeX's special characters in text, and what prints each.
LATEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_text(text: str) -> str:
    """``text`` as LaTeX prints it verbatim (line breaks become spaces)."""
    flat = " ".join(text.split())
    return "".join(LATEX_ESCAPES.get(ch, ch) for ch in flat)


def latex_table(paper: PaperTable) -> str:
    """A ``table`` float with a booktabs ``tabular`` (``\\usepackage{booktabs}``)."""
    lines = [
        f"% {latex_text(paper.corpus)}: {latex_text(paper.metric)} (made by evaltool)",
        "% needs \\usepackage{booktabs}",
        "\\begin{table}[t]",
        "\\centering",
        "\\begin{tabular}{rlrc}",
        "\\toprule",
        f"Rank & System & {latex_text(paper.label)} & 95\\% interval \\\\",
        "\\midrule",
    ]
    for cells in _body(paper):
        lines.append(" & ".join(latex_text(c) for c in cells) + " \\\\" if cells else "\\midrule")
    lines += [
        "\\bottomrule",
        "\\end{tabular}",
        f"\\caption{{{latex_text(_caption(paper))}}}",
        "\\end{table}",
    ]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ Typst


def typst_string(text: str) -> str:
    """``text`` as a Typst string literal (line breaks become spaces)."""
    flat = " ".join(text.split())
    return '"' + flat.replace("\\", "\\\\").replace('"', '\\"') + '"'


def typst_table(paper: PaperTable) -> str:
    """A ``figure`` holding a ``table`` with rules as booktabs draws them."""
    header = ("Rank", "System", paper.label, "95% interval")
    lines = [
        f"// {' '.join(paper.corpus.split())}: {paper.metric} (made by evaltool)",
        "#figure(",
        "  table(",
        "    columns: 4,",
        "    align: (right, left, right, center),",
        "    stroke: none,",
        "    table.hline(),",
        "    table.header(" + ", ".join(f"strong({typst_string(h)})" for h in header) + "),",
        "    table.hline(stroke: 0.5pt),",
    ]
    for cells in _body(paper):
        shown = ", ".join(typst_string(c) for c in cells) if cells else "table.hline(stroke: 0.5pt)"
        lines.append(f"    {shown},")
    lines += [
        "    table.hline(),",
        "  ),",
        f"  caption: {typst_string(_caption(paper))},",
        ")",
    ]
    return "\n".join(lines) + "\n"
