"""Scores with their per-segment statistics and paired-bootstrap results as bytes, exactly.

What a corpus's automatic figures are, kept for later (the app stores them in its
database): per metric and system a :class:`~metrics.stats.Score` (statistics rows
included) and per metric its :class:`~metrics.significance.MetricSignificance` (each
system's bootstrap sample scores included, when it has them). The
numbers are numpy arrays in an ``.npz`` archive, read back with ``allow_pickle=False``
(nothing in it can run code); names, signatures and settings are a JSON header. Every
float comes back bit for bit, NaN included.

Statistics rows are floats, but most of their columns hold counts (lengths, n-gram
totals, edit counts). A column of non-negative whole numbers (and no negative zero) is
kept in the smallest unsigned integer type that holds it — exactly the same floats once
read back — which makes the archive of 1,000 segments × 20 systems about half as large:
less to write, less to read on every page that shows it.
"""

from __future__ import annotations

import io
import json
import math
import re
import struct
import zipfile
import zlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from metrics.significance import Interval, MetricSignificance, SystemFigure
from metrics.stats import FloatArray, Score

#: The layout of :func:`pack`'s bytes; part of what a reader checks before trusting them.
#: 3: percentile intervals (low, high, mean) and the fewest common segments for a
#: claimed difference (``min_common``), so rows stored before are recomputed.
#: 4: chrF, chrF++ and bigram PER join the automatic metrics (rows without them are
#: recomputed).
#: 5: TER, the weighted n-grams and LEPOR join them (and METEOR where WordNet is).
#: 6: each system's score on every bootstrap sample (``MetricSignificance.samples``),
#: which the meta-evaluation's intervals read (rows without them are recomputed).
#: 7: the error rates' empty-reference rule follows jiwer (insertions over 1) and their
#: signatures say so (``empty:ins``): rows scored by the old rule are recomputed.
LAYOUT = 7


@dataclass(frozen=True)
class Archived:
    """What :func:`unpack` returns: :func:`pack`'s arguments."""

    systems: tuple[str, ...]
    n_segments: int
    scores: dict[str, dict[str, Score]]
    significance: dict[str, MetricSignificance]


def pack(
    systems: Sequence[str],
    n_segments: int,
    scores: Mapping[str, Mapping[str, Score]],
    significance: Mapping[str, MetricSignificance],
) -> bytes:
    """``scores[metric][system]`` (each with its statistics rows) and ``significance
    [metric]`` as bytes (see the module docstring)."""
    arrays: dict[str, npt.NDArray[Any]] = {}
    signatures: dict[str, list[str]] = {}
    tests: dict[str, dict[str, Any]] = {}
    for m, by_system in scores.items():
        rows = [by_system[s] for s in systems]
        stats = np.stack([_rows_of(r) for r in rows]) if rows else np.zeros((0, 0, 0))
        arrays |= _pack_rows(m, stats)
        arrays[f"{m}.score"] = np.array([r.score for r in rows], dtype=np.float64)
        signatures[m] = [r.signature for r in rows]
    for m, sig in significance.items():
        figures = sig.figures
        arrays[f"{m}.p"] = np.array(sig.p_values, dtype=np.float64)
        arrays[f"{m}.common"] = np.array(sig.n_common, dtype=np.int64)
        arrays[f"{m}.figure"] = np.array(
            [[f.score, f.interval.low, f.interval.high, f.interval.mean] for f in figures],
            dtype=np.float64,
        )
        arrays[f"{m}.n"] = np.array([[f.n, f.group] for f in figures], dtype=np.int64)
        if sig.samples is not None:
            arrays[f"{m}.samples"] = np.ascontiguousarray(sig.samples, dtype=np.float64)
        tests[m] = {
            "systems": list(sig.systems),
            "higher_is_better": sig.higher_is_better,
            "n_samples": sig.n_samples,
            "seed": sig.seed,
            "alpha": sig.alpha,
            "signature": sig.signature,
            "min_common": sig.min_common,
        }
    header = {
        "layout": LAYOUT,
        "systems": list(systems),
        "n_segments": n_segments,
        "signatures": signatures,
        "significance": tests,
    }
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    out = io.BytesIO()
    np.savez(out, allow_pickle=False, **arrays)
    return out.getvalue()


def unpack(data: bytes) -> Archived:
    """What :func:`pack` wrote (a ``ValueError`` for bytes of another layout)."""
    arrays = _arrays(data)
    header = json.loads(arrays.pop("header").tobytes())
    if header.get("layout") != LAYOUT:
        raise ValueError(f"archive of layout {header.get('layout')!r}, not {LAYOUT}")
    systems = tuple(header["systems"])
    scores: dict[str, dict[str, Score]] = {}
    for m, sigs in header["signatures"].items():
        stats = _unpack_rows(m, arrays)
        values = arrays[f"{m}.score"].tolist()
        scores[m] = {s: Score(m, values[i], sigs[i], stats[i]) for i, s in enumerate(systems)}
    significance = {}
    for m, test in header["significance"].items():
        figure, n = arrays[f"{m}.figure"].tolist(), arrays[f"{m}.n"].tolist()
        significance[m] = MetricSignificance(
            metric=m,
            higher_is_better=test["higher_is_better"],
            figures=tuple(
                SystemFigure(s, f[0], c[0], Interval(f[1], f[2], f[3]), c[1])
                for s, f, c in zip(test["systems"], figure, n, strict=True)
            ),
            p_values=tuple(tuple(row) for row in arrays[f"{m}.p"].tolist()),
            n_common=tuple(tuple(row) for row in arrays[f"{m}.common"].tolist()),
            n_samples=test["n_samples"],
            seed=test["seed"],
            alpha=test["alpha"],
            signature=test["signature"],
            min_common=test["min_common"],
            samples=arrays.get(f"{m}.samples"),
        )
    return Archived(systems, int(header["n_segments"]), scores, significance)


