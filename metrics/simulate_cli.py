"""``python -m metrics simulate``: replay judging policies on a complete human-score file
(:mod:`metrics.simulate`).

    python -m metrics simulate --human FILE [--auto FILE …] [--policy random,adaptive] \\
        [--budgets 10,20,40,60,80] [--repetitions 20] [--seed 0] [--confidence 0.95] \\
        [--alpha 0.05] [--json]
    python -m metrics simulate --synthetic 20 [--segments 1000] …

``--human`` is a tab-separated file (gzip or plain) whose first line names its columns:
``segment``, ``system`` and ``score`` are needed, ``annotator`` and ``document`` are
optional; every other column is ignored. One line per judgment: with an ``annotator``
column a segment's system may have several (its score is their mean, and it costs that
many judgments). MQM's ``*.avg_seg_scores.tsv`` files (``system mqm_avg_score seg_id``,
space-separated, "None" where a score is missing) are read as they are. Only segments
every system has a score on are replayed. With a ``document`` column, documents are the
strata of the random draws and of the estimates.

Each ``--auto`` file is tab-separated with a first line ``segment system NAME …``: one
column per automatic metric, used as covariates. Segments some covariate lacks for some
system are left out (the output says how many).

``--budgets`` are percentages of all judgments. ``--synthetic N`` replays a simulated
campaign of N systems instead (:func:`metrics.simulated_campaign.synthetic_campaign`). Bad input
exits with status 2 and one line naming the file, the line and the problem.

JSON (``--json``)::

    {"systems", "segments", "judgments", "pairs", "decided_with_all_data", "repetitions",
     "seed", "confidence", "alpha", "policies": {…},
     "budgets": [{"policy", "budget", "judgments", "share", "agreement", "agreement_se",
                  "wrong", "coverage", "coverage_se", "least_probability", "saved",
                  "saved_is_bound"}, …],
     "notes": [...]}
"""

from __future__ import annotations

import argparse
import gzip
import math
from collections.abc import Sequence

import numpy as np

from metrics.cli import OneLineParser, refused
from metrics.estimate import DEFAULT_CONFIDENCE
from metrics.json_out import json_dumps
from metrics.numerals import float_option
from metrics.segment_scores import score_value
from metrics.simulate import (
    DEFAULT_ALPHA,
    DEFAULT_BUDGETS,
    DEFAULT_REPETITIONS,
    POLICIES,
    Campaign,
    Simulation,
    simulate,
)
from metrics.simulated_campaign import synthetic_campaign
from metrics.strata import document_codes
from metrics.textfiles import SegmentFileError, decode_segments, display_name, read_bytes

#: The columns of MQM's per-segment averages, read as ``system score segment``.
MQM_AVERAGES = ("system", "mqm_avg_score", "seg_id")
NEEDED = ("segment", "system", "score")


def parser(prog: str) -> argparse.ArgumentParser:
    p = OneLineParser(
        prog=f"{prog} simulate",
        description=(
            "Replay judging policies on a complete human-score file: per budget, the share "
            "of system pairs decided as with all the data, the intervals' coverage and the "
            "judgments saved against stratified random (docs/simulate.md)."
        ),
    )
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--human", metavar="FILE", help="segment, system, [annotator,] score")
    source.add_argument(
        "--synthetic", type=int, metavar="SYSTEMS", help="replay a simulated campaign instead"
    )
    p.add_argument(
        "--segments", type=int, default=1000, help="segments of --synthetic (default 1000)"
    )
    p.add_argument(
        "--auto",
        action="append",
        default=[],
        metavar="FILE",
        help="automatic scores: 'segment system NAME …' (repeatable)",
    )
    p.add_argument(
        "--policy",
        default=",".join(POLICIES),
        help=f"comma-separated, of {', '.join(POLICIES)} (default both)",
    )
    p.add_argument(
        "--budgets",
        type=budget_list,
        default=DEFAULT_BUDGETS,
        help="percentages of all judgments (default "
        + ",".join(f"{b * 100:g}" for b in DEFAULT_BUDGETS)
        + ")",
    )
    p.add_argument("--repetitions", type=int, default=DEFAULT_REPETITIONS)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--confidence", type=float_option, default=DEFAULT_CONFIDENCE)
    p.add_argument("--alpha", type=float_option, default=DEFAULT_ALPHA)
    p.add_argument("--json", action="store_true", help="print JSON")
    return p


