"""TER, the translation edit rate with shifts (Snover et al. 2006, "A Study of Translation
Edit Rate with Targeted Human Annotation", AMTA), as sacreBLEU 2.6 computes it.

TER is the fewest edits — insertions, deletions, substitutions of one word and *shifts*
of a contiguous block of words, each costing 1 — that turn the candidate into a
reference, divided by the reference length. With several references, a segment's edits
are the fewest over its references and its length the *average* reference length
(Snover et al. §2); the corpus score is ``Σ edits / Σ average lengths × 100``, so one
row per segment, ``[edits, average reference length]``, is its sufficient statistic
(summed for the corpus, resampled by the bootstrap). An empty reference side scores 0
when the candidate is empty too, else 100 (sacreBLEU's rule: :func:`metrics.wer.rate` with
``empty_reference="100"``).

Finding the fewest edits with shifts is NP-hard; TER uses tercom's greedy search, which
sacreBLEU reimplements and this module follows step for step, so that the figures agree:

* repeatedly apply the shift that lowers the edit distance the most (ties: the longer
  block, then the earlier block, then the earlier target position), until none lowers it;
* a shift moves a block of at most 10 words (``MAX_SHIFT_SIZE``) that matches the
  reference somewhere at most 50 positions (``MAX_SHIFT_DIST``) away, only if the block
  is misaligned in the candidate and the reference words it matches are misaligned too;
* the edit distance is a "beam" Levenshtein distance that looks at 25 cells
  (``BEAM_WIDTH``) either side of the (length-scaled) diagonal, and its alignment breaks
  ties as tercom does (match or substitution, then deletion, then insertion);
* at most 1,000 shift candidates (``MAX_SHIFT_CANDIDATES``) are tried per sentence pair
  (sacreBLEU's own bound; once reached, the shift found in that round is dropped, as
  sacreBLEU drops it).

Normalisation is sacreBLEU's TER default, not the dashboard's preprocessing choice:
``tok:tercom`` — the text lowercased (``case:lc``; ``case_sensitive=True`` keeps case)
and split at whitespace; tercom's ``normalized``, ``no_punct`` and ``asian_support``
options are sacreBLEU's too (:mod:`metrics.ter_tokenize`, :class:`Normalisation`).
``docs/metrics.md`` says why.

Speed (the same results as sacreBLEU's code, computed with less work): words are token
ids; the segments of a call (and the systems of :meth:`TER.systems_stats`) are searched
together, each step's edit distances of all of them computed at once with numpy
(:mod:`metrics.ter_search`, :mod:`metrics.ter_beam`); a candidate shift's distance is
computed from the first row the shift changes, without its alignment (only the chosen
shift's matrix is kept, to read the next alignment from); shift blocks are found from
each word's positions in the reference rather than by comparing every pair of
positions; and :class:`TERRefs` memoizes each (segment, candidate text) row, so a
sentence that several systems output is scored once. With several references, a
reference is searched only while its lower bound (:mod:`metrics.ter_bounds`: the words
the candidate shares with it and their order) is below the fewest edits found so far,
and gives up when, after some shifts, the bound of its shifted words says it cannot
beat them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from metrics.facts import facts_of
from metrics.stats import (
    FloatArray,
    Metric,
    References,
    check_prepared_for,
    format_signature,
    nrefs_label,
)
from metrics.ter_band import BEAM_WIDTH
from metrics.ter_bounds import (
    SegmentTable,
    edit_parts,
    lcs_length,
    order_bound,
    position_bits,
    segment_table,
)
from metrics.ter_search import (
    MAX_SHIFT_CANDIDATES,
    MAX_SHIFT_DIST,
    MAX_SHIFT_SIZE,
    Search,
    edits_search,
    run_searches,
)
from metrics.ter_tokenize import tercom_words
from metrics.wer import rate

__all__ = [
    "BEAM_WIDTH",
    "MAX_SHIFT_CANDIDATES",
    "MAX_SHIFT_DIST",
    "MAX_SHIFT_SIZE",
    "TER",
    "TERRefs",
    "ter_edits",
    "ter_row",
    "ter_rows",
    "ter_words",
]

Words = Sequence[int]
Row = tuple[float, float]


@dataclass(frozen=True)
class Normalisation:
    """TER's normalisation options, sacreBLEU's ``TER(…)`` and ``--ter-*`` ones
    (:mod:`metrics.ter_tokenize`); all off: lowercased and split at whitespace."""

    case_sensitive: bool = False
    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False

    def words(self, text: str) -> Sequence[str]:
        """The words TER compares."""
        if self.normalized or self.no_punct:
            return tercom_words(
                text, self.case_sensitive, self.normalized, self.no_punct, self.asian_support
            )
        return (text if self.case_sensitive else text.lower()).split()


def ter_words(text: str, case_sensitive: bool = False) -> Sequence[str]:
    """sacreBLEU's default TER tokenization (``TercomTokenizer`` without options, then a
    split at whitespace): lowercase unless ``case_sensitive``."""
    return Normalisation(case_sensitive).words(text)


def ter_edits(hyp: Words, ref: Words) -> int:
    """The TER edits (shifts + beam edit distance after them) of one candidate against
    one reference, both as token ids: sacreBLEU's ``translation_edit_rate``."""
    (edits,) = run_searches([edits_search(hyp, tuple(ref))])
    assert isinstance(edits, int)  # noqa: S101 (an edit search returns an int)
    return edits