def unpack_rows(
    data: bytes, metrics: Sequence[str]
) -> tuple[tuple[str, ...], dict[str, FloatArray]]:
    """The systems and, per metric of ``metrics``, the statistics rows (systems ×
    segments × k) that :func:`pack` wrote, as :func:`unpack` reads them to the last bit,
    without decoding anything else: a reader of three metrics' rows (the judge's live
    figures) skips the other metrics, the scores and the paired bootstrap, most of the
    work of :func:`unpack`. A ``ValueError`` for bytes of another layout or without
    one of ``metrics``."""
    parts = ("counts", "whole", "float")
    arrays = _arrays(data, {"header", *(f"{m}.{part}" for m in metrics for part in parts)})
    header = json.loads(arrays["header"].tobytes())
    if header.get("layout") != LAYOUT:
        raise ValueError(f"archive of layout {header.get('layout')!r}, not {LAYOUT}")
    missing = [m for m in metrics if m not in header["signatures"]]
    if missing:
        raise ValueError(f"archive without the rows of {', '.join(missing)}")
    return tuple(header["systems"]), {m: _unpack_rows(m, arrays) for m in metrics}


def _rows_of(score: Score) -> FloatArray:
    if score.stats is None:
        raise ValueError(f"{score.name}: a score to archive carries its statistics rows")
    return score.stats


def _pack_rows(metric: str, stats: FloatArray) -> dict[str, npt.NDArray[Any]]:
    """Systems × segments × k statistics: the columns of counts as unsigned integers,
    the others as floats, and which is which."""
    k = stats.shape[-1]
    counts = np.zeros(k, dtype=np.bool_)
    for j in range(k):
        column = stats[..., j]
        counts[j] = bool(
            column.size == 0
            or (
                (column >= 0).all()
                and (column == np.floor(column)).all()
                and not np.signbit(column).any()
                and column.max() < 2**32
            )
        )
    whole = stats[..., counts]
    top = int(whole.max()) if whole.size else 0
    kind = np.uint8 if top < 2**8 else np.uint16 if top < 2**16 else np.uint32
    return {
        f"{metric}.counts": counts,
        f"{metric}.whole": whole.astype(kind),
        f"{metric}.float": np.ascontiguousarray(stats[..., ~counts]),
    }


def _unpack_rows(metric: str, arrays: Mapping[str, npt.NDArray[Any]]) -> FloatArray:
    counts = arrays[f"{metric}.counts"]
    whole, rest = arrays[f"{metric}.whole"], arrays[f"{metric}.float"]
    stats = np.empty((*whole.shape[:-1], len(counts)), dtype=np.float64)
    stats[..., counts] = whole
    stats[..., ~counts] = rest
    return stats


#: The header numpy's ``.npy`` format writes for a plain array (numpy.lib.format): its
#: type, its shape. Anything else (Fortran order, a structured type) is read by numpy.
_NPY_HEADER = re.compile(
    r"\{'descr': '([<>|=][a-z]\d+)', 'fortran_order': False, 'shape': \(([\d, ]*)\), \} *\n"
)


def _arrays(data: bytes, names: Collection[str] | None = None) -> dict[str, npt.NDArray[Any]]:
    """The arrays of the ``.npz`` bytes that :func:`pack` wrote (those of ``names``; None:
    all), as ``np.load`` reads them, bit for bit, in a fifth of its time: ``np.load``
    opens each member as a file and reads its header with ``ast.literal_eval``, 80 µs an
    array, where the members of an archive of 27 metrics are 136 (11 ms on every page
    that reads the figures). :func:`pack`'s members are stored, not compressed: each is
    read in place, its CRC checked as ``zipfile`` checks it."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = {info.filename.removesuffix(".npy"): info for info in archive.infolist()}
        return {
            name: _npy(_member(data, archive, info))
            for name, info in members.items()
            if names is None or name in names
        }


def _member(data: bytes, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes | memoryview:
    """The bytes of one member of ``archive`` (whose bytes are ``data``)."""
    start = info.header_offset
    if info.compress_type != zipfile.ZIP_STORED or data[start : start + 4] != b"PK\x03\x04":
        return archive.read(info)
    name, extra = struct.unpack_from("<HH", data, start + 26)
    begin = start + 30 + name + extra
    raw = memoryview(data)[begin : begin + info.compress_size]
    if zlib.crc32(raw) != info.CRC:
        raise zipfile.BadZipFile(f"Bad CRC-32 for file {info.filename!r}")
    return raw


def _npy(raw: bytes | memoryview) -> npt.NDArray[Any]:
    """The array of one ``.npy`` member: a plain one from its bytes, anything else by
    numpy (never a pickle)."""
    version = bytes(raw[6:7])
    start = 10 if version == b"\x01" else 12
    size = int.from_bytes(raw[8:start], "little")
    plain = bytes(raw[:6]) == b"\x93NUMPY" and version in (b"\x01", b"\x02", b"\x03")
    found = (
        _NPY_HEADER.fullmatch(bytes(raw[start : start + size]).decode("latin1")) if plain else None
    )
    if found is None:
        return np.lib.format.read_array(io.BytesIO(raw), allow_pickle=False)
    shape = tuple(int(d) for d in found.group(2).split(",") if d.strip())
    array = np.frombuffer(raw, np.dtype(found.group(1)), math.prod(shape), start + size)
    return array.reshape(shape).copy()
