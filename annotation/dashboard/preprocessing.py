"""Seed 000's preprocessing choices for the automatic metrics, as the dashboard's query
parameters, and the metric objects they configure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from annotation.statistics import AUTOMATIC_METRICS, app_metric, default_preprocessor
from annotation.text import Attributed
from metrics.registry import REF_LENGTHS
from metrics.stats import Metric, format_signature
from metrics.tokenize import TOKENIZERS, Preprocessor

CASES = {"mixed": False, "lc": True}
TOKENIZE_CHOICES: tuple[str, ...] = tuple(TOKENIZERS)
REF_LENGTH_CHOICES: tuple[str, ...] = REF_LENGTHS
BOUNDS = {"no": False, "yes": True}
#: Which references the automatic metrics read: the corpus's own, or those grown by the
#: judges' accepted new references (:mod:`annotation.statistics.pool_references`).
REFS = {"original": False, "pool": True}


@dataclass(frozen=True)
class Preprocessing:
    """Seed 000's choices for the automatic metrics: tokenization (§3.1), case (§3.2),
    reference length (§3.3; mWER and PER — BLEU keeps "closest" and NIST "average", as
    their reference implementations do) and sentence boundaries (§3.4; n-gram metrics);
    and which references every automatic metric reads (``pool``: the corpus's own ones
    grown by the judges' new references, seed 001 §2–3's argument for mWER).

    The query parameters are the signature's own keys: ``tok``, ``case`` (mixed|lc),
    ``reflen``, ``bounds`` (no|yes) and ``refs`` (original|pool). ``Preprocessing()``
    is seed 000's defaults (13a, …); a corpus's default (:meth:`for_corpus`) is what its
    import scores and ``manage.py scores`` uses.
    """

    tokenize: str = "13a"
    lowercase: bool = False
    ref_length: str = "nearest"
    sentence_boundaries: bool = False
    pool: bool = False

    @classmethod
    def for_corpus(cls, corpus: Attributed) -> Preprocessing:
        """The corpus's default choice, the one its import scores and ``manage.py scores``
        and the judges' live figures read (:func:`annotation.statistics.
        default_preprocessor`): seed 000's defaults with the tokenizer the corpus's target
        language picks (``zh`` for Chinese, ``ja-mecab``, ``ko-mecab``), so that BLEU of
        such a corpus is the one WMT publishes."""
        pp = default_preprocessor(corpus)
        return cls(pp.tokenize, pp.lowercase, sentence_boundaries=pp.sentence_boundaries)

    @classmethod
    def from_params(
        cls, params: Mapping[str, str], default: Preprocessing | None = None
    ) -> Preprocessing:
        """Read the GET form; a missing or empty parameter is ``default``'s (the corpus's:
        :meth:`for_corpus`), a bad one is a ``ValueError`` naming it (the view answers
        400)."""
        default = default or cls()
        tok = params.get("tok") or default.tokenize
        case = params.get("case") or "mixed"
        reflen = params.get("reflen") or default.ref_length
        bounds = params.get("bounds") or "no"
        refs = params.get("refs") or "original"
        if tok not in TOKENIZERS:
            raise ValueError(f"tok={tok!r}: choose one of {', '.join(TOKENIZERS)}")
        if case not in CASES:
            raise ValueError(f"case={case!r}: choose one of {', '.join(CASES)}")
        if reflen not in REF_LENGTHS:
            raise ValueError(f"reflen={reflen!r}: choose one of {', '.join(REF_LENGTHS)}")
        if bounds not in BOUNDS:
            raise ValueError(f"bounds={bounds!r}: choose one of {', '.join(BOUNDS)}")
        if refs not in REFS:
            raise ValueError(f"refs={refs!r}: choose one of {', '.join(REFS)}")
        return cls(tok, CASES[case], reflen, BOUNDS[bounds], REFS[refs])

    def params(self) -> dict[str, str]:
        """The five query parameters (always all five, so a link states every choice)."""
        return {
            "tok": self.tokenize,
            "case": "lc" if self.lowercase else "mixed",
            "reflen": self.ref_length,
            "bounds": "yes" if self.sentence_boundaries else "no",
            "refs": "pool" if self.pool else "original",
        }

    def preprocessor(self) -> Preprocessor:
        return Preprocessor(
            tokenize=self.tokenize,
            lowercase=self.lowercase,
            sentence_boundaries=self.sentence_boundaries,
        )

    @property
    def signature(self) -> str:
        """``tok:13a|case:mixed|reflen:nearest|bounds:no|refs:original``: the choices as a
        partial signature (:func:`metrics.stats.format_signature`, no version), shown on
        the page and part of the cache key."""
        return format_signature(dict(self.params()), version=False)


def metric_objects(preprocessing: Preprocessing) -> dict[str, Metric]:
    """The automatic metrics as configured (for ``score_from_stats``; no tokenizing)."""
    pp = preprocessing.preprocessor()
    return {m: app_metric(m, pp, preprocessing.ref_length) for m in AUTOMATIC_METRICS}