def row_search(hyp: Words, refs: Sequence[Words], table: SegmentTable | None = None) -> Search:
    """The search of one segment's row ``[fewest edits over the references, average
    reference length]`` (a generator for :func:`metrics.ter_search.run_searches`);
    ``table``: the references' :func:`~metrics.ter_bounds.segment_table`, if made.

    A reference is searched only if it could beat the best so far: its lower bound
    (:func:`metrics.ter_bounds.edit_bounds`, from the words the candidate shares with
    it and their order) must be below the best edits found. The references are tried
    from the lowest bound up, and a search after the first gives up once its shifts
    plus the bound of its shifted words (:func:`_floor`) reach the best: it could not
    beat it either. The minimum is the same."""
    length = sum(len(r) for r in refs) / len(refs)
    if len(refs) == 1:
        return float((yield from edits_search(hyp, tuple(refs[0])))), length
    size, common, lcs = edit_parts(hyp, table or segment_table(refs))
    bounds = order_bound(size, common, lcs).tolist()
    best = -1
    for r in sorted(range(len(refs)), key=bounds.__getitem__):
        if best >= 0 and bounds[r] >= best:
            break
        ref = tuple(refs[r])
        if best < 0:
            edits = yield from edits_search(hyp, ref)
        else:  # give up once this reference provably needs at least ``best`` edits
            floor = _floor(int(size[r]), int(common[r]), ref)
            edits = yield from edits_search(hyp, ref, best, floor)
        if best < 0 or edits < best:
            best = edits
    return float(best), length


def _floor(size: int, common: int, ref: Words) -> Callable[[Words], int]:
    """The order bound (:func:`metrics.ter_bounds.order_bound`) of the edits of a search
    from shifted candidate words against ``ref``: the words' LCS with the reference is
    computed anew, their length and multiset (``size``, ``common``) are the
    candidate's. Shifts applied so far raise the LCS by what they really gained, often
    less than the ``MAX_SHIFT_SIZE`` words per shift the bound before the search
    allows; each costs one edit all the same, so their count plus this floor rises
    towards the fewest edits found, where :func:`edits_search` gives up."""
    bits = position_bits(ref)

    def floor(words: Words) -> int:
        return int(order_bound(size, common, lcs_length(words, bits, len(ref))))

    return floor


def ter_rows(
    pairs: Sequence[tuple[Words, Sequence[Words]]],
    tables: Sequence[SegmentTable | None] | None = None,
) -> list[Row]:
    """The rows of many segments ``(candidate, references)``, searched together
    (``tables``: their references' :func:`~metrics.ter_bounds.segment_table`, if made)."""
    tables = tables if tables is not None else [None] * len(pairs)
    rows = run_searches(
        [row_search(hyp, refs, t) for (hyp, refs), t in zip(pairs, tables, strict=True)]
    )
    return rows  # type: ignore[return-value]


