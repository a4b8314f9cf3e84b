"""Scores and bootstrap results as bytes (``metrics/archive.py``): read back bit for bit,
counts kept small."""

from __future__ import annotations

import io
import math
import zipfile

import numpy as np
import pytest

from metrics import archive
from metrics.archive import pack, unpack, unpack_rows
from metrics.registry import build_metric
from metrics.significance import Bootstrap
from metrics.tests.demo import SYSTEMS, demo, demo_refs
from metrics.tests.exactly import assert_same_significance
from metrics.tokenize import Preprocessor


def test_every_figure_comes_back_bit_for_bit() -> None:
    refs = demo_refs()
    pp = Preprocessor(tokenize="intl", lowercase=True)
    scores, significance = {}, {}
    bootstrap = Bootstrap(len(refs))
    for name in ("bleu", "nist", "mwer"):
        metric = build_metric(name, preprocessor=pp, ref_length="average")
        prepared = metric.prepare_references(refs)
        scores[name] = {s: metric.corpus_score(demo()[s], refs, prepared) for s in SYSTEMS}
        significance[name] = bootstrap.compare(
            {s: scores[name][s].stats for s in SYSTEMS},
            metric.score_from_stats,
            higher_is_better=metric.info.higher_is_better,
            metric=name,
        )

    back = unpack(pack(SYSTEMS, len(refs), scores, significance))

    assert back.systems == tuple(SYSTEMS)
    assert back.n_segments == len(refs)
    for name, by_system in scores.items():
        for s, score in by_system.items():
            got = back.scores[name][s]
            assert (got.name, got.score, got.signature) == (
                score.name,
                score.score,
                score.signature,
            )
            assert got.stats.dtype == np.float64
            assert got.stats.tobytes() == score.stats.tobytes()
        assert_same_significance(back.significance[name], significance[name])


def test_some_metrics_rows_alone_come_back_as_unpack_reads_them() -> None:
    """A reader of a few metrics' rows (the judge's live figures) gets exactly what the
    whole archive holds for them, systems × segments × k in the archive's system order."""
    refs = demo_refs()
    scores = {}
    for name in ("bleu", "wer", "mwer"):
        metric = build_metric(name)
        prepared = metric.prepare_references(refs)
        scores[name] = {s: metric.corpus_score(demo()[s], refs, prepared) for s in SYSTEMS}
    data = pack(SYSTEMS, len(refs), scores, {})

    systems, rows = unpack_rows(data, ("wer", "bleu"))

    whole = unpack(data)
    assert systems == whole.systems == tuple(SYSTEMS)
    assert sorted(rows) == ["bleu", "wer"]
    for name, stacked in rows.items():
        assert stacked.shape[:2] == (len(SYSTEMS), len(refs))
        for i, s in enumerate(systems):
            assert stacked[i].tobytes() == whole.scores[name][s].stats.tobytes()
    with pytest.raises(ValueError, match="archive without the rows of ter"):
        unpack_rows(data, ("wer", "ter"))


def test_counts_are_kept_small_and_other_columns_exact() -> None:
    """Whole non-negative columns shrink; a negative zero, a fraction, a NaN or a huge
    value keeps its column a float column."""
    rows = np.array(
        [
            [[1.0, 0.5, -0.0, 3.0, math.nan, 2.0**40], [2.0, 1.25, 0.0, 4.0, 1.0, 1.0]],
            [[300.0, 2.0, 0.0, 5.0, 2.0, 3.0], [7.0, 0.0, 0.0, 6.0, 3.0, 4.0]],
        ]
    )
    scores = {"wer": {s: build_metric("wer").corpus_score(["a b"], [("a b",)]) for s in ("x", "y")}}
    for i, s in enumerate(("x", "y")):
        scores["wer"][s] = type(scores["wer"][s])("wer", float(i), "sig", rows[i])

    data = pack(["x", "y"], 2, scores, {})
    back = unpack(data)

    for i, s in enumerate(("x", "y")):
        assert back.scores["wer"][s].stats.tobytes() == rows[i].tobytes()
    with np.load(io.BytesIO(data)) as npz:
        assert npz["wer.counts"].tolist() == [True, False, False, True, False, False]
        assert npz["wer.whole"].dtype == np.uint16


def test_no_system_and_another_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    back = unpack(pack([], 3, {"bleu": {}}, {}))
    assert back.systems == ()
    assert back.scores == {"bleu": {}}
    monkeypatch.setattr(archive, "LAYOUT", 1)
    older = pack([], 0, {}, {})
    monkeypatch.undo()
    with pytest.raises(ValueError, match=f"archive of layout 1, not {archive.LAYOUT}"):
        unpack(older)
    with pytest.raises(ValueError, match=f"archive of layout 1, not {archive.LAYOUT}"):
        unpack_rows(older, ())


def test_the_archive_reads_every_array_as_numpy_does_and_refuses_a_damaged_one() -> None:
    """The archive's own reader (``np.load`` took a tenth of a second on every ten pages):
    pack's plain arrays of every kind and shape, and what pack never writes (a compressed
    member, Fortran order, a text type), read as ``np.load`` reads them; a member whose
    bytes changed is refused, as ``zipfile`` refuses it."""
    arrays = {
        "scalar": np.float64(math.nan),
        "empty": np.zeros((2, 0, 3), dtype=np.uint8),
        "flags": np.array([True, False]),
        "rows": np.arange(24, dtype=np.uint32).reshape(2, 3, 4),
        "fortran": np.asfortranarray(np.arange(6.0).reshape(2, 3)),
        "text": np.array(["a", "bc"]),
    }
    for save in (np.savez, np.savez_compressed):
        out = io.BytesIO()
        save(out, **arrays)
        with np.load(io.BytesIO(out.getvalue())) as npz:
            want = {name: npz[name] for name in npz.files}
        got = archive._arrays(out.getvalue())
        assert list(got) == list(want)
        for name, array in want.items():
            assert got[name].dtype == array.dtype, name
            assert got[name].shape == array.shape, name
            assert got[name].tobytes(order="A") == array.tobytes(order="A"), name
            assert got[name].flags.writeable
    data = bytearray(pack(["a"], 1, {}, {}))
    data[data.index(b"layout") + 1] ^= 1  # a bit flipped inside the header's member
    with pytest.raises(zipfile.BadZipFile, match="CRC"):
        unpack(bytes(data))