def budget_list(text: str) -> tuple[float, ...]:
    """``10,20,40`` as shares (0.1, 0.2, 0.4), each in (0, 100] percent."""
    try:
        values = tuple(float(v) / 100.0 for v in text.split(","))
    except ValueError:
        values = ()
    if not values or not all(0.0 < v <= 1.0 for v in values):
        raise argparse.ArgumentTypeError(f"{text!r}: percentages in (0, 100], comma-separated")
    return values


def read_lines(path: str) -> list[str]:
    """A file's lines, gunzipped when it is gzip."""
    name = display_name(path)
    data = read_bytes(path)
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise SegmentFileError(name, None, f"is not valid gzip ({exc})") from None
    lines = [line for line in decode_segments(data, name) if line.strip()]
    if not lines:
        raise SegmentFileError(name, None, "is empty")
    return lines


def _columns(head: str, path: str, needed: Sequence[str]) -> tuple[dict[str, int], str]:
    """Where each column is and what separates them: tabs, or the spaces of MQM's
    averages (renamed to ``system score segment``)."""
    if tuple(head.split()) == MQM_AVERAGES:
        return {"system": 0, "score": 1, "segment": 2}, " "
    columns = {name.strip(): k for k, name in enumerate(head.split("\t"))}
    missing = [c for c in needed if c not in columns]
    if missing:
        raise SegmentFileError(
            display_name(path), 1, f"no {missing[0]!r} column (the first line names the columns)"
        )
    return columns, "\t"


def _fields(line: str, sep: str, width: int, path: str, k: int) -> list[str]:
    fields = line.split() if sep == " " else line.split("\t")
    if len(fields) < width:
        raise SegmentFileError(display_name(path), k, f"{len(fields)} field(s), expected {width}")
    return fields


def read_campaign(human: str, autos: Sequence[str]) -> Campaign:
    """The campaign of a human-score file and its automatic score files (module doc)."""
    lines = read_lines(human)
    columns, sep = _columns(lines[0], human, NEEDED)
    width = max(columns.values()) + 1
    cells: dict[tuple[str, str], list[float]] = {}
    documents: dict[str, str] = {}
    segments: dict[str, None] = {}
    systems: dict[str, None] = {}
    for k, line in enumerate(lines[1:], start=2):
        fields = _fields(line, sep, width, human, k)
        segment, system = fields[columns["segment"]], fields[columns["system"]]
        text = fields[columns["score"]]
        segments.setdefault(segment)
        systems.setdefault(system)
        if "document" in columns:
            documents[segment] = fields[columns["document"]]
        if text == "None":
            continue
        try:
            value = score_value(text)
        except ValueError as exc:
            raise SegmentFileError(display_name(human), k, str(exc)) from None
        cells.setdefault((segment, system), []).append(value)
    covariates: dict[str, dict[tuple[str, str], float]] = {}
    for path in autos:
        covariates.update(_read_auto(path, covariates))
    return _assemble(list(systems), list(segments), cells, documents, covariates)


def _read_auto(
    path: str, seen: dict[str, dict[tuple[str, str], float]]
) -> dict[str, dict[tuple[str, str], float]]:
    lines = read_lines(path)
    head = lines[0].split("\t")
    if head[:2] != ["segment", "system"] or len(head) < 3:
        raise SegmentFileError(
            display_name(path), 1, "expected the columns 'segment<TAB>system<TAB>NAME …'"
        )
    names = [n.strip() for n in head[2:]]
    twice = [n for n in names if n in seen or names.count(n) > 1]
    if twice:
        raise SegmentFileError(display_name(path), 1, f"metric {twice[0]!r} is given twice")
    out: dict[str, dict[tuple[str, str], float]] = {n: {} for n in names}
    for k, line in enumerate(lines[1:], start=2):
        fields = _fields(line, "\t", len(head), path, k)
        for name, text in zip(names, fields[2:], strict=False):
            try:
                out[name][(fields[0], fields[1])] = score_value(text)
            except ValueError as exc:
                raise SegmentFileError(display_name(path), k, str(exc)) from None
    return out


