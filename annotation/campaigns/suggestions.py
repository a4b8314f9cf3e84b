"""How often the judges of an ESA corpus with pre-filled spans kept what was suggested
to them (the campaign page's "Suggestions kept"): per judge and per source of the
suggestions (the aWER alignment, an imported span file), each suggestion *kept*,
*edited* or *removed* by the rule of :func:`metrics.error_spans.suggestion_outcome`.
Automation bias is ESA^AI's known risk (Zouhar, Kocmi & Sachan 2025): a judge who keeps
nearly everything may not be reading.

Only done judgments count (an item in progress has not been decided on yet). One query
whatever the corpus size, none for a corpus that suggests nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from annotation.models import Corpus, Judgment, Protocol, Span
from metrics.error_spans import MarkedSpan, SuggestionCounts, suggestion_counts

#: The row of every judge together.
ALL_JUDGES = ""


@dataclass(frozen=True)
class SuggestionsKept:
    """One row of the table: a judge (:data:`ALL_JUDGES`: everyone), a source and what
    became of its suggestions."""

    judge: str
    source: str
    counts: SuggestionCounts

    @property
    def source_label(self) -> str:
        return Span.Source(self.source).label


def suggestions_kept(corpus: Corpus) -> list[SuggestionsKept]:
    """Per judge (by name) and source, then per source for every judge together, what
    became of the suggestions of the corpus's done judgments (module doc)."""
    if corpus.protocol != Protocol.ESA_PREFILL:
        return []
    rows = (
        Span.objects.filter(
            origin=Span.Origin.SUGGESTED,
            judgment__target__sentence__corpus=corpus,
            judgment__state=Judgment.State.DONE,
        )
        .order_by()
        .values_list(
            "pk",
            "judgment__evaluator__username",
            "source",
            "start",
            "end",
            "severity",
            "category",
            "missing",
            "kept_as__start",
            "kept_as__end",
            "kept_as__severity",
            "kept_as__category",
            "kept_as__missing",
            named=True,
        )
    )
    suggested: dict[int, tuple[str, str, MarkedSpan]] = {}
    named_by: dict[int, list[MarkedSpan]] = defaultdict(list)
    for r in rows:
        suggested[r.pk] = (
            r.judgment__evaluator__username,
            r.source,
            MarkedSpan(r.start, r.end, r.severity, r.category, r.missing),
        )
        if r.kept_as__start is not None:
            named_by[r.pk].append(
                MarkedSpan(
                    r.kept_as__start,
                    r.kept_as__end,
                    r.kept_as__severity,
                    r.kept_as__category,
                    r.kept_as__missing,
                )
            )
    groups: dict[tuple[str, str], list[tuple[MarkedSpan, list[MarkedSpan]]]] = defaultdict(list)
    for pk, (judge, source, span) in suggested.items():
        pair = (span, named_by[pk])
        groups[judge, source].append(pair)
        groups[ALL_JUDGES, source].append(pair)
    order = [str(s) for s in Span.Source]
    return [
        SuggestionsKept(judge, source, suggestion_counts(pairs))
        for (judge, source), pairs in sorted(
            groups.items(), key=lambda g: (g[0][0] == ALL_JUDGES, g[0][0], order.index(g[0][1]))
        )
    ]
