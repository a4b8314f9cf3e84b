"""A value pickled with its large arrays apart, for the shared store
(:mod:`~annotation.statistics.shared`): the figures after a judgment differ from the
figures before it in the arrays of the system judged alone (its per-sentence rows, its
row of each bootstrap's samples), so the store rewrites those pieces only.

:func:`split` pickles a value with the memory of each array of at least
:data:`PIECE_BYTES` left out (pickle's out-of-band buffers: numpy hands them over
without a copy) and cut in pieces of :data:`CHUNK_BYTES`; :func:`joined` puts the
value back together from the pickle and the pieces, every array as it was (dtype,
shape, order, bytes, writeable; a large strided one comes back contiguous).
"""

from __future__ import annotations

import hashlib
import io
import pickle
from collections.abc import Sequence
from typing import Any

import numpy as np

#: An array at least this large (bytes) is stored in pieces; a smaller one in the pickle.
PIECE_BYTES = 4096
#: How large a piece is (bytes): one system's row of a bootstrap's samples (1,000
#: samples) spans one or two.
CHUNK_BYTES = 16384

_PROTOCOL = 5  # the first with out-of-band buffers


def piece_digest(piece: bytes) -> bytes:
    """What names a piece's content (128 bits of its SHA-256: the processor's own
    instructions hash it twice as fast as BLAKE2b, 1.8 ms for the human part's 2.8 MB)."""
    return hashlib.sha256(piece).digest()[:16]


class _Pickler(pickle.Pickler):
    """A pickler that hands a large strided array (a column of a table, a view every
    other element) over as a contiguous copy, so its memory goes out of band too."""

    def reducer_override(self, obj: Any) -> Any:  # called for no number, string, list…
        if (
            type(obj) is np.ndarray
            and obj.nbytes >= PIECE_BYTES
            and not obj.dtype.hasobject
            and not (obj.flags.c_contiguous or obj.flags.f_contiguous)
        ):
            return np.ascontiguousarray, (np.ascontiguousarray(obj),)
        return NotImplemented


def split(value: Any) -> tuple[bytes, list[bytes]]:
    """``value`` pickled without its large arrays' memory, and that memory's pieces
    (none: ``data`` is the value's plain pickle)."""
    buffers: list[memoryview] = []

    def apart(buffer: pickle.PickleBuffer) -> bool:
        raw = buffer.raw()
        if raw.nbytes < PIECE_BYTES:
            return True  # in the pickle
        buffers.append(raw)
        return False

    out = io.BytesIO()
    _Pickler(out, protocol=_PROTOCOL, buffer_callback=apart).dump(value)
    data = out.getvalue()
    if not buffers:
        return data, []
    pieces, counts = [], []
    for raw in buffers:
        cut = [bytes(raw[at : at + CHUNK_BYTES]) for at in range(0, raw.nbytes, CHUNK_BYTES)]
        pieces.extend(cut)
        counts.append(len(cut))
    return pickle.dumps((tuple(counts), data), protocol=_PROTOCOL), pieces


def joined(data: bytes, pieces: Sequence[bytes]) -> Any:
    """The value :func:`split` made ``data`` and ``pieces`` of."""
    if not pieces:
        return pickle.loads(data)  # noqa: S301 (this code's own pickle)
    counts, inner = pickle.loads(data)  # noqa: S301
    buffers, at = [], 0
    for count in counts:
        buffers.append(bytearray(b"".join(pieces[at : at + count])))  # writeable, as before
        at += count
    return pickle.loads(inner, buffers=buffers)  # noqa: S301
