"""Bigram PER (seed 000 §2.1.2, last paragraph; §3.4): PER on bigram count vectors.

    d_2PER := ½(|I₂ − Ĩ₂| + Σ_b |n_b − ñ_b|) = max(I₂, Ĩ₂) − Σ_b min(n_b, ñ_b)

over the bigrams b of candidate and reference (I₂ = I − 1 bigrams in a sentence of I
words, none in an empty or one-word sentence). "This will take into account the
ordering of the words within a sentence implicitly": swapping two words costs two
bigrams here and nothing in PER.

Choices the seed leaves open (docs/metrics.md):

* the distance is normalised, as PER's (§2.1.1, §3.3: minimum over references, the
  reference length by ``ref_length``), by the reference's number of **bigrams**, so that
  both sides of the rate count the same units: an identical candidate scores 0 %, one
  with no bigram in common with a reference as long as itself 100 %;
* sentence boundaries apply (§3.4 names bigram PER among the m-gram measures they are
  for): with ``bounds:yes`` every sentence is ``<s> … </s>``, so its first and last
  words count as bigrams of their own.
"""

from __future__ import annotations

import numpy as np

from metrics.encode import IntArray, Lines
from metrics.facts import facts_of
from metrics.stats import FloatArray
from metrics.tokenize import BOS, EOS
from metrics.wer import PER, EditRefs, SegmentPairs, per_commons, per_distances


def bigram_lines(lines: Lines, vocab: dict[str, int], boundaries: bool) -> Lines:
    """Each line's bigrams as ids (``-1``: a bigram with a word the references do not
    have, which matches nothing), inside ``<s>`` … ``</s>`` if ``boundaries`` (a literal
    ``<s>`` in a text is the boundary word, as in BLEU)."""
    span = len(vocab) + 2
    if boundaries:
        lines = lines.wrapped(vocab.get(BOS, span - 2), vocab.get(EOS, span - 1))
    lengths = lines.lengths
    starts = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(np.maximum(lengths - 1, 0), out=starts[1:])
    ids = lines.ids
    if len(ids) < 2:
        return Lines(np.zeros(0, dtype=np.int64), starts)
    follows = np.ones(len(ids) - 1, dtype=np.bool_)  # ids[i + 1] is in the line of ids[i]
    ends = lines.starts[1:][lengths > 0] - 1
    follows[ends[ends < len(ids) - 1]] = False
    first, second = ids[:-1][follows], ids[1:][follows]
    known = (first >= 0) & (second >= 0)
    return Lines(np.where(known, first * span + second, -1), starts)


class PER2(PER):
    """Bigram PER, minimised over references like PER (module docstring)."""

    info = facts_of("per2").info

    def rows_of(self, hyps: Lines, segments: IntArray, prepared: EditRefs) -> FloatArray:
        bounds = self.preprocessor.sentence_boundaries
        return self.bigram_rows(
            bigram_lines(hyps, prepared.vocab, bounds),
            bigram_lines(prepared.refs, prepared.vocab, bounds),
            SegmentPairs.of(segments, prepared.seg_start),
        )

    def bigram_rows(self, hyps: Lines, refs: Lines, pairs: SegmentPairs) -> FloatArray:
        """Rows from bigram lines (:func:`bigram_lines`) and the pairs to compare."""
        common = per_commons(hyps, refs, pairs.cand, pairs.ref)
        distances = per_distances(common, hyps.lengths[pairs.cand], refs.lengths[pairs.ref])
        return self.reduce(pairs, distances, refs.lengths, hyps.lengths)
