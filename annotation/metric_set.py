"""Which metrics the app computes, and how it builds them: one place for the set the
dashboard, ``manage.py scores``, the stored statistics and the drill-down share.

The metrics themselves are :mod:`metrics`' (``python -m metrics`` builds the same objects
through :func:`metrics.registry.build_metric`); what is the app's own is the choice of
metrics and which of them follow the dashboard's preprocessing choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics.registry import build_metric
from metrics.stats import Metric
from metrics.tokenize import Preprocessor

AUTOMATIC_METRICS = (
    "wer",
    "ser",
    "mwer",
    "per",
    "per2",
    "ter",
    "bleu",
    "nist",
    "chrf",
    "chrf++",
    "wngram-p",
    "wngram-r",
    "wngram-f",
    "meteor",
    "lepor",
)
#: Metrics the app computes with their own fixed preprocessing (the default choice's,
#: shown in their signatures) whatever the dashboard's choice: each takes seconds per
#: corpus, so the import computes them once and every choice reuses them (equal
#: signatures, :func:`reusable`), rather than a new choice costing ten seconds more.
#: TER normalises as sacreBLEU's TER does in any case; METEOR lowercases every word as
#: NLTK does, so only its tokenizer is fixed (13a).
FIXED_PREPROCESSING = frozenset({"meteor", "lepor", "wngram-p", "wngram-r", "wngram-f"})


def app_metric(
    name: str,
    preprocessor: Preprocessor | None = None,
    ref_length: str = "nearest",
    documents: Sequence[str] | None = None,
) -> Metric:
    """The metric ``name`` as the app computes it under a preprocessing choice (the one
    place the app builds its metrics): those of :data:`FIXED_PREPROCESSING` with the
    default choice, the weighted n-grams with the sentences' documents."""
    pp = Preprocessor() if name in FIXED_PREPROCESSING else preprocessor or Preprocessor()
    return build_metric(name, preprocessor=pp, ref_length=ref_length, documents=documents)


HUMAN_METRICS = ("sser", "awer", "aser", "hter")
