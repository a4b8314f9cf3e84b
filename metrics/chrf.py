"""chrF and chrF++ (Popović 2015, 2017), identical to sacreBLEU 2.6's ``CHRF()`` and
``CHRF(word_order=2)`` by default.

    chrFβ := (1 + β²) · P · R / (β² · P + R)

with P and R the character n-gram precision and recall averaged over the orders 1…6
(chrF++: also the word orders 1…2), β = 2. sacreBLEU's rules, followed one by one:

* whitespace is removed before the character n-grams are taken (``space:no``);
  chrF++'s words are the whitespace-separated words with one punctuation mark split off
  their end (or, failing that, their start), as sacreBLEU's ``_remove_punctuation``;
* *effective order*: an order enters the averages only where both the candidate and the
  reference have n-grams of it (``eff:yes``); with ``eps_smoothing`` the F-scores of
  every order are averaged instead, as chrF++.py, Moses and NLTK do (``eff:no``);
* an order at which the reference has no n-gram counts no candidate n-gram either;
* several references: each segment keeps the statistics of the reference with the best
  segment F-score (the first of equal ones), so the corpus score, computed from the
  summed statistics as every metric here, is sacreBLEU's ``corpus_score``.

Statistics rows are sacreBLEU's: ``[hyp, ref, match]`` per order, the character orders
first, then the word orders (``3 · (char_order + word_order)`` columns).

Preprocessing: chrF reads the raw text. The preprocessor's case choice applies
(``case:lc`` lowercases as sacreBLEU's ``lowercase=True``); its tokenizer and sentence
boundaries do not, which the signature says (``tok:none``).

Speed: every n-gram of every text is packed into one integer with its segment and its
line, and one ``np.sort`` per order groups equal n-grams line by line; the matches of
every (candidate, reference) pair of a segment follow from the run lengths, the work
following the pairs that share an n-gram (:mod:`metrics.chrf_match`). Scoring 20
systems is one pass over all their distinct candidates (:func:`pair_stats`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

from metrics.chrf_match import BoolArray, matches
from metrics.encode import IntArray
from metrics.facts import facts_of
from metrics.stats import (
    FloatArray,
    Metric,
    References,
    check_parallel,
    format_signature,
    nrefs_label,
)
from metrics.tokenize import Preprocessor

CHAR_ORDER = 6
BETA = 2
EPS = 1e-16
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def chrf_from_stats(
    stats: FloatArray, *, beta: int = BETA, eps_smoothing: bool = False
) -> FloatArray:
    """chrF (percent) of each row of ``stats`` (shape (..., 3 · orders)), vectorised;
    ``sacrebleu.CHRF._compute_f_score`` operation for operation, so equal statistics
    give equal floats (the best reference is chosen by comparing them)."""
    stats = np.asarray(stats, dtype=np.float64)
    orders = stats.shape[-1] // 3
    factor = float(beta**2)
    shape = stats.shape[:-1]
    score = np.zeros(shape)
    avg_prec, avg_rec = np.zeros(shape), np.zeros(shape)
    effective = np.zeros(shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(orders):
            n_hyp, n_ref, n_match = stats[..., 3 * i], stats[..., 3 * i + 1], stats[..., 3 * i + 2]
            prec = np.where(n_hyp > 0, n_match / n_hyp, EPS)
            rec = np.where(n_ref > 0, n_match / n_ref, EPS)
            denom = factor * prec + rec
            score = score + np.where(denom > 0, (1 + factor) * prec * rec / denom, EPS)
            both = (n_hyp > 0) & (n_ref > 0)
            avg_prec = avg_prec + np.where(both, prec, 0.0)
            avg_rec = avg_rec + np.where(both, rec, 0.0)
            effective = effective + both
        if eps_smoothing:
            return np.asarray(100 * score / orders, dtype=np.float64)
        avg_prec = np.where(effective > 0, avg_prec / effective, 0.0)
        avg_rec = np.where(effective > 0, avg_rec / effective, 0.0)
        f = (1 + factor) * avg_prec * avg_rec
        f = f / (factor * avg_prec + avg_rec)
        return np.asarray(np.where(avg_prec + avg_rec != 0, 100 * f, 0.0), dtype=np.float64)


def chrf_chars(text: str, *, lowercase: bool, whitespace: bool = False) -> str:
    """The characters chrF's n-grams are taken from (sacreBLEU: lowercase, then drop
    whitespace)."""
    text = text.lower() if lowercase else text
    return text if whitespace else "".join(text.split())


_P = "[" + "".join(sorted(re.escape(c) for c in PUNCTUATION)) + "]"
#: (Each pattern starts with the mark, so that the regex engine looks for marks only.)
#: A word of two or more characters whose first is a mark and last is not: "(a" → "( a".
_SPLIT_FIRST = re.compile(rf"({_P})(?<!\S.)(?=\S*[^\s{_P[1:]}(?!\S))", re.DOTALL)
#: A word of two or more characters whose last is a mark: "(a)" → "(a )", "a," → "a ,".
_SPLIT_LAST = re.compile(rf"({_P})(?<=\S.)(?!\S)", re.DOTALL)


def chrf_words(text: str, *, lowercase: bool) -> list[str]:
    """chrF++'s words: sacreBLEU's ``_remove_punctuation`` (one mark split off the end of
    a word, else off its start; a one-character word stays whole), by two substitutions
    (the tests hold them equal to sacreBLEU's loop)."""
    text = text.lower() if lowercase else text
    return _SPLIT_LAST.sub(r" \1", _SPLIT_FIRST.sub(r"\1 ", text)).split()


def _char_ids(lines: Sequence[str]) -> tuple[IntArray, IntArray]:
    """(ids ≥ 1 of all characters, line after line; each line's length)."""
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    points = np.frombuffer("".join(lines).encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    if len(points) == 0:
        return points, lengths
    if int(points.max()) < 1 << 17:  # a table instead of a sort
        present = np.bincount(points, minlength=1 << 17) > 0
        table = np.cumsum(present)  # 1 for the smallest code point present, …
        return table[points].astype(np.int64), lengths
    _, inverse = np.unique(points, return_inverse=True)
    return inverse.astype(np.int64) + 1, lengths


def _word_ids(lines: Sequence[list[str]]) -> tuple[IntArray, IntArray]:
    words = list(chain.from_iterable(lines))
    vocab = dict(zip(dict.fromkeys(words), range(1, len(words) + 1), strict=False))
    ids = list(map(vocab.__getitem__, words))
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    return np.asarray(ids, dtype=np.int64), lengths


def pair_stats(
    refs: References,
    cands: Sequence[str],
    cand_segment: IntArray,
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = 0,
    lowercase: bool = False,
    whitespace: bool = False,
) -> tuple[FloatArray, BoolArray]:
    """(stats[c, slot], valid[c, slot]): the statistics row of candidate ``c`` (segment
    ``cand_segment[c]``) against each reference of its segment; ``valid`` marks the
    slots its segment has."""
    n_seg = len(refs)
    n_refs = np.fromiter(map(len, refs), dtype=np.int64, count=n_seg)
    width = int(n_refs.max(initial=0))
    order = np.argsort(cand_segment, kind="stable")
    per_seg = np.bincount(np.asarray(cand_segment, dtype=np.int64), minlength=n_seg)
    seg_lines = n_refs + per_seg
    seg_first_line = np.zeros(n_seg, dtype=np.int64)
    np.cumsum(seg_lines[:-1], out=seg_first_line[1:])
    line_seg = np.repeat(np.arange(n_seg, dtype=np.int64), seg_lines)
    line_local = np.arange(len(line_seg), dtype=np.int64) - seg_first_line[line_seg]
    texts: list[str] = []
    cand_line = np.empty(len(cands), dtype=np.int64)
    seg_cands = np.split(order, np.cumsum(per_seg)[:-1]) if n_seg else []
    for k in range(n_seg):
        texts.extend(refs[k])
        first = seg_first_line[k] + n_refs[k]
        for j, c in enumerate(seg_cands[k]):
            texts.append(cands[c])
            cand_line[c] = first + j
    ref_line = seg_first_line[:, None] + np.arange(width)[None, :]
    valid = np.arange(width)[None, :] < n_refs[cand_segment][:, None]
    ref_of = np.where(valid, ref_line[cand_segment], 0)
    parts = []
    kinds: list[tuple[IntArray, IntArray, int]] = [
        (
            *_char_ids([chrf_chars(t, lowercase=lowercase, whitespace=whitespace) for t in texts]),
            char_order,
        ),
    ]
    if word_order:
        kinds.append((*_word_ids([chrf_words(t, lowercase=lowercase) for t in texts]), word_order))
    for ids, lengths, orders in kinds:
        found = matches(ids, lengths, line_seg, line_local, seg_first_line, n_refs, orders)
        for n in range(1, orders + 1):
            hyp = np.maximum(lengths[cand_line] - n + 1, 0)[:, None]
            ref = np.maximum(lengths[ref_of] - n + 1, 0)
            parts += [np.where(ref > 0, hyp, 0), ref, found[cand_line, :, n - 1]]
    stats = np.stack(parts, axis=-1).astype(np.float64) if parts else np.zeros((0, 0, 0))
    return stats, valid


def best_rows(
    stats: FloatArray, valid: BoolArray, *, beta: int = BETA, eps_smoothing: bool = False
) -> FloatArray:
    """Each candidate's row against its best reference (the highest segment chrF, the
    first of equal ones), as sacreBLEU's ``_compute_segment_statistics``."""
    if stats.shape[1] == 0:
        return np.zeros((len(stats), stats.shape[-1]), dtype=np.float64)
    f = np.where(valid, chrf_from_stats(stats, beta=beta, eps_smoothing=eps_smoothing), -1.0)
    best = np.argmax(f, axis=1)
    return np.asarray(stats[np.arange(len(stats)), best], dtype=np.float64)


class CHRF(Metric):
    """chrF in percent, sacreBLEU's ``CHRF()`` by default (see the module docstring)."""

    info = facts_of("chrf").info
    default_word_order = 0

    def __init__(
        self,
        preprocessor: Preprocessor | None = None,
        *,
        char_order: int = CHAR_ORDER,
        word_order: int | None = None,
        beta: int = BETA,
        whitespace: bool = False,
        eps_smoothing: bool = False,
    ) -> None:
        word_order = self.default_word_order if word_order is None else word_order
        for what, value, least in (
            ("char_order", char_order, 1),
            ("word_order", word_order, 0),
            ("beta", beta, 1),
        ):
            if not isinstance(value, int) or value < least:
                raise ValueError(f"{what}={value!r} must be a whole number ≥ {least}")
        self.preprocessor = preprocessor or Preprocessor()
        self.char_order = char_order
        self.word_order = word_order
        self.beta = beta
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing

    @property
    def n_stats(self) -> int:
        return 3 * (self.char_order + self.word_order)

    def prepare_references(self, refs: References) -> Any:
        """The references themselves: the n-grams of references and candidates are
        grouped together (one sort per order, :func:`pair_stats`)."""
        return tuple(tuple(seg) for seg in refs)

    def pair_stats(
        self, refs: References, cands: Sequence[str], cand_segment: IntArray
    ) -> tuple[FloatArray, BoolArray]:
        return pair_stats(
            refs,
            cands,
            cand_segment,
            char_order=self.char_order,
            word_order=self.word_order,
            lowercase=self.preprocessor.lowercase,
            whitespace=self.whitespace,
        )

    def rows_of(self, stats: FloatArray, valid: BoolArray) -> FloatArray:
        """Best-reference rows from :meth:`pair_stats` (or from a wider chrF++'s: the
        word orders above this metric's are dropped)."""
        keep = self.n_stats
        return best_rows(stats[..., :keep], valid, beta=self.beta, eps_smoothing=self.eps_smoothing)

    def segment_stats(self, hyps: Sequence[str], prepared: Any) -> FloatArray:
        check_parallel(hyps, prepared)
        segments = np.arange(len(hyps), dtype=np.int64)
        return self.rows_of(*self.pair_stats(prepared, hyps, segments))

    def score_from_stats(self, stats: FloatArray) -> Any:
        """chrF of summed statistics; (..., k) → (...), a (k,) row → a float."""
        stats = np.asarray(stats, dtype=np.float64)
        if stats.shape[-1] != self.n_stats:
            raise ValueError(f"chrF rows have {self.n_stats} columns, not {stats.shape[-1]}")
        out = chrf_from_stats(stats, beta=self.beta, eps_smoothing=self.eps_smoothing)
        return float(out) if out.ndim == 0 else out

    def signature(self, refs: References) -> str:
        return format_signature(
            {
                "nrefs": nrefs_label(refs),
                "case": "lc" if self.preprocessor.lowercase else "mixed",
                "eff": "no" if self.eps_smoothing else "yes",
                "nc": self.char_order,
                "nw": self.word_order,
                "beta": self.beta,
                "space": "yes" if self.whitespace else "no",
                "tok": "none",
            }
        )


class CHRFPlusPlus(CHRF):
    """chrF++ (Popović 2017): chrF with word unigrams and bigrams (``word_order=2``)."""

    info = facts_of("chrf++").info
    default_word_order = 2


#: Segments whose character n-grams :func:`corpus_rows` packs at once: a segment's rows
#: depend on its own texts only, so the corpus is scored in blocks, and the packed
#: n-grams of 20 systems never all stand in memory (``docs/performance.md``: a block is
#: as fast per segment, and a whole corpus at once costs hundreds of MB more).
BLOCK_SEGMENTS = 100


def corpus_rows(
    metrics: Sequence[CHRF], refs: References, systems: dict[str, Sequence[str]]
) -> dict[str, dict[str, FloatArray]]:
    """``out[system][metric name]``: the rows of every chrF metric for every system, each
    distinct (segment, candidate) scored once, and chrF from chrF++'s statistics when
    both are asked for (their character columns are the same), :data:`BLOCK_SEGMENTS`
    segments at a time."""
    cand_of: dict[tuple[int, str], int] = {}
    own = {
        name: np.fromiter(
            (cand_of.setdefault((k, t), len(cand_of)) for k, t in enumerate(hyps)),
            dtype=np.int64,
            count=len(hyps),
        )
        for name, hyps in systems.items()
    }
    segments = np.fromiter((k for k, _ in cand_of), dtype=np.int64, count=len(cand_of))
    texts = [t for _, t in cand_of]
    out: dict[str, dict[str, FloatArray]] = {name: {} for name in systems}
    groups: dict[tuple[int, bool, bool], list[CHRF]] = {}
    for m in metrics:
        key = (m.char_order, m.whitespace, m.preprocessor.lowercase)
        groups.setdefault(key, []).append(m)
    for group in groups.values():
        widest = max(group, key=lambda m: m.word_order)
        rows = {m.name: np.zeros((len(texts), m.n_stats), dtype=np.float64) for m in group}
        for start in range(0, len(refs), BLOCK_SEGMENTS):
            stop = min(start + BLOCK_SEGMENTS, len(refs))
            block = np.flatnonzero((segments >= start) & (segments < stop))
            stats, valid = widest.pair_stats(
                refs[start:stop], [texts[c] for c in block], segments[block] - start
            )
            for m in group:
                rows[m.name][block] = m.rows_of(stats, valid)
        for m in group:
            for name, cands in own.items():
                out[name][m.name] = rows[m.name][cands]
    return out
