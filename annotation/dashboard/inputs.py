"""What one view of the dashboard is made from, and how it reads from and writes to the
address: :class:`DashboardInputs`.

Everything a panel shows is a function of these inputs and of the database as of the
corpus row's stamps (the judgments, texts and imported scores stamps that the view reads
with the row): the parts remembered between requests are keyed by them
(:mod:`~annotation.statistics.memo`), so two views with equal inputs and unmoved stamps
show the same figures.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode

from annotation.dashboard.preprocessing import Preprocessing
from annotation.dashboard.table import check_sort, table_columns
from annotation.models import Corpus
from annotation.models.corpus import Protocol
from annotation.statistics import external_metrics, protocol_figures
from annotation.text import corpus_language, corpus_tokenizer
from metrics.human import MQM_SPANS
from metrics.stats import MetricInfo
from metrics.tokenize import DEFAULT_TOKENIZER

#: ``norm``: the judges' scores as given, or (0, 1)-normalized per judge (seed 000 §3.5).
NORMS = {"raw": False, "z": True}
#: ``rank``: the human columns ranked by the bootstrap on the judged sentences (default)
#: or by the estimates of the whole corpus (:mod:`annotation.dashboard.estimates`).
RANKS = {"bootstrap": False, "estimate": True}


def corpus_columns(corpus: Corpus) -> dict[str, MetricInfo]:
    """The table's columns with their facts: the app's metrics (the human ones of the
    corpus's protocol: :func:`~annotation.statistics.protocol_figures`), then the metrics
    a lead imported for the corpus (no query when it has none; remembered when it has)."""
    columns = table_columns(
        {m.name: m.info for m in external_metrics(corpus)}, protocol_figures(corpus.protocol)
    )
    if corpus.protocol == Protocol.MQM:  # MQM itself, from the judge's spans
        columns["mqm"] = MQM_SPANS.info
    return columns


@dataclass(frozen=True)
class DashboardInputs:
    """The corpus (its row as this request read it, stamps and all), seed 000's
    preprocessing choice, and the view's own choices: the (0, 1) normalization of the
    judges' scores, the table's sort (a column, "-" before it for worst first) and
    ``by_estimate`` (``?rank=estimate``: the table's human columns show the estimates of
    the whole corpus and rank by them)."""

    corpus: Corpus
    preprocessing: Preprocessing = field(default_factory=Preprocessing)
    normalize: bool = False
    sort: str = ""
    by_estimate: bool = False

    @classmethod
    def from_params(cls, corpus: Corpus, params: Mapping[str, str]) -> DashboardInputs:
        """Read the query parameters; a missing or empty one is the default, a bad one a
        ``ValueError`` naming it (the views answer 400). A sort by an imported metric's
        column is checked against the corpus's imported metrics."""
        norm = params.get("norm") or "raw"
        if norm not in NORMS:
            raise ValueError(f"norm={norm!r}: choose raw or z")
        rank = params.get("rank") or "bootstrap"
        if rank not in RANKS:
            raise ValueError(f"rank={rank!r}: choose bootstrap or estimate")
        preprocessing = Preprocessing.from_params(params, Preprocessing.for_corpus(corpus))
        sort = params.get("sort") or ""
        if sort:  # a column of the corpus's (its protocol's, its imported metrics')
            check_sort(sort, corpus_columns(corpus))
        return cls(corpus, preprocessing, NORMS[norm], sort, RANKS[rank])

    @property
    def is_default(self) -> bool:
        """Whether the choice is the corpus's default, the one ``manage.py scores``
        prints (:meth:`Preprocessing.for_corpus`)."""
        return self.preprocessing == Preprocessing.for_corpus(self.corpus)

    @property
    def tokenizer_language(self) -> str:
        """The corpus's target language when it picked the chosen tokenizer (``zh`` for
        ``tok:zh``; the page says so beside the choices' signature), else ""."""
        tokenize = self.preprocessing.tokenize
        if tokenize == DEFAULT_TOKENIZER or tokenize != corpus_tokenizer(self.corpus):
            return ""
        return corpus_language(self.corpus)

    def query(self, **changes: str) -> str:
        """``?tok=…&case=…&reflen=…&bounds=…[&norm=z][&sort=…][&rank=estimate]`` with
        ``changes`` applied (an empty value leaves its parameter out)."""
        params = self.preprocessing.params()
        if self.normalize:
            params["norm"] = "z"
        if self.sort:
            params["sort"] = self.sort
        if self.by_estimate:
            params["rank"] = "estimate"
        params.update(changes)
        return "?" + urlencode({k: v for k, v in params.items() if v})
