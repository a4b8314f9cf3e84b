"""jiwer's measures beside WER (issue 40, point 2): CER, and MER, WIL and WIP, the
word information measures of Morris, Maier and Green (2004, "From WER and RIL to MER
and WIL"), each against the first reference, as jiwer 4 computes them.

* **CER**: the character edits over the reference's characters (``Σ edits / Σ
  characters × 100``, row ``[edits, characters]``, like WER's). Characters are jiwer's
  ``cer_default``'s: the line stripped at both ends, every other character kept, spaces
  included. Only the case choice applies (``case:lc`` lowercases first); an empty
  reference follows the WER family's rule (``empty:ins``, jiwer's, by default).
* **MER**, **WIL**, **WIP** read the hits ``H``, substitutions ``S``, deletions ``D`` and
  insertions ``I`` of one alignment, summed over the corpus (row ``[H, S, D, I]``):
  ``MER = (S + D + I) / (H + S + D + I)``, ``WIP = H/N₁ · H/N₂`` (``N₁ = H + S + D`` the
  reference's words, ``N₂ = H + S + I`` the candidate's), ``WIL = 1 − WIP``; in percent.
  Words are the preprocessor's tokens (``tok:none`` splits at whitespace as jiwer's
  default does). The alignment is jiwer's (rapidfuzz's, :mod:`metrics.editops`): another
  one with as few edits may split them otherwise, and change ``H``. A corpus whose
  references are all empty scores as jiwer's: MER 0 and WIP 100 for empty candidates,
  else MER 100 and WIP 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from metrics.editops import edit_counts
from metrics.encode import IntArray, Lines
from metrics.facts import facts_of
from metrics.stats import FloatArray, Metric, References, check_prepared_for, format_signature
from metrics.tokenize import Preprocessor
from metrics.wer import EditRefs, _distances, _EditRate, wer_rows

Units = tuple[str, ...]


@dataclass(frozen=True, eq=False)
class FirstReferences:
    """Each segment's first reference as the units a metric compares, for one
    configuration; ``memo`` maps ``(segment, candidate text)`` to its row."""

    config: tuple[object, ...]
    refs: list[Units]
    memo: dict[tuple[int, str], tuple[float, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __len__(self) -> int:
        return len(self.refs)


class _AgainstFirstReference(Metric):
    """Rows of one candidate against its segment's first reference, memoized."""

    width = 2

    def __init__(self, preprocessor: Preprocessor | None = None) -> None:
        self.preprocessor = preprocessor if preprocessor is not None else Preprocessor()

    def _config(self) -> tuple[object, ...]:
        return (type(self).__name__, self.preprocessor)

    def units(self, text: str) -> Units:
        """What the metric compares: the preprocessor's tokens."""
        return tuple(self.preprocessor.tokens_uncached(text))

    def row(self, hyp: Units, ref: Units) -> tuple[float, ...]:
        raise NotImplementedError

    def prepare_references(self, refs: References) -> FirstReferences:
        firsts = []
        for k, seg in enumerate(refs):
            if len(seg) == 0:
                raise ValueError(f"segment {k + 1} has no reference")
            firsts.append(self.units(seg[0]))
        return FirstReferences(self._config(), firsts)

    def segment_stats(self, hyps: Sequence[str], prepared: FirstReferences) -> FloatArray:
        check_prepared_for(prepared, FirstReferences, self._config(), hyps)
        out = np.empty((len(hyps), self.width), dtype=np.float64)
        for k, text in enumerate(hyps):
            key = (k, text)
            found = prepared.memo.get(key)
            if found is None:
                found = prepared.memo[key] = self.row(self.units(text), prepared.refs[k])
            out[k] = found
        return out


