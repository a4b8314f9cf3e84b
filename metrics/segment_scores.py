"""Segment scores computed elsewhere (COMET, xCOMET, MetricX, GEMBA, … often on a GPU),
read from a file as one named metric: the two layouts, every refusal with its line and
reason, the rules a name must follow, and the figure the scores make.

Two layouts (:data:`LAYOUTS`):

* ``tsv``: ``system<TAB>segment<TAB>score``, one line per candidate, in any order. The
  segment is the sentence's number in the corpus, counted from 1. A first line
  ``system<TAB>segment<TAB>score`` (any case) is a header and skipped.
* ``wmt``: the WMT metrics task's segment-level score files as mt-metrics-eval keeps
  them for WMT21–24 (``metric-scores/SRC-TGT/NAME-REF.seg.score``): ``SYSTEM SCORE`` per
  line, a tab or blanks between, each system's scores in segment order (one block per
  system). A line's segment is the number of its system's lines before it, plus one, as
  mt-metrics-eval's own reader (``ReadScoreFile``) counts them; ``None``, which that
  format allows only in human scores, is not a number here. (The older tasks' nine
  columns, ``METRIC LP TESTSET DOCID SEGID SYSTEM SCORE …``, changed from year to year
  and are not read: cut them to ``tsv`` with ``cut -f6,5,7``-style tools.)
* ``mtme``: mt-metrics-eval's human scores (``human-scores/SRC-TGT.NAME.seg.score``,
  MQM, ESA, DA): the ``wmt`` layout, where ``None`` is a segment nobody rated (``NaN``,
  left out of the system's mean as a changed candidate's score is). Their system-level
  file (``.sys.score``) is :mod:`metrics.mtme`'s.

Every system of the file must be one of the corpus's, and every system of the corpus
must have one score for each sentence, a finite decimal number of at most
:data:`SCORE_LIMIT` either way: a file that leaves a candidate out, scores one twice,
names a segment outside the corpus or a system it does not have, or holds anything but
such a number is refused whole (:class:`~metrics.textfiles.
SegmentFileError`, ``FILE line N: reason``), so nothing partial is ever kept.

**The figure.** A system's corpus-level score is the mean of its segment scores, as WMT
reports COMET, MetricX and the like. Each segment's statistics row is ``[score, 1]``
(:func:`mean_rows`) and the figure is the ratio of the summed columns
(:func:`mean_from_stats`), so the paired bootstrap resamples these scores exactly as it
does every other metric's rows (:mod:`metrics.significance`), and a segment without a
score (``NaN``: its candidate's text changed since) is a zero row, left out of the mean.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from metrics.facts import METRIC_FACTS
from metrics.numerals import DECIMAL_NUMBER, digits
from metrics.stats import FloatArray
from metrics.textfiles import SegmentFileError, decode_segments

#: The layouts a file may have, with the words a page or ``--help`` uses for them.
LAYOUTS: dict[str, str] = {
    "tsv": "system<TAB>segment<TAB>score, segments numbered from 1",
    "wmt": "WMT metrics task (mt-metrics-eval .seg.score): SYSTEM SCORE, "
    "each system's scores in segment order",
    "mtme": "mt-metrics-eval human scores (.seg.score): SYSTEM SCORE, each system's "
    "scores in segment order, None for a segment nobody rated",
}
#: The layouts whose files may leave a segment without a score (``None``): human scores,
#: where not every candidate was rated.
MISSING_ALLOWED = frozenset({"mtme"})
#: The layouts whose files hold human scores (mt-metrics-eval keeps only human scores in
#: it): a metric imported from one is a human figure, which the meta-evaluation
#: correlates the automatic metrics with rather than one more automatic metric.
HUMAN_LAYOUTS = frozenset({"mtme", "mtme-sys"})
#: How a metric imported from mt-metrics-eval's ``.sys.score`` alone is kept (not a
#: layout a lead picks: the ``mtme`` import without its ``.seg.score``): human
#: system-level figures as published, with no segment scores (:mod:`metrics.mtme`).
SYSTEM_LAYOUT = "mtme-sys"
#: How mt-metrics-eval's human scores write a segment without a score.
NO_SCORE = "None"

#: What a score that is not finite looks like, to say so rather than "not a number".
_NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
#: The largest magnitude a score may have (either sign). A figure sums a system's scores
#: over the corpus, and the estimates and correlations sum their squares: scores of 1e308,
#: each a float, summed to infinity, and every figure made of them was no number (a
#: download that answered 500). At 1e12, a million sentences sum to 1e18 and their squares
#: to 1e30, far inside float64; no metric in use comes near (COMET within ±2, MetricX
#: 0–25, GEMBA 0–100).
SCORE_LIMIT = 1e12
ERR_OUT_OF_RANGE = (
    f"is out of range: a score is at most {SCORE_LIMIT:g} either way "
    "(its sum over the corpus must stay a number)"
)
_TSV_HEADER = ["system", "segment", "score"]
#: Systems a refusal names before "…".
_NAMED = 10

#: An imported metric's name: a letter, then letters, digits, ``.``, ``+`` and ``-``
#: (``COMET-22``, ``xCOMET-XL``, ``MetricX-23``, ``GEMBA-MQM``). It is a column's key in
#: ``table.json`` and ``table.csv`` (``NAME_rank``: no ``_``, so no two columns'
#: headers meet), a sort key (``-NAME``: worst first, so no leading ``-``), part of a
#: signature (no ``|`` or ``:``) and of the page's selectors and links.
NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9.+-]*")
NAME_MAX_LENGTH = 50
#: Names no imported metric may take (any case): every built-in metric's name and
#: label, and the CSV's first column.
RESERVED_NAMES: frozenset[str] = frozenset(
    {f.name.casefold() for f in METRIC_FACTS}
    | {f.info.label.casefold() for f in METRIC_FACTS}
    | {"system"}
)

ERR_NAME_FORM = (
    "the name {name!r} is not a metric name: a letter, then letters, digits, '.', '+' or '-', "
    f"at most {NAME_MAX_LENGTH} characters (e.g. COMET-22)"
)
ERR_NAME_BUILT_IN = "the name {name!r} is taken by a metric evaltool computes: choose another"
ERR_NAME_TAKEN = (
    "the corpus has an imported metric named {taken!r} already: choose another name, or replace it"
)


def check_metric_name(name: str, taken: Iterable[str] = ()) -> None:
    """A ``ValueError`` saying why ``name`` cannot name an imported metric
    (:data:`NAME_PATTERN`, :data:`RESERVED_NAMES`), or one that differs only in case from
    a name in ``taken`` (the corpus's other imported metrics: two columns "comet" and
    "COMET" would read as one)."""
    if len(name) > NAME_MAX_LENGTH or NAME_PATTERN.fullmatch(name) is None:
        raise ValueError(ERR_NAME_FORM.format(name=name))
    if name.casefold() in RESERVED_NAMES:
        raise ValueError(ERR_NAME_BUILT_IN.format(name=name))
    for other in taken:
        if other.casefold() == name.casefold():
            raise ValueError(ERR_NAME_TAKEN.format(taken=other))


def read_segment_scores(
    data: bytes,
    *,
    layout: str,
    systems: Sequence[str],
    n_segments: int,
    filename: str = "scores",
) -> dict[str, FloatArray]:
    """Each system's scores, one per segment in order (``systems``' order), read from a
    UTF-8 file's bytes in ``layout``; a :class:`~metrics.textfiles.SegmentFileError`
    naming the line (or the end of the file) and the reason when anything does not
    match ``systems`` and ``n_segments`` (the module doc)."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout={layout!r}: choose one of {', '.join(LAYOUTS)}")
    lines = decode_segments(data, filename)
    while lines and not lines[-1].strip():  # blank lines at the end are the file's end
        lines.pop()
    if not lines:
        raise SegmentFileError(filename, 1, "the file is empty: no score to import")
    reader = _Reader(filename, systems, n_segments)
    if layout == "tsv":
        reader.read_tsv(lines)
    else:
        reader.read_wmt(lines, missing_allowed=layout in MISSING_ALLOWED)
    return reader.complete()


