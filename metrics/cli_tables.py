"""The tables ``python -m metrics`` prints without ``--json``: one row per hypothesis and
a column per metric with the signatures below (and sacreBLEU's cells and legend with a
significance test), and with ``--sentence`` a block per hypothesis of segment scores."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from metrics.paired import SystemResult, TestSetup, legend
from metrics.stats import Score
from metrics.textfiles import STDIN, display_name

#: Per hypothesis, per metric, each segment's score (None: undefined).
Segments = dict[str, dict[str, list[float | None]]]
#: Per hypothesis, per metric, the significance figures.
Tests = dict[str, dict[str, SystemResult]]


def segment_table(segments: Segments) -> str:
    """One block per hypothesis: a line per segment, a column per metric."""
    lines: list[str] = []
    for hyp, by_metric in segments.items():
        metrics = list(by_metric)
        lines.append("")
        lines.append(f"{hyp}, per segment:")
        lines.append("  ".join(["segment".rjust(7), *(m.upper().rjust(8) for m in metrics)]))
        n = len(next(iter(by_metric.values()), []))
        for k in range(n):
            cells = [_cell(by_metric[m][k]) for m in metrics]
            lines.append("  ".join([str(k + 1).rjust(7), *cells]))
    return "\n".join(lines)


def _cell(value: float | None) -> str:
    return "–".rjust(8) if value is None else f"{value:8.2f}"


def system_names(paths: Sequence[str]) -> dict[str, str]:
    """How the table names each hypothesis: by its file name (``sys/a.txt`` → ``a.txt``),
    or by the path as given where two files share a name; standard input is ``<stdin>``."""
    names = [display_name(p) if p == STDIN else Path(p).name for p in paths]
    if len(set(names)) < len(names):
        names = [display_name(p) for p in paths]
    return dict(zip(paths, names, strict=True))


def score_table(
    results: dict[str, dict[str, Score]],
    tests: Tests | None = None,
    setup: TestSetup | None = None,
) -> str:
    """One row per hypothesis (named by :func:`system_names`), a column per metric, and
    the signatures below; with a test, sacreBLEU's cells and a legend."""
    metrics = list(next(iter(results.values())).keys()) if results else []
    names = system_names(list(results))
    if setup and setup.test:
        first = next(iter(names))
        names[first] = f"Baseline: {names[first]}"
    rows = [
        [
            tests[hyp][m].cell(scores[m].score) if tests else f"{scores[m].score:.2f}"
            for m in metrics
        ]
        for hyp, scores in results.items()
    ]
    interval = setup is not None and setup.interval_samples > 0
    heads = [m.upper() + (" (μ ± 95% CI)" if interval else "") for m in metrics]
    widths = [max([8, len(h), *(len(r[j]) for r in rows)]) for j, h in enumerate(heads)]
    width = max([len("hypothesis"), *(len(n) for n in names.values())])
    lines = [
        "  ".join(
            ["hypothesis".ljust(width), *(h.rjust(w) for h, w in zip(heads, widths, strict=True))]
        )
    ]
    for hyp, cells in zip(results, rows, strict=True):
        lines.append(
            "  ".join(
                [names[hyp].ljust(width), *(c.rjust(w) for c, w in zip(cells, widths, strict=True))]
            )
        )
    lines.append("")
    if setup is not None:
        lines.extend(legend(setup, system_names(list(results))[next(iter(results))]))
        lines.append("")
    first_scores = next(iter(results.values()), {})
    lines.extend(f"{m.upper()}: {score.signature}" for m, score in first_scores.items())
    if setup is not None:
        lines.append(setup.signature())  # "test:paired-bs|…" names itself
    return "\n".join(lines)
