"""``python -m metrics human``: an ESA or MQM campaign's figures per system, with WMT's
rank clusters (:mod:`metrics.protocols`), from a file of its judgments.

    python -m metrics human --protocol esa FILE [--json]
    python -m metrics human --protocol mqm FILE [--taxonomy FILE] [--json]

ESA: one judgment a line, ``system<TAB>segment<TAB>annotator<TAB>score`` (a score from 0
to 100; segments and annotators are any names). The table gives each system's ``esa``
(raw mean) and ``esa_z`` (z-normalised per annotator), its judged candidates, and its
cluster by ``esa_z``, as WMT's findings rank ESA.

MQM: the layout of the public WMT MQM data (Freitag et al. 2021), which ``manage.py
export_mqm`` writes too: a header line naming the columns, of which ``system``,
``seg_id``, ``rater``, ``category`` and ``severity`` are read, then one error a line,
and one ``No-error`` line for a judgment without any. Severities ``Minor`` and ``Major``
(any case) count the taxonomy's points, ``Neutral`` none; WMT's ``Non-translation!`` is
the taxonomy's ``Non-translation``. ``--taxonomy``: a corpus's taxonomy as JSON
(:mod:`metrics.mqm`), WMT's by default. The table gives each system's ``mqm`` (penalty
points per segment, lower is better), its judged candidates and its cluster.

Bad input exits with status 2 and one line naming the file, the line and the problem.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

from metrics.cli import EXIT_BAD_INPUT, OneLineParser
from metrics.estimate_cli import read_score
from metrics.json_out import json_dumps
from metrics.mqm import WMT_SPELLINGS, WMT_TAXONOMY, Taxonomy, taxonomy_from_json
from metrics.protocols import ESA_MAX, ESA_MIN, SystemFigures, esa, esa_z, mqm
from metrics.ratings import Ratings, ratings
from metrics.textfiles import SegmentFileError, display_name, read_segments

MQM_COLUMNS = ("system", "seg_id", "rater", "category", "severity")
NO_ERROR = "no-error"
NEUTRAL = "neutral"


def parser(prog: str) -> argparse.ArgumentParser:
    p = OneLineParser(
        prog=f"{prog} human",
        description="ESA or MQM figures per system with WMT's rank clusters (docs/metrics.md).",
    )
    p.add_argument("--protocol", required=True, choices=("esa", "mqm"))
    p.add_argument("file", metavar="FILE", help="the judgments (see the module's doc)")
    p.add_argument("--taxonomy", metavar="FILE", help="MQM: the taxonomy as JSON (default WMT's)")
    p.add_argument("--json", action="store_true", help="print JSON")
    return p


def read_esa(path: str) -> Ratings:
    """ESA judgments, ``system<TAB>segment<TAB>annotator<TAB>score`` a line."""
    rows: list[tuple[str, str, str, float]] = []
    name = display_name(path)
    for k, text in enumerate(read_segments(path), start=1):
        fields = text.split("\t")
        if len(fields) != 4:
            raise SegmentFileError(
                name, k, f"expected 'system<TAB>segment<TAB>annotator<TAB>score', found "
                f"{len(fields)} field(s)"
            )  # fmt: skip
        score = read_score(fields[3], path, k)
        if not ESA_MIN <= score <= ESA_MAX:
            raise SegmentFileError(name, k, f"score {score:g} is outside {ESA_MIN}–{ESA_MAX}")
        rows.append((fields[0], fields[1], fields[2], score))
    return _ratings(rows, name)


def read_mqm(path: str, taxonomy: Taxonomy) -> Ratings:
    """MQM errors in WMT's layout (module doc), summed per (system, segment, rater)."""
    name = display_name(path)
    lines = read_segments(path)
    if not lines:
        raise SegmentFileError(name, None, "is empty: a header line, then one error a line")
    header = lines[0].split("\t")
    missing = [c for c in MQM_COLUMNS if c not in header]
    if missing:
        raise SegmentFileError(name, 1, f"the header names no {missing[0]!r} column")
    at = {c: header.index(c) for c in MQM_COLUMNS}
    points: dict[tuple[str, str, str], float] = {}
    for k, text in enumerate(lines[1:], start=2):
        fields = text.split("\t")
        if len(fields) != len(header):
            raise SegmentFileError(name, k, f"{len(fields)} fields, the header {len(header)}")
        system, segment, rater, category, severity = (fields[at[c]] for c in MQM_COLUMNS)
        key = (system, segment, rater)
        points[key] = points.get(key, 0.0) + _error_points(category, severity, taxonomy, name, k)
    return _ratings([(*key, total) for key, total in points.items()], name)


