"""Pre-filled spans (ESA with pre-filled spans, ESA^AI): the spans a judge of an
``esa_prefill`` corpus finds marked when they first open a candidate, to keep, remove
or edit.

**When.** The suggestions are written once, when the judgment is created (the judge's
first visit: :func:`annotation.judging.start.judgment_open`), not at import: a span row
belongs to a judgment, which does not exist before, and the alignment's suggestions
need the references the judge's pool holds (a control item's hidden reference is not
among them, so a suggestion never gives a control away). A file imported later changes
the suggestions of candidates no judge has opened yet; one already opened keeps what
its judge was shown, so what was suggested and what was kept stay comparable.

**Where from.** The spans an imported file gave the candidate
(:class:`~annotation.models.ImportedSpans`, source ``imported``) where there are any,
else those of the aWER alignment against the nearest reference
(:func:`metrics.prefill.suggested_spans`, source ``awer``); a degraded control item
(its own text) always takes the alignment's. Each suggestion is a row of origin
``suggested``, and the judge's copy of it a row of origin ``judge`` that names it
(:mod:`annotation.models.span`): the page shows the judge's spans, so the judge starts
from the suggestions and every click changes only their own copy.
"""

from __future__ import annotations

from annotation.judging.pool import (
    References,
    build_pool,
    nearest_in_pool,
    pooled_references,
    sentence_references,
)
from annotation.judging.span_rows import in_order, span_row
from annotation.models import ImportedSpans, Judgment, Protocol, Span
from annotation.text import words
from metrics.error_spans import MarkedSpan, span_of_json, span_problems
from metrics.prefill import suggested_spans


def prefilled(
    judgment: Judgment, references: References | None = None
) -> tuple[str, list[MarkedSpan]]:
    """The source (:class:`~annotation.models.Span.Source`) and the spans suggested for
    ``judgment`` (module doc). ``references``: the judge's pooled references of the
    sentence where the caller has read them already (a new judgment's start has), so
    they are not read twice."""
    text = judgment.candidate_text
    target = judgment.target
    if judgment.control != Judgment.Control.DEGRADED:
        imported = ImportedSpans.objects.filter(target=target).values_list("spans", flat=True)
        for spans in imported:
            return Span.Source.IMPORTED, in_order(span_of_json(s) for s in spans)
    if references is None:
        references = pooled_references(
            sentence_references(target.sentence_id),
            corpus=target.sentence.corpus,
            user_id=judgment.evaluator_id,
            sentence_id=target.sentence_id,
            shown=target.text if judgment.control == Judgment.Control.REFERENCE else None,
        )
    hyp = words(text)
    pool = build_pool(
        hyp, references.texts, [], first_is_first_reference=references.first_is_first_reference
    )
    if not pool:
        return Span.Source.AWER, []
    return Span.Source.AWER, suggested_spans(text, hyp, nearest_in_pool(pool, 1)[0].words)


def suggestions_write(judgment: Judgment, references: References | None = None) -> None:
    """Write ``judgment``'s suggestions and the judge's copies of them, where its corpus
    pre-fills spans; call it in the transaction that creates the judgment (with the
    pooled ``references`` it read, where it did: :func:`prefilled`)."""
    if judgment.target.sentence.corpus.protocol != Protocol.ESA_PREFILL:
        return
    source, spans = prefilled(judgment, references)
    if not spans or span_problems(spans, judgment.candidate_text):
        return  # a text changed since its file was imported: nothing sound to suggest
    suggested = Span.objects.bulk_create(
        span_row(judgment, s, origin=Span.Origin.SUGGESTED, source=source) for s in spans
    )
    Span.objects.bulk_create(
        span_row(judgment, s, origin=Span.Origin.JUDGE, suggestion=row)
        for s, row in zip(spans, suggested, strict=True)
    )