class CER(_EditRate):
    """Character error rate against the first reference (module doc): WER's rows and
    rules, each character a token (spelled as its code point, so that no tokenizer
    splits or joins them)."""

    info = facts_of("cer").info

    def __init__(self, preprocessor: Preprocessor | None = None, **options: str) -> None:
        """Only the case choice of ``preprocessor`` applies; ``options``: WER's
        (``empty_reference``)."""
        lowercase = preprocessor is not None and preprocessor.lowercase
        super().__init__(Preprocessor("none", lowercase=lowercase), **options)

    def spelled(self, text: str) -> str:
        """jiwer's characters of ``text`` (stripped, spaces kept) as code points."""
        text = text.strip()
        return " ".join(
            str(ord(c)) for c in (text.lower() if self.preprocessor.lowercase else text)
        )

    def prepare_references(self, refs: References) -> EditRefs:
        return super().prepare_references([[self.spelled(r) for r in seg] for seg in refs])

    def segment_stats(self, hyps: Sequence[str], prepared: EditRefs) -> FloatArray:
        return super().segment_stats([self.spelled(h) for h in hyps], prepared)

    def rows_of(self, hyps: Lines, segments: IntArray, prepared: EditRefs) -> FloatArray:
        pairs, distances = _distances(hyps, segments, prepared)
        return wer_rows(distances, prepared.refs.lengths[pairs.ref])

    def _signature_parts(self, refs: References) -> dict[str, object]:
        parts = super()._signature_parts(refs)
        del parts["bounds"]
        return {**parts, "tok": "chars"}


class _WordInformation(_AgainstFirstReference):
    """Rows ``[H, S, D, I]`` of jiwer's alignment (:func:`metrics.editops.edit_counts`)."""

    width = 4

    def row(self, hyp: Units, ref: Units) -> tuple[float, ...]:
        return tuple(float(x) for x in edit_counts(ref, hyp))

    def signature(self, refs: References) -> str:
        parts = self.preprocessor.signature_parts()
        parts.pop("bounds")
        return format_signature({"nrefs": "1", **parts, "align": "rapidfuzz"})

    @staticmethod
    def counts(stats: FloatArray) -> tuple[Any, Any, Any, Any]:
        stats = np.asarray(stats, dtype=np.float64)
        if stats.shape[-1] != 4:
            raise ValueError(f"rows of H, S, D, I have 4 columns, not {stats.shape[-1]}")
        return stats[..., 0], stats[..., 1], stats[..., 2], stats[..., 3]

    @classmethod
    def preserved(cls, stats: FloatArray) -> FloatArray:
        """WIP in percent (jiwer's rules for no reference or no candidate word)."""
        hits, subs, dels, ins = cls.counts(stats)
        n_ref, n_hyp = hits + subs + dels, hits + subs + ins
        with np.errstate(divide="ignore", invalid="ignore"):
            wip = (hits / n_ref) * (hits / n_hyp)
        wip = np.where(n_hyp > 0, wip, 0.0)
        wip = np.where(n_ref > 0, wip, np.where(n_hyp > 0, 0.0, 1.0))
        return cast(FloatArray, np.asarray(wip * 100.0, dtype=np.float64))


class MER(_WordInformation):
    """Match error rate: the edits over the alignment's length (module doc)."""

    info = facts_of("mer").info

    def score_from_stats(self, stats: FloatArray) -> FloatArray:
        hits, subs, dels, ins = self.counts(stats)
        errors, n_ref = subs + dels + ins, hits + subs + dels
        with np.errstate(divide="ignore", invalid="ignore"):
            mer = errors / (errors + hits)
        mer = np.where(n_ref > 0, mer, np.where(hits + subs + ins > 0, 1.0, 0.0))
        return cast(FloatArray, np.asarray(mer * 100.0, dtype=np.float64))


class WIP(_WordInformation):
    """Word information preserved (module doc)."""

    info = facts_of("wip").info

    def score_from_stats(self, stats: FloatArray) -> FloatArray:
        return self.preserved(stats)


class WIL(_WordInformation):
    """Word information lost: 100 − WIP (module doc)."""

    info = facts_of("wil").info

    def score_from_stats(self, stats: FloatArray) -> FloatArray:
        return 100.0 - self.preserved(stats)