def score_value(text: str) -> float:
    """A score as a file writes it (``text`` without surrounding blanks): a decimal number,
    finite, in ASCII digits (:data:`~metrics.numerals.DECIMAL_NUMBER`), within
    :data:`SCORE_LIMIT`. A ``ValueError`` says why ``text`` is none (the reader adds the
    line): what Python's ``float`` would read beyond it (``nan``, ``inf``, ``1_000``,
    ``١٢``: Arabic-Indic 12) is no score. The one rule of every file of scores evaltool
    reads (imported metrics, and ``python -m metrics estimate``'s human and automatic
    scores)."""
    if _NOT_FINITE.fullmatch(text):
        raise ValueError(f"score {text!r} is not a finite number")
    if DECIMAL_NUMBER.fullmatch(text) is None:
        raise ValueError(f"score {text!r} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"score {text!r} is too large for a number")
    if out_of_range(value):
        raise ValueError(f"score {text!r} {ERR_OUT_OF_RANGE}")
    return value


def out_of_range(values: float | Sequence[float] | FloatArray) -> npt.NDArray[np.bool_]:
    """Where a score's magnitude is past :data:`SCORE_LIMIT` (``NaN``: nowhere)."""
    return np.abs(np.asarray(values, dtype=np.float64)) > SCORE_LIMIT


def segment_scores_tsv(scores: Mapping[str, Sequence[float] | FloatArray]) -> str:
    """``scores`` (per system, one per segment in order) as the text of a ``tsv`` file
    that :func:`read_segment_scores` reads back to the same floats: the header, then
    ``system<TAB>segment<TAB>score`` a line, segments from 1, each score in full
    (``repr``: the shortest text of the same float). What a program that computes a
    metric itself writes (``manage.py comet``); a ``ValueError`` names a system whose
    name a tab or a line end would cut."""
    lines = ["\t".join(_TSV_HEADER)]
    for system, values in scores.items():
        if system != system.strip() or any(c in system for c in "\t\r\n"):
            raise ValueError(f"system {system!r}: a name a tsv line cannot hold")
        lines.extend(f"{system}\t{k}\t{float(v)!r}" for k, v in enumerate(values, start=1))
    return "\n".join(lines) + "\n"


class _Reader:
    """The scores read so far, and where each came from (a duplicate names both lines)."""

    def __init__(self, filename: str, systems: Sequence[str], n_segments: int) -> None:
        self.filename = filename
        self.systems = list(systems)
        self.known = set(systems)
        self.n = n_segments
        self.values = {s: np.full(n_segments, np.nan) for s in systems}
        self.lines = {s: np.zeros(n_segments, dtype=np.int64) for s in systems}
        self.counted = dict.fromkeys(systems, 0)

    def refuse(self, line: int | None, reason: str) -> SegmentFileError:
        return SegmentFileError(self.filename, line, reason)

    def read_tsv(self, lines: Sequence[str]) -> None:
        for number, text in enumerate(lines, start=1):
            columns = text.split("\t")
            if number == 1 and [c.strip().casefold() for c in columns] == _TSV_HEADER:
                continue
            if not text.strip():
                raise self.refuse(number, "empty line (one score per line)")
            if len(columns) != 3:
                raise self.refuse(
                    number,
                    f"{len(columns)} column{'s' * (len(columns) != 1)}, expected 3 "
                    "(system, segment, score) separated by tabs",
                )
            system, segment, score = (c.strip() for c in columns)
            self.check_system(number, system)
            self.put(number, system, self.segment(number, segment), self.score(number, score))

    def read_wmt(self, lines: Sequence[str], *, missing_allowed: bool = False) -> None:
        for number, text in enumerate(lines, start=1):
            if not text.strip():
                raise self.refuse(number, "empty line (one score per line)")
            columns = text.split("\t") if "\t" in text else text.split()
            if len(columns) != 2:
                raise self.refuse(
                    number,
                    f"{len(columns)} column{'s' * (len(columns) != 1)}, expected 2 "
                    "(system, score) separated by a tab or blanks",
                )
            system, score = (c.strip() for c in columns)
            self.check_system(number, system)
            k = self.counted[system]
            if k >= self.n:
                raise self.refuse(
                    number,
                    f"system {system!r} has a score for more than the corpus's "
                    f"{self.n} sentence{'s' * (self.n != 1)}",
                )
            value = math.nan if missing_allowed and score == NO_SCORE else self.score(number, score)
            self.put(number, system, k, value)

    def check_system(self, line: int, system: str) -> None:
        if system not in self.known:
            named = ", ".join(repr(s) for s in self.systems[:_NAMED])
            more = f" and {len(self.systems) - _NAMED} more" if len(self.systems) > _NAMED else ""
            raise self.refuse(
                line, f"unknown system {system!r} (the corpus's systems: {named}{more})"
            )

    def segment(self, line: int, text: str) -> int:
        """The 0-based segment of a 1-based number."""
        if not digits(text):
            raise self.refuse(line, f"segment {text!r} is not a whole number (1 to {self.n})")
        k = int(text)
        if not 1 <= k <= self.n:
            raise self.refuse(
                line,
                f"segment {k} is out of range: the corpus has {self.n} "
                f"sentence{'s' * (self.n != 1)} (1 to {self.n})",
            )
        return k - 1

    def score(self, line: int, text: str) -> float:
        try:
            return score_value(text)
        except ValueError as exc:
            raise self.refuse(line, str(exc)) from None

    def put(self, line: int, system: str, k: int, value: float) -> None:
        earlier = int(self.lines[system][k])
        if earlier:
            raise self.refuse(
                line,
                f"system {system!r} has a score for segment {k + 1} already (line {earlier})",
            )
        self.values[system][k] = value
        self.lines[system][k] = line
        self.counted[system] += 1

    def complete(self) -> dict[str, FloatArray]:
        """The scores, once every system has one for each segment (else the refusal at
        the end of the file, naming the first system and segments missing)."""
        for system in self.systems:
            missing = np.flatnonzero(self.lines[system] == 0)
            if len(missing) == self.n:
                raise self.refuse(
                    None,
                    f"no score for system {system!r} (every system of the corpus needs one "
                    "per sentence)",
                )
            if len(missing):
                first = ", ".join(str(k + 1) for k in missing[:_NAMED])
                more = f" and {len(missing) - _NAMED} more" if len(missing) > _NAMED else ""
                raise self.refuse(
                    None,
                    f"system {system!r} has no score for segment"
                    f"{'s' * (len(missing) != 1)} {first}{more} "
                    f"(the corpus has {self.n} sentence{'s' * (self.n != 1)})",
                )
        return self.values


def check_scores(
    scores: Mapping[str, Sequence[float] | FloatArray],
    n_segments: int,
    *,
    missing_allowed: bool = False,
) -> None:
    """A ``ValueError`` naming the system unless each of ``scores`` has ``n_segments``
    finite numbers within :data:`SCORE_LIMIT`: the same rule for scores that come from a
    file and from a program (a command that computes a metric itself). With
    ``missing_allowed`` (human scores, :data:`MISSING_ALLOWED`), ``NaN`` is a segment
    without a score."""
    for system, values in scores.items():
        arr = np.asarray(values, dtype=np.float64)
        if arr.shape != (n_segments,):
            raise ValueError(
                f"system {system!r}: {arr.size} scores for {n_segments} sentences "
                "(one per sentence, in order)"
            )
        bad = np.flatnonzero(np.isinf(arr) if missing_allowed else ~np.isfinite(arr))
        if len(bad):
            raise ValueError(
                f"system {system!r}: segment {bad[0] + 1}'s score {float(arr[bad[0]])!r} "
                "is not a finite number"
            )
        far = np.flatnonzero(out_of_range(arr))
        if len(far):
            raise ValueError(
                f"system {system!r}: segment {far[0] + 1}'s score {float(arr[far[0]])!r} "
                f"{ERR_OUT_OF_RANGE}"
            )


def mean_rows(values: FloatArray) -> FloatArray:
    """A system's statistics rows (segments × 2) of its segment scores: ``[score, 1]``,
    and ``[0, 0]`` for a segment without one (``NaN``)."""
    arr = np.asarray(values, dtype=np.float64)
    scored = ~np.isnan(arr)
    return np.stack([np.where(scored, arr, 0.0), scored.astype(np.float64)], axis=-1)


def mean_from_stats(stats: FloatArray) -> FloatArray:
    """The mean of summed :func:`mean_rows` (shape (..., 2) → (...)): the scores' sum over
    their count, ``NaN`` where nothing was summed (a resample that drew none of a
    system's scored segments)."""
    total, count = stats[..., 0], stats[..., 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(count > 0, total / np.where(count > 0, count, 1.0), np.nan)
