"""``python -m metrics estimate``: a system's full-corpus human score from its judged
segments, with automatic metrics as control variates (:mod:`metrics.estimate`).

    python -m metrics estimate --human FILE --auto NAME=FILE [--auto NAME=FILE …] \\
        [--docs FILE] [--confidence 0.95] [--range LOW:HIGH] [--json]

``--human`` is a TSV of the judged segments only, one per line: ``segment index
(0-based) <TAB> score``. Each ``--auto`` file has one score per corpus segment, one per
line (the corpus is as long as these files); ``--docs`` one document id per corpus
segment, which makes documents strata; ``--range`` the range the human scores lie in,
which the intervals are cut to (:func:`metrics.claims.within`). On fewer judged segments
than :data:`metrics.claims.MIN_SENTENCES` (10) the command gives the plain mean of what
was judged and says "too few judged segments (n = 3)" where the intervals and the
estimate would be (JSON: ``null``, and the words in ``too_few``). Bad input exits with
status 2 and one line naming the file, the line and the problem.

JSON (``--json``)::

    {"plain": {"mean", "low", "high", "n"},
     "estimate": {"mean", "low", "high", "n", "method", "variance_ratio",
                  "candidate_variance_ratio", "df", "strata",
                  "covariates": {"<NAME>": {"coefficient", "correlation"}, …}},
     "corpus_size": N, "confidence": 0.95, "too_few": ""}
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence

from metrics.claims import MIN_SENTENCES, TOO_FEW, UNBOUNDED
from metrics.cli import OneLineParser, refused
from metrics.estimate import DEFAULT_CONFIDENCE, Estimate, estimate_mean
from metrics.json_out import json_dumps
from metrics.numerals import float_option, whole_number
from metrics.segment_scores import score_value
from metrics.textfiles import SegmentFileError, display_name, read_segments


def parser(prog: str) -> argparse.ArgumentParser:
    p = OneLineParser(
        prog=f"{prog} estimate",
        description=(
            "Estimate a system's mean human score over the whole corpus from its judged "
            "segments, with automatic metrics as control variates (docs/metrics.md)."
        ),
    )
    p.add_argument(
        "--human",
        required=True,
        metavar="FILE",
        help="the judged segments: 'segment index (0-based) <TAB> score' per line",
    )
    p.add_argument(
        "--auto",
        action="append",
        required=True,
        metavar="NAME=FILE",
        help="an automatic metric's score of every corpus segment, one per line (repeatable)",
    )
    p.add_argument(
        "--docs", metavar="FILE", help="document id of every corpus segment: documents as strata"
    )
    p.add_argument(
        "--confidence",
        type=float_option,
        default=DEFAULT_CONFIDENCE,
        help=f"of the intervals (default {DEFAULT_CONFIDENCE})",
    )
    p.add_argument(
        "--range",
        metavar="LOW:HIGH",
        type=range_option,
        default=UNBOUNDED,
        help="the range the human scores lie in (0:100 for SSER error): the intervals are cut "
        "to it",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    return p


def range_option(value: str) -> tuple[float, float]:
    """``LOW:HIGH`` as (low, high), low below high (either end may be ``inf``)."""
    low, sep, high = value.partition(":")
    try:
        bounds = (float(low), float(high))
    except ValueError:
        bounds = (math.nan, math.nan)
    if not sep or not bounds[0] < bounds[1]:
        raise argparse.ArgumentTypeError(f"{value!r}: expected LOW:HIGH with LOW below HIGH")
    return bounds


def auto_option(value: str) -> tuple[str, str]:
    """``NAME=FILE`` as (name, path)."""
    name, sep, path = value.partition("=")
    if not sep or not name.strip() or not path:
        raise ValueError(f"--auto {value!r}: expected NAME=FILE")
    return name.strip(), path


def read_score(text: str, path: str, line: int) -> float:
    """A score from one line of a file (:func:`~metrics.segment_scores.score_value`, the
    rule of every score file), or a refusal naming the line."""
    try:
        return score_value(text.strip())
    except ValueError as exc:
        raise SegmentFileError(display_name(path), line, str(exc)) from None


def read_auto_scores(path: str) -> list[float]:
    """One score per line, every line one."""
    lines = read_segments(path)
    if not lines:
        raise SegmentFileError(display_name(path), None, "is empty: one score per corpus segment")
    return [read_score(text, path, k) for k, text in enumerate(lines, start=1)]


def read_judged(path: str, corpus_size: int, sizes_from: str) -> tuple[list[int], list[float]]:
    """The judged segments' indices and scores from ``index<TAB>score`` lines; every index a
    corpus segment (``sizes_from`` says which file set the corpus size), none twice."""
    indices: list[int] = []
    scores: list[float] = []
    seen: dict[int, int] = {}
    name = display_name(path)
    for k, text in enumerate(read_segments(path), start=1):
        fields = text.split("\t")
        if len(fields) != 2:
            raise SegmentFileError(
                name, k, f"expected 'segment index<TAB>score', found {len(fields)} field(s)"
            )
        try:
            index = whole_number(fields[0])
        except ValueError:
            raise SegmentFileError(
                name, k, f"segment index {fields[0]!r} is not a whole number"
            ) from None
        if index < 0:
            raise SegmentFileError(name, k, f"segment index {index} is negative (0-based)")
        if index >= corpus_size:
            raise SegmentFileError(
                name,
                k,
                f"segment index {index} is past the corpus's last segment, {corpus_size - 1} "
                f"({sizes_from} has {corpus_size} lines; indices are 0-based)",
            )
        if index in seen:
            raise SegmentFileError(
                name, k, f"segment {index} is already scored on line {seen[index]}"
            )
        seen[index] = k
        indices.append(index)
        scores.append(read_score(fields[1], path, k))
    if len(indices) < 2:
        raise SegmentFileError(
            name, None, f"has {len(indices)} judged segment(s): an interval needs at least two"
        )
    return indices, scores


def read_inputs(
    args: argparse.Namespace,
) -> tuple[list[int], list[float], dict[str, list[float]], list[str] | None]:
    """The judged segments, the automatic scores by name and the documents, checked
    against each other: the first ``--auto`` file sets the corpus size."""
    specs = [auto_option(value) for value in args.auto]
    auto: dict[str, list[float]] = {}
    first = specs[0][1]
    for name, path in specs:
        if name in auto:
            raise ValueError(f"--auto {name}: the name is given twice")
        auto[name] = read_auto_scores(path)
        if len(auto[name]) != len(auto[specs[0][0]]):
            raise SegmentFileError(
                display_name(path),
                None,
                f"has {len(auto[name])} lines but {display_name(first)} has "
                f"{len(auto[specs[0][0]])}: one score per corpus segment in every --auto file",
            )
    size = len(auto[specs[0][0]])
    documents = None
    if args.docs:
        documents = read_segments(args.docs)
        if len(documents) != size:
            raise SegmentFileError(
                display_name(args.docs),
                None,
                f"has {len(documents)} lines but {display_name(first)} has {size}: "
                "one document id per corpus segment",
            )
        empty = next((k for k, d in enumerate(documents, start=1) if not d.strip()), None)
        if empty is not None:
            raise SegmentFileError(display_name(args.docs), empty, "empty document id")
    indices, scores = read_judged(args.human, size, display_name(first))
    return indices, scores, auto, documents


def table(result: Estimate) -> str:
    """The plain mean and the estimate, one line each, and how the estimate was made."""
    level = f"{result.confidence * 100:g}% interval"
    rows = [("plain mean", result.plain), ("estimate", result.estimate)]
    lines = [f"{'':<12}{'mean':>12}  {level:>27}  {'n':>6}"]
    for label, interval in rows:
        mean = f"{interval.mean:.4f}"
        bounds = f"[{interval.low:.4f}, {interval.high:.4f}]"
        if result.too_few:  # the plain mean of what was judged, and nothing beyond it
            bounds = TOO_FEW
            mean = TOO_FEW if interval is result.estimate else mean
        lines.append(f"{label:<12}{mean:>12}  {bounds:>27}  {interval.n:>6}")
    lines.append("")
    lines.append(f"corpus: {result.corpus_size} segments, {result.plain.n} judged")
    lines.append(
        f"method: {result.method}" + (f", {result.strata} strata" if result.strata > 1 else "")
    )
    lines.append(
        f"variance ratio: {result.variance_ratio:.3f}"
        + (
            f" (the regression's: {result.candidate_ratio:.3f})"
            if result.candidate_ratio is not None
            and result.candidate_ratio != result.variance_ratio
            else ""
        )
    )
    for c in result.covariates:
        r = "–" if math.isnan(c.correlation) else f"{c.correlation:.3f}"
        lines.append(f"  {c.name}: r = {r} on the judged segments, slope {c.coefficient:.4g}")
    lines.extend(result.notes)
    if result.too_few:
        lines.append(f"{result.too_few}: no interval, no estimate ({MIN_SENTENCES} are needed)")
    return "\n".join(lines)


def main(argv: Sequence[str], prog: str) -> int:
    p = parser(prog)
    args = p.parse_args(argv)
    try:
        indices, scores, auto, documents = read_inputs(args)
        result = estimate_mean(
            indices,
            scores,
            auto,
            documents=documents,
            confidence=args.confidence,
            bounds=args.range,
        )
    except (SegmentFileError, ValueError, OSError) as exc:
        return refused(p.prog, exc)
    if args.json:
        print(json_dumps(result.as_json(), ensure_ascii=True))
    else:
        print(table(result))
    return 0