def _assemble(
    systems: list[str],
    segments: list[str],
    cells: dict[tuple[str, str], list[float]],
    documents: dict[str, str],
    covariates: dict[str, dict[tuple[str, str], float]],
) -> Campaign:
    notes = []
    complete = [g for g in segments if all((g, s) in cells for s in systems)]
    if len(complete) < len(segments):
        notes.append(
            f"{len(segments) - len(complete)} segment(s) without every system's score left out"
        )
    covered = [
        g for g in complete if all((g, s) in c for c in covariates.values() for s in systems)
    ]
    if len(covered) < len(complete):
        notes.append(f"{len(complete) - len(covered)} segment(s) some covariate lacks left out")
    if len(covered) < 4:
        raise ValueError(f"{len(covered)} segment(s) with every system's scores: too few")
    human = np.array([[float(np.mean(cells[(g, s)])) for g in covered] for s in systems])
    costs = np.array([[len(cells[(g, s)]) for g in covered] for s in systems], dtype=np.int64)
    names = tuple(covariates)
    z = np.array(
        [[[covariates[m][(g, s)] for m in names] for g in covered] for s in systems]
    ).reshape(len(systems), len(covered), len(names))
    codes = document_codes([documents[g] for g in covered]) if documents else None
    return Campaign(tuple(systems), human, z, names, codes, costs, tuple(notes))


def table(result: Simulation, metrics: Sequence[str]) -> str:
    """One line per policy and budget."""
    lines = [
        f"{result.systems} systems × {result.segments} segments = {result.judgments} "
        f"judgments; {result.pairs} pairs, {result.decided} ordered by all the data; "
        f"{result.repetitions} repetitions, seed {result.seed}",
        f"covariates: {', '.join(metrics) if metrics else 'none'}",
        "",
        f"{'policy':<9}{'budget':>7}{'used':>8}{'agree':>16}{'wrong':>7}"
        f"{'coverage':>17}{'least π':>10}{'saved':>8}",
    ]
    for row in result.rows:
        saved = "" if row.saved is None else f"{'≥' if row.saved_is_bound else ''}{row.saved:.0%}"
        lines.append(
            f"{row.policy:<9}{row.budget:>7.0%}{row.share:>8.1%}"
            f"{_with_error(row.agreement, row.agreement_se):>16}{row.wrong:>7.1%}"
            f"{_with_error(row.coverage, row.coverage_se):>17}"
            f"{row.least_probability:>10.3g}{saved:>8}"
        )
    lines.append("")
    lines.append(
        "agree: share of pairs decided (p < alpha) in the order all the data give; wrong: "
        "decided the other way; coverage: of the full-data system means by the "
        f"{result.confidence:g} intervals (± standard errors over the repetitions); least π: "
        "the smallest inclusion probability of a segment of a system or pair; saved: "
        "judgments saved against random for the same agreement (≥: random never got there)."
    )
    lines.extend(result.notes)
    return "\n".join(lines)


def _with_error(value: float, se: float) -> str:
    return f"{value:.1%}" if math.isnan(se) else f"{value:.1%} ± {se:.1%}"


def main(argv: Sequence[str], prog: str) -> int:
    p = parser(prog)
    args = p.parse_args(argv)
    policies = [name.strip() for name in args.policy.split(",") if name.strip()]
    try:
        if args.synthetic is not None:
            if args.auto:
                raise ValueError("--auto goes with --human: the simulated campaign has its own")
            campaign = synthetic_campaign(args.synthetic, args.segments, seed=args.seed)
        else:
            campaign = read_campaign(args.human, args.auto)
        result = simulate(
            campaign,
            policies=policies,
            budgets=args.budgets,
            repetitions=args.repetitions,
            seed=args.seed,
            confidence=args.confidence,
            alpha=args.alpha,
        )
    except (SegmentFileError, ValueError, OSError) as exc:
        return refused(p.prog, exc)
    if args.json:
        print(json_dumps({**result.as_json(), "covariates": list(campaign.metrics)}))
    else:
        print(table(result, campaign.metrics))
    return 0
