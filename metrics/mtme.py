"""mt-metrics-eval's human-score files (Freitag et al.'s ``mt-metrics-eval``, the layout of
WMT's ``human-scores/SRC-TGT.NAME.{seg,sys}.score``), written, and the system-level one
read.

* ``.seg.score``: ``SYSTEM<TAB>SCORE`` a line, each system's block in segment order,
  ``None`` where nobody rated the segment (read by :func:`metrics.segment_scores.
  read_segment_scores`, layout ``mtme``; written by :func:`seg_score_text`).
* ``.sys.score``: ``SYSTEM<TAB>SCORE`` a line, one per system: the mean of the system's
  rated segments, as mt-metrics-eval averages them (:func:`sys_score_text`,
  :func:`read_system_scores`). Read beside a ``.seg.score``, each system's line must
  agree with its segments' mean (:func:`check_system_scores`): a file of other figures
  (z-normalised, say) is refused with its line, not shown as if it were that mean.
  Read alone (a release that publishes no segment-level file for the pair), its lines
  are the figures (:func:`published_system_scores`): one per system, ``None`` for a
  system nobody rated.

Numbers are written in full (``repr``: the shortest text of the same float), so a file
read and written again gives the same lines.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from metrics.segment_scores import NO_SCORE, score_value
from metrics.stats import FloatArray
from metrics.textfiles import SegmentFileError, decode_segments

#: How near a ``.sys.score`` line must be to its segments' mean (relative, and absolute
#: for figures near 0): files print 6 to 17 digits.
TOLERANCE = 1e-6


def _number(value: float) -> str:
    return NO_SCORE if math.isnan(value) else repr(float(value))


def system_mean(values: Sequence[float] | FloatArray) -> float:
    """The mean of the rated segments (NaN: none rated)."""
    arr = np.asarray(values, dtype=np.float64)
    rated = arr[~np.isnan(arr)]
    return float(rated.mean()) if rated.size else math.nan


def seg_score_text(scores: Mapping[str, Sequence[float] | FloatArray]) -> str:
    """``scores`` (per system, one per segment, NaN unrated) as a ``.seg.score``."""
    return "".join(
        f"{system}\t{_number(float(v))}\n" for system, values in scores.items() for v in values
    )


def sys_score_text(scores: Mapping[str, Sequence[float] | FloatArray]) -> str:
    """Each system's :func:`system_mean` as a ``.sys.score``."""
    return figures_sys_score_text({system: system_mean(v) for system, v in scores.items()})


def figures_sys_score_text(figures: Mapping[str, float]) -> str:
    """Each system's figure (NaN: none) as a ``.sys.score`` line, in ``figures``' order."""
    return "".join(f"{system}\t{_number(value)}\n" for system, value in figures.items())


def read_system_scores(data: bytes, filename: str = "sys.score") -> dict[str, tuple[float, int]]:
    """A ``.sys.score``'s figures: system → (score, line; NaN for ``None``), or the
    refusal naming the line."""
    out: dict[str, tuple[float, int]] = {}
    for line, text in enumerate(decode_segments(data, filename), start=1):
        if not text.strip():
            continue
        columns = text.split("\t") if "\t" in text else text.split()
        if len(columns) != 2:
            raise SegmentFileError(
                filename, line, f"{len(columns)} columns, expected 2 (system, score)"
            )
        system, score = (c.strip() for c in columns)
        if system in out:
            raise SegmentFileError(
                filename, line, f"system {system!r} has a score already (line {out[system][1]})"
            )
        try:
            value = math.nan if score == NO_SCORE else score_value(score)
        except ValueError as exc:
            raise SegmentFileError(filename, line, str(exc)) from None
        out[system] = (value, line)
    if not out:
        raise SegmentFileError(filename, 1, "the file is empty: no score to import")
    return out


def check_system_scores(
    segments: Mapping[str, Sequence[float] | FloatArray],
    systems: Mapping[str, tuple[float, int]],
    filename: str = "sys.score",
) -> None:
    """A :class:`~metrics.textfiles.SegmentFileError` naming the ``.sys.score`` line of
    the first system it does not have in ``segments`` or whose score is not its
    segments' mean (module doc), or the file's end for a system it leaves out."""
    check_system_names(systems, list(segments), filename)
    for system, (value, line) in systems.items():
        mean = system_mean(segments[system])
        same = (math.isnan(value) and math.isnan(mean)) or math.isclose(
            value, mean, rel_tol=TOLERANCE, abs_tol=TOLERANCE
        )
        if not same:
            raise SegmentFileError(
                filename,
                line,
                f"system {system!r}: {_number(value)} is not the mean of its rated segments "
                f"({_number(mean)})",
            )


def check_system_names(
    systems: Mapping[str, tuple[float, int]], known: Sequence[str], filename: str = "sys.score"
) -> None:
    """A :class:`~metrics.textfiles.SegmentFileError` naming the ``.sys.score`` line of
    the first system not among ``known``, or the file's end for one of ``known`` it
    leaves out: a system-level file scores every system, once."""
    for system, (_, line) in systems.items():
        if system not in known:
            raise SegmentFileError(filename, line, f"unknown system {system!r}")
    for system in known:
        if system not in systems:
            raise SegmentFileError(filename, None, f"no score for system {system!r}")


def published_system_scores(
    data: bytes, systems: Sequence[str], filename: str = "sys.score"
) -> dict[str, float]:
    """A ``.sys.score`` read alone as the figures of ``systems`` (in their order; NaN:
    ``None``, a system nobody rated), or the refusal naming the line
    (:func:`read_system_scores`, :func:`check_system_names`)."""
    found = read_system_scores(data, filename)
    check_system_names(found, systems, filename)
    return {system: found[system][0] for system in systems}