def ter_row(hyp: Words, refs: Sequence[Words]) -> Row:
    """One segment's row ``[fewest edits over the references, average reference
    length]`` (:func:`row_search`)."""
    return ter_rows([(hyp, refs)])[0]


@dataclass(frozen=True, eq=False)
class TERRefs:
    """References tokenized once as ids of ``vocab``; ``refs[k]`` are segment ``k``'s,
    ``tables[k]`` their counts for the search bounds (made once for every system);
    ``memo`` maps ``(segment, candidate text)`` to its row."""

    config: tuple[object, ...]
    vocab: dict[str, int]
    refs: list[tuple[tuple[int, ...], ...]]
    tables: list[SegmentTable] = field(compare=False, repr=False)
    memo: dict[tuple[int, str], Row] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.refs)


class TER(Metric):
    """Translation edit rate with shifts (Snover et al. 2006; module doc)."""

    info = facts_of("ter").info

    def __init__(
        self,
        case_sensitive: bool = False,
        *,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
    ) -> None:
        self.normalisation = Normalisation(case_sensitive, normalized, no_punct, asian_support)

    @property
    def case_sensitive(self) -> bool:
        return self.normalisation.case_sensitive

    def _config(self) -> tuple[object, ...]:
        return ("TER", self.normalisation)

    def _ids(self, text: str, vocab: dict[str, int]) -> tuple[int, ...]:
        get = vocab.setdefault
        return tuple(get(w, len(vocab)) for w in self.normalisation.words(text))

    def prepare_references(self, refs: References) -> TERRefs:
        vocab: dict[str, int] = {}
        out = []
        for k, seg in enumerate(refs):
            if len(seg) == 0:
                raise ValueError(f"segment {k + 1} has no reference")
            out.append(tuple(self._ids(r, vocab) for r in seg))
        return TERRefs(self._config(), vocab, out, [segment_table(seg) for seg in out])

    def segment_stats(self, hyps: Sequence[str], prepared: TERRefs) -> FloatArray:
        return self.systems_stats({"": hyps}, prepared)[""]

    def systems_stats(
        self, systems: Mapping[str, Sequence[str]], prepared: TERRefs
    ) -> dict[str, FloatArray]:
        """``segment_stats`` of several systems at once: the rows not in the memo are
        searched together (:func:`ter_rows`), which is faster than system by system."""
        for hyps in systems.values():
            check_prepared_for(prepared, TERRefs, self._config(), hyps)
        memo = prepared.memo
        vocab = dict(prepared.vocab)  # candidates' new words get ids no reference has
        keys = sorted(
            {(k, t) for hyps in systems.values() for k, t in enumerate(hyps)}.difference(memo)
        )
        pairs = [(self._ids(text, vocab), prepared.refs[k]) for k, text in keys]
        tables = [prepared.tables[k] for k, _ in keys]
        memo.update(zip(keys, ter_rows(pairs, tables), strict=True))
        out = {}
        for name, hyps in systems.items():
            rows = np.empty((len(hyps), 2), dtype=np.float64)
            for k, text in enumerate(hyps):
                rows[k] = memo[(k, text)]
            out[name] = rows
        return out

    def score_from_stats(self, stats: FloatArray) -> FloatArray:
        return rate(stats, empty_reference="100")

    def signature_parts(self) -> dict[str, object]:
        """The normalisation and search choices (sacreBLEU's TER signature keys, and the
        shift limits it leaves implicit)."""
        n = self.normalisation
        return {
            "case": "mixed" if n.case_sensitive else "lc",
            "tok": "tercom",
            "norm": "yes" if n.normalized else "no",
            "punct": "no" if n.no_punct else "yes",
            "asian": "yes" if n.asian_support else "no",
            "shift": MAX_SHIFT_SIZE,
            "dist": MAX_SHIFT_DIST,
            "beam": BEAM_WIDTH,
        }

    def signature(self, refs: References) -> str:
        return format_signature({"nrefs": nrefs_label(refs), **self.signature_parts()})
