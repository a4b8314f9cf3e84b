"""What a corpus's stored error spans hold fixed: the taxonomy's categories they name and
the candidate texts they mark. So an export never meets a span it cannot write
(:mod:`annotation.corpora.evaltrans.error_spans`: an MQM span's category is one of the
taxonomy's, every span lies inside its candidate's text) and never stops part-way
through a download.

The rule: nothing under a span changes. The taxonomy may change its weights, add
categories and reorder them at any time, but not drop (or rename) a category that a
stored span names; a candidate's text cannot change while a span marks its characters.
Refused on the corpus page and in the admin with the field and the reason (400), and for
a word moved across a segment boundary, the judge's move (:mod:`annotation.judging.
boundaries`).

Why refuse rather than mend: mapping a span to another category, dropping it or moving
its characters would rewrite a judge's work without the judge, and change the MQM score
the judge gave. Before the first span any change is free; after it, a lead who wants
another taxonomy or text exports the corpus, changes the file and imports it again, where
every span is checked against the new taxonomy and text, with its line.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db.models import Count

from annotation.models import Corpus, Span
from metrics.mqm import taxonomy_from_json

ERR_CATEGORY_IN_USE = (
    "category {name!r} is named by {count} error span(s) of the corpus's judgments: it "
    "stays in the taxonomy (its weights may change); to change it, export the corpus, "
    "change the file and import it again"
)
ERR_TEXT_UNDER_SPANS = (
    "{count} error span(s) of its judgments mark this candidate's characters: its text "
    "cannot change (export the corpus, change the file and import it again)"
)


def taxonomy_problem(corpus: Corpus, value: object) -> str | None:
    """Why ``corpus`` cannot take the taxonomy ``value`` (its JSON), or None: a category
    its spans name would leave it (module doc). A value that is no taxonomy at all is
    the field's validator's to refuse (:func:`~annotation.models.corpus.
    validate_mqm_taxonomy`), so it passes here. One query, none for a new corpus."""
    if corpus.pk is None:
        return None
    try:
        names = set(taxonomy_from_json(value).names)
    except ValueError:
        return None
    used = (
        Span.objects.filter(judgment__target__sentence__corpus_id=corpus.pk)
        .exclude(category="")
        .order_by("category")
        .values("category")
        .annotate(count=Count("pk"))
        .values_list("category", "count")
    )
    for name, count in used:
        if name not in names:
            return ERR_CATEGORY_IN_USE.format(name=name, count=count)
    return None


def checked_taxonomy(corpus: Corpus, value: object) -> object:
    """``value``, or the form field's :class:`ValidationError` of
    :func:`taxonomy_problem`: the corpus page's and the admin's forms both ask it."""
    problem = taxonomy_problem(corpus, value)
    if problem is not None:
        raise ValidationError(problem, code="category_in_use")
    return value


def text_problem(target_ids: Iterable[int]) -> str | None:
    """Why the texts of the targets ``target_ids`` cannot change, or None: spans of their
    judgments mark them (module doc). One query."""
    count = Span.objects.filter(judgment__target_id__in=list(target_ids)).count()
    return ERR_TEXT_UNDER_SPANS.format(count=count) if count else None