def _error_points(category: str, severity: str, taxonomy: Taxonomy, name: str, k: int) -> float:
    if category.lower() == NO_ERROR or severity.lower() in (NO_ERROR, NEUTRAL):
        return 0.0
    try:
        return taxonomy.points(severity.lower(), WMT_SPELLINGS.get(category, category))
    except ValueError as exc:
        raise SegmentFileError(name, k, str(exc)) from None


def _ratings(rows: Sequence[tuple[str, str, str, float]], name: str) -> Ratings:
    """:class:`Ratings` of (system, segment, annotator, value) rows, segments numbered in
    order of first appearance."""
    if not rows:
        raise SegmentFileError(name, None, "holds no judgment")
    segments: dict[str, int] = {}
    for _, segment, _, _ in rows:
        segments.setdefault(segment, len(segments))
    return ratings(
        [r[0] for r in rows],
        [segments[r[1]] for r in rows],
        [r[2] for r in rows],
        [r[3] for r in rows],
        len(segments),
    )


def figures(args: argparse.Namespace) -> tuple[list[SystemFigures], SystemFigures]:
    """The figures to print, and the one the clusters rank by."""
    if args.protocol == "esa":
        r = read_esa(args.file)
        normalised = esa_z(r)
        return [esa(r), normalised], normalised
    taxonomy = WMT_TAXONOMY
    if args.taxonomy:
        try:
            taxonomy = taxonomy_from_json(json.loads("\n".join(read_segments(args.taxonomy))))
        except json.JSONDecodeError as exc:
            raise SegmentFileError(display_name(args.taxonomy), exc.lineno, exc.msg) from None
        except ValueError as exc:
            raise SegmentFileError(display_name(args.taxonomy), None, str(exc)) from None
    points = mqm(read_mqm(args.file, taxonomy))
    return [points], points


def as_json(shown: list[SystemFigures], ranked: SystemFigures) -> dict[str, Any]:
    clusters = ranked.clusters()
    return {
        "systems": [
            {
                "system": system,
                **{f.info.name: f.values[k] for f in shown},
                "items": ranked.items[k],
                "cluster": clusters.figures[k].cluster,
            }
            for k, system in enumerate(ranked.systems)
        ],
        "clusters": {
            "by": ranked.info.name,
            "test": clusters.test.rstrip(","),
            "alpha": clusters.alpha,
            "min_common": clusters.min_common,
            "too_few": clusters.too_few,
        },
    }


def table(shown: list[SystemFigures], ranked: SystemFigures) -> str:
    """One line per system, best first by the ranked figure (its clusters' order)."""
    clusters = ranked.clusters()
    width = max(6, *(len(s) for s in ranked.systems))
    head = f"{'system':<{width}}" + "".join(f"{f.info.name:>10}" for f in shown)
    lines = [head + f"{'items':>8}{'cluster':>9}"]
    for figure in clusters.ranked():
        k = ranked.systems.index(figure.system)
        values = "".join(
            f"{'–' if math.isnan(f.values[k]) else format(f.values[k], '.3f'):>10}" for f in shown
        )
        lines.append(
            f"{figure.system:<{width}}{values}{ranked.items[k]:>8}{figure.cluster or '–':>9}"
        )
    lines.append("")
    lines.append(
        f"clusters by {ranked.info.name}: {clusters.test} p < {clusters.alpha:g} on at least "
        f"{clusters.min_common} segments in common"
        + (" (no two systems have as many: one cluster)" if clusters.too_few else "")
    )
    return "\n".join(lines)


def main(argv: Sequence[str], prog: str) -> int:
    p = parser(prog)
    args = p.parse_args(argv)
    try:
        shown, ranked = figures(args)
    except (SegmentFileError, ValueError, OSError) as exc:
        print(f"{p.prog}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json_dumps(as_json(shown, ranked)))
    else:
        print(table(shown, ranked))
    return 0
