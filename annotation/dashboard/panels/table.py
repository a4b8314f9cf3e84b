"""The table panel: every metric per system with its interval and rank group, what the
figures say, SSER clustered as WMT does and per judge, and the column headings whose
links sort the table (the server sorts it: :func:`~annotation.dashboard.table.
sort_rows`)."""

from __future__ import annotations

from dataclasses import dataclass

from annotation.dashboard.figures import judge_aware, judged, significance, table
from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.parts import Parts, Pending, panel
from annotation.dashboard.pool import ReferenceCounts
from annotation.dashboard.sources import columns, grown_pool, imported
from annotation.dashboard.table import MetricsTable
from annotation.dashboard.verdicts import ClusterView, JudgeAwareView, Line, verdict_line
from annotation.statistics import ExternalFigures
from metrics.stats import FAMILIES


@dataclass(frozen=True)
class Heading:
    """A column's heading: its label, the link that sorts by it (best first, or worst
    first when it is the current sort already), the current sort direction
    (``aria-sort``), and for an imported metric its description."""

    metric: str
    label: str
    higher: bool
    href: str
    aria_sort: str
    human: bool
    family: str
    imported: bool
    description: str
    ranks: str
    note: str


@dataclass(frozen=True)
class Family:
    """A family's heading above its columns, and how many columns it spans."""

    family: str
    label: str
    span: int


@dataclass(frozen=True)
class TablePanel:
    table: MetricsTable
    columns: tuple[Heading, ...]
    families: tuple[Family, ...]
    verdicts: tuple[Line, ...]
    clusters: ClusterView | None
    #: A corpus judged by error spans: WMT's clusters of each of its human figures.
    protocol_clusters: tuple[ClusterView, ...]
    judge_aware: JudgeAwareView | None
    #: The grown pool's reference counts (None: the original references are chosen).
    pool: ReferenceCounts | None
    #: Whether the corpus has imported metrics (the panel says where they come from).
    imported: bool


@panel("table", title="Table", anchor="table-panel")
def table_panel(parts: Parts) -> TablePanel | Pending:
    found, tests = parts.get(table), parts.get(significance)
    if isinstance(found, Pending):
        return found
    if isinstance(tests, Pending):
        return tests
    pool, external = parts.get(grown_pool), parts.get(imported)
    headings = column_headings(parts.inputs, found, external)
    human_part = parts.get(judged)
    clusters = human_part.clusters
    return TablePanel(
        table=found,
        columns=headings,
        families=family_headings(headings),
        verdicts=tuple(
            verdict_line(tests[m], info) for m, info in parts.get(columns).items() if m in tests
        ),
        clusters=None if clusters is None else ClusterView(clusters),
        protocol_clusters=human_part.protocol_clusters,
        judge_aware=parts.get(judge_aware),
        pool=None if pool is None or isinstance(pool, Pending) else pool.counts,
        imported=bool(external.metrics),
    )


def column_headings(
    inputs: DashboardInputs, found: MetricsTable, external: ExternalFigures
) -> tuple[Heading, ...]:
    """The table's column headings, in the table's order."""
    descriptions = {m.name: m.description for m in external.metrics}
    sort = inputs.sort
    worst_first = sort.startswith("-")
    out = []
    for m, info in found.infos.items():
        test = found.tests.get(m)
        higher = info.higher_is_better
        current = sort.lstrip("-") == m
        aria = "none"
        if current:
            # best first is ascending for an error rate, descending for BLEU/NIST
            aria = "descending" if higher != worst_first else "ascending"
        out.append(
            Heading(
                metric=m,
                label=info.label,
                higher=higher,
                href=inputs.query(sort=f"-{m}" if current and not worst_first else m),
                aria_sort=aria,
                human=info.human,
                family=info.family,
                imported=info.family == "external",
                description=descriptions.get(m, ""),
                ranks=test.ranks if test is not None else "",
                note=test.note if test is not None else "",
            )
        )
    return tuple(out)


def family_headings(headings: tuple[Heading, ...]) -> tuple[Family, ...]:
    """The heading row above the columns: each family and how many columns it spans
    (the columns stand grouped, :func:`~annotation.dashboard.table.table_columns`)."""
    out: list[Family] = []
    for h in headings:
        if out and out[-1].family == h.family:
            out[-1] = Family(h.family, out[-1].label, out[-1].span + 1)
        else:
            out.append(Family(h.family, FAMILIES[h.family], 1))
    return tuple(out)
