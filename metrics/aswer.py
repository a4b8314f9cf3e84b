"""AS-WER: the word error rate of an unsegmented candidate document (seed 002,
"Automatic segmentation word error rate"), and :func:`resegment_text`, the one call
that turns a candidate document into one candidate segment per reference segment.

``AS-WER = d_L / N̂``: ``d_L`` is the fewest edits of any split of the candidate into
the reference's segments with any choice of reference per segment
(:func:`metrics.segment.resegment`), ``N̂`` the length of the references chosen. Rows
are ``[edits, chosen reference's length]`` per segment, like WER's, so the corpus score
is ``Σ edits / Σ lengths × 100`` and the bootstrap works as for every metric.

Adding a reference never raises ``d_L`` (the minimum is over more choices), but it can
raise AS-WER: the new reference may save an edit while being shorter, so ``N̂`` falls
faster than ``d_L``.

By default the split and ``d_L`` are mwerSegmenter's (``mweralign=True``,
``mweralign:yes``): deleting whole segments before the candidate's first word costs one
edit more per segment end (:mod:`metrics.segment`); ``mweralign=False`` is seed 002's
recursion as written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from metrics.cj_words import cj_text, cj_words
from metrics.facts import facts_of
from metrics.segment import Segmentation, resegment, score_segments
from metrics.stats import (
    FloatArray,
    Metric,
    References,
    Score,
    check_prepared_for,
    format_signature,
    nrefs_label,
)
from metrics.tokenize import Preprocessor
from metrics.wer import DEFAULT_EMPTY_REFERENCE, check_empty_reference, rate

Words = tuple[str, ...]


def matching_words(
    preprocessor: Preprocessor, text: str, *, cj: bool = False
) -> tuple[Words, Words]:
    """``(words, keys)``: the tokens of ``text`` in their own case (what a re-segmented
    candidate is written with) and as compared (case-folded when the preprocessor
    lowercases). ``cj``: mweralign's ``cj`` words instead of the preprocessor's tokens
    (:mod:`metrics.cj_words`)."""
    words = cj_words(text) if cj else Preprocessor(preprocessor.tokenize).tokens_uncached(text)
    keys = tuple(w.lower() for w in words) if preprocessor.lowercase else words
    return words, keys


def resegment_text(
    document: str,
    refs: References,
    preprocessor: Preprocessor | None = None,
    *,
    mweralign: bool = True,
    cj: bool = False,
) -> tuple[Segmentation, list[str]]:
    """Re-segment a candidate ``document`` (its line breaks are ordinary spaces) against
    segment-major ``refs`` (``refs[k]`` holds segment ``k``'s references, as every metric
    takes them): the :class:`~metrics.segment.Segmentation` and the candidate's segments,
    one string per reference segment (tokens joined by one space; "" for an empty one).

    Words are the preprocessor's tokens (default: 13a, mixed case); with
    ``lowercase`` they are compared case-folded but written as they were. ``mweralign``:
    the charge before the first word as mwerSegmenter's (module docstring). ``cj``: the
    words are mweralign's ``cj`` words (:mod:`metrics.cj_words`), for Chinese and
    Japanese, and a segment is written as its text was, without spaces added.
    """
    pp = preprocessor or Preprocessor()
    words, keys = matching_words(pp, document, cj=cj)
    ref_keys = [[matching_words(pp, ref, cj=cj)[1] for ref in seg] for seg in refs]
    segmentation = resegment(keys, ref_keys, mweralign=mweralign)
    if cj:
        return segmentation, [cj_text(seg) for seg in segmentation.split(words)]
    return segmentation, segmentation.segments(words)


def document_ranges(documents: Sequence[str]) -> list[tuple[int, int]]:
    """The segments ``[start, end)`` of each document, in order: runs of equal ids, as
    mweralign's ``--docid-file`` reads them. A document whose segments are not all
    together is refused (mweralign would pair its lines with the wrong documents)."""
    ranges: list[tuple[int, int]] = []
    seen: set[str] = set()
    for k, doc in enumerate(documents):
        if k and doc == documents[k - 1]:
            continue
        if doc in seen:
            raise ValueError(
                f"document {doc!r} comes back at segment {k + 1}: a document's segments "
                "must be together"
            )
        seen.add(doc)
        if ranges:
            ranges[-1] = (ranges[-1][0], k)
        ranges.append((k, len(documents)))
    return ranges


def resegment_documents(
    lines: Sequence[str],
    refs: References,
    documents: Sequence[str],
    preprocessor: Preprocessor | None = None,
    *,
    mweralign: bool = True,
    cj: bool = False,
) -> tuple[Segmentation, list[str]]:
    """:func:`resegment_text` within documents, as mweralign with ``--docid-file``: line
    ``d`` of the candidate is document ``d`` (the ``d``-th run of ``documents``, one id
    per reference segment), re-segmented against that document's references alone. The
    segmentations are joined in order (boundaries counted over the lines' words one
    after another), and so are the segments."""
    if len(documents) != len(refs):
        raise ValueError(
            f"{len(documents)} document ids but {len(refs)} reference segments: one id a segment"
        )
    ranges = document_ranges(documents)
    if len(ranges) != len(lines):
        raise ValueError(
            f"{len(lines)} candidate lines but {len(ranges)} documents: one line a document"
        )
    found = [
        resegment_text(line, refs[a:b], preprocessor, mweralign=mweralign, cj=cj)
        for line, (a, b) in zip(lines, ranges, strict=True)
    ]
    return joined([seg for seg, _ in found]), [s for _, segments in found for s in segments]


def joined(parts: Sequence[Segmentation]) -> Segmentation:
    """Segmentations of consecutive documents as one (boundaries shifted by the words
    before each)."""
    boundaries: list[int] = []
    before = 0
    for part in parts:
        boundaries += [before + b for b in part.boundaries]
        before = boundaries[-1] if boundaries else 0
    return Segmentation(
        tuple(boundaries),
        tuple(r for part in parts for r in part.reference_per_segment),
        tuple(e for part in parts for e in part.segment_edits),
        tuple(n for part in parts for n in part.segment_ref_lengths),
    )


@dataclass(frozen=True)
class ASWERRefs:
    """References as compared, segment after segment, for one configuration."""

    config: tuple[object, ...]
    segments: tuple[tuple[Words, ...], ...]

    def __len__(self) -> int:
        return len(self.segments)


class ASWER(Metric):
    """AS-WER of candidate segments made by :func:`resegment_text` (see the module doc).

    :meth:`score_segmentation` takes the rows from the re-segmentation itself;
    :meth:`segment_stats` recomputes them from the segments (the same numbers: each
    segment's fewest edits over its references, and the length of the first reference
    with that many; with ``mweralign``, mwerSegmenter's charge on the empty segments
    before the first word: :func:`metrics.segment.score_segments`). With ``cj``, the
    words are mweralign's ``cj`` words; a segment written out is stripped, so its rows
    from the text can differ from the DP's where a space began or ended it.
    """

    info = facts_of("aswer").info

    def __init__(
        self,
        preprocessor: Preprocessor | None = None,
        *,
        empty_reference: str = DEFAULT_EMPTY_REFERENCE,
        mweralign: bool = True,
        cj: bool = False,
    ) -> None:
        self.preprocessor = preprocessor or Preprocessor()
        self.empty_reference = check_empty_reference(empty_reference)
        self.mweralign = mweralign
        self.cj = cj

    def _config(self) -> tuple[object, ...]:
        return ("aswer", self.preprocessor.tokenize, self.preprocessor.lowercase, self.cj)

    def prepare_references(self, refs: References) -> ASWERRefs:
        return ASWERRefs(
            self._config(),
            tuple(
                tuple(matching_words(self.preprocessor, ref, cj=self.cj)[1] for ref in seg)
                for seg in refs
            ),
        )

    def segment_stats(self, hyps: Sequence[str], prepared: ASWERRefs) -> FloatArray:
        check_prepared_for(prepared, ASWERRefs, self._config(), hyps)
        keys = [matching_words(self.preprocessor, hyp, cj=self.cj)[1] for hyp in hyps]
        _, edits, lengths = score_segments(keys, prepared.segments, mweralign=self.mweralign)
        return np.array([edits, lengths], dtype=np.float64).T.reshape(-1, 2)

    def score_from_stats(self, stats: FloatArray) -> FloatArray:
        return rate(stats, self.empty_reference)

    def signature(self, refs: References) -> str:
        parts = {"nrefs": nrefs_label(refs), **self.preprocessor.signature_parts()}
        parts.pop("bounds")
        if self.cj:
            parts["tok"] = "cj"  # mweralign's name for its words (metrics.cj_words)
        return format_signature(
            {
                **parts,
                "seg": "auto",
                "mweralign": "yes" if self.mweralign else "no",
                "empty": self.empty_reference,
            }
        )

    def score_segmentation(self, segmentation: Segmentation, refs: References) -> Score:
        """AS-WER of a re-segmentation (its rows are the DP's own)."""
        stats = np.array(
            [segmentation.segment_edits, segmentation.segment_ref_lengths], dtype=np.float64
        ).T.reshape(-1, 2)
        return Score(
            self.name,
            float(self.score_from_stats(stats.sum(axis=0))),
            self.signature(refs),
            stats,
        )
