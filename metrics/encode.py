"""Tokenized texts as integer ids: what the metrics compare when they compare many texts.

A metric only ever asks whether two tokens are *equal*. Giving each distinct token an
integer id once (a ``vocab`` dict) turns every later question into integer work that
numpy does in bulk: a Levenshtein bit mask is built by comparing ids, an n-gram is a
pair of ids, a multiset intersection is a sort of ids. :class:`Lines` holds many token
sequences as one flat id array and the offsets where each line starts, so a corpus of
20,000 sentences is two arrays, not 20,000 tuples of strings.

Ids are given in order of first appearance (the ``dict.fromkeys`` order of the tokens,
line after line), so the same texts always get the same ids. A text that is only looked
up (``grow=False``, a hypothesis against references) gets ``-1`` for a token the vocabulary
does not hold: such a token equals no reference token, which is all a metric needs to
know about it.

``tok:char`` has its own path: its tokens are the text's non-space characters, so their
ids come from the code points of the whole corpus at once (its UTF-32 encoding, read by
numpy), with no Python object per character.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, repeat

import numpy as np
import numpy.typing as npt

from metrics.tokenize import Preprocessor

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Lines:
    """Token-id sequences stored flat: line ``k`` is ``ids[starts[k]:starts[k + 1]]``."""

    ids: IntArray
    starts: IntArray

    def __len__(self) -> int:
        return len(self.starts) - 1

    @property
    def lengths(self) -> IntArray:
        lengths: IntArray = np.diff(self.starts)
        return lengths

    def line(self, k: int) -> IntArray:
        return self.ids[self.starts[k] : self.starts[k + 1]]

    @classmethod
    def from_lists(cls, lines: Iterable[Sequence[int]]) -> Lines:
        seqs = list(lines)
        lengths = np.fromiter(map(len, seqs), dtype=np.int64, count=len(seqs))
        starts = np.zeros(len(seqs) + 1, dtype=np.int64)
        np.cumsum(lengths, out=starts[1:])
        ids = np.fromiter(chain.from_iterable(seqs), dtype=np.int64, count=int(starts[-1]))
        return cls(ids, starts)

    def take(self, rows: IntArray) -> Lines:
        """The lines ``rows`` (in that order) as new :class:`Lines`."""
        lengths = self.lengths[rows]
        starts = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(lengths, out=starts[1:])
        offsets = np.repeat(self.starts[:-1][rows] - starts[:-1], lengths)
        return Lines(self.ids[np.arange(int(starts[-1]), dtype=np.int64) + offsets], starts)

    def wrapped(self, first: int, last: int) -> Lines:
        """Every line with ``first`` put before it and ``last`` after it (the sentence
        boundaries of seed 000 §3.4)."""
        n = len(self)
        starts = self.starts + 2 * np.arange(n + 1, dtype=np.int64)
        ids = np.empty(int(starts[-1]), dtype=np.int64)
        ids[starts[:-1]] = first
        ids[starts[1:] - 1] = last
        inner = np.ones(len(ids), dtype=np.bool_)
        inner[starts[:-1]] = False
        inner[starts[1:] - 1] = False
        ids[inner] = self.ids
        return Lines(ids, starts)


def encode(
    pp: Preprocessor,
    texts: Sequence[str],
    vocab: dict[str, int],
    *,
    grow: bool,
    cached: bool = True,
) -> Lines:
    """The tokens of ``texts`` (``pp.tokens``, never with sentence boundaries) as ids of
    ``vocab``: a token not in it is added with the next id when ``grow``, else is -1.

    ``cached=False`` tokenizes without filling the preprocessor's cache (a whole corpus,
    scored once: caching it would only hold memory).
    """
    # A few thousand texts at a time: their token tuples are the bulk of the memory
    # this takes, and they are dropped as soon as they are ids.
    parts = [
        _encode_some(pp, texts[k : k + CHUNK], vocab, grow=grow, cached=cached)
        for k in range(0, len(texts), CHUNK)
    ]
    return _concatenate(parts)


#: Texts encoded at a time (what bounds the memory of encoding a whole corpus).
CHUNK = 2048


def _encode_some(
    pp: Preprocessor, texts: Sequence[str], vocab: dict[str, int], *, grow: bool, cached: bool
) -> Lines:
    if pp.tokenize == "char":
        return _encode_chars(pp, texts, vocab, grow=grow)
    tokenize = pp.tokens if cached else pp.tokens_uncached
    token_lists = [tokenize(text) for text in texts]
    lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
    starts = np.zeros(len(token_lists) + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    flat = chain.from_iterable(token_lists)
    if grow:
        for token in dict.fromkeys(chain.from_iterable(token_lists)):
            vocab.setdefault(token, len(vocab))
    ids = np.fromiter(map(vocab.get, flat, repeat(-1)), dtype=np.int64, count=int(starts[-1]))
    return Lines(ids, starts)


def _concatenate(parts: Sequence[Lines]) -> Lines:
    if len(parts) == 1:
        return parts[0]
    if not parts:
        return Lines(np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64))
    offsets = np.cumsum([0] + [int(p.starts[-1]) for p in parts[:-1]])
    starts = np.concatenate(
        [parts[0].starts[:1]] + [p.starts[1:] + o for p, o in zip(parts, offsets, strict=True)]
    )
    return Lines(np.concatenate([p.ids for p in parts]), starts.astype(np.int64))


def _encode_chars(
    pp: Preprocessor, texts: Sequence[str], vocab: dict[str, int], *, grow: bool
) -> Lines:
    """``tok:char`` without a Python object per character: the texts' characters (as
    :class:`~metrics.tokenize_cjk.TokenizerChar` keeps them) as code points, mapped to ids
    through the distinct characters only."""
    kept = [
        "".join((text.lower().rstrip() if pp.lowercase else text.rstrip()).split())
        for text in texts
    ]
    lengths = np.fromiter(map(len, kept), dtype=np.int64, count=len(kept))
    starts = np.zeros(len(kept) + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    codes = np.frombuffer("".join(kept).encode("utf-32-le", "surrogatepass"), dtype="<u4")
    codes = codes.astype(np.int64)
    top = int(codes.max()) if len(codes) else -1
    if grow:  # new characters get ids in order of first appearance, as dict.fromkeys
        distinct, first = np.unique(codes, return_index=True)
        for c in distinct[np.argsort(first, kind="stable")].tolist():
            vocab.setdefault(chr(c), len(vocab))
    elif top < 1 << 22:
        distinct = np.flatnonzero(np.bincount(codes, minlength=top + 1))
    else:
        distinct = np.unique(codes)
    known = np.fromiter(
        (vocab.get(chr(c), -1) for c in distinct.tolist()), dtype=np.int64, count=len(distinct)
    )
    if top < 1 << 22:  # a direct table over the code points
        table = np.full(top + 1, -1, dtype=np.int64)
        table[distinct] = known
        return Lines(table[codes], starts)
    return Lines(known[np.searchsorted(distinct, codes)], starts)
