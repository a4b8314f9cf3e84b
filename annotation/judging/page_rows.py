"""The judge's page's reads from the database (:mod:`annotation.judging.page`): the
done judgments it draws on, the sentence's targets, the document around the source.

Each is one query by an index, whatever the corpus size, and the usual ones are compiled
once per process (:mod:`annotation.models.prepared`): on a page this small the ORM took
longer to build them than the database to answer them. They stand apart from the page's
assembly so that what the page shows and how it is read change apart.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet, TextField, Value

from annotation.judging.header import shown_as_id
from annotation.judging.pool import pool_judgments
from annotation.models import Judgment, Sentence, Target
from annotation.models.prepared import Prepared
from annotation.text import REFERENCE_ROLES


def document_context(sentence: Sentence) -> tuple[str | None, str | None]:
    """The sources of the sentences before and after ``sentence`` in its document (the
    same ``doc`` id, next to it in the corpus's order): a TED talk or a news story is read
    in order, and a pronoun or an ellipsis is judged by what came before. A sentence
    without ``doc`` is a document of its own: no context, no query. One query by the
    (corpus, position) index otherwise, whatever the corpus size."""
    if not sentence.doc:
        return None, None
    at = sentence.position
    rows = dict(_AROUND(sentence.corpus_id, at - 1, at + 1, sentence.doc))
    return rows.get(at - 1), rows.get(at + 1)


def _around_query(
    corpus_id: int, before: int, after: int, doc: str, *, shape: object
) -> QuerySet[Any]:
    """:func:`document_context`'s query: the sources at positions ``before`` and
    ``after`` of the corpus, where they are in the document ``doc``."""
    # Two equalities, not an IN: PostgreSQL's IN is one array parameter, of two values.
    around = Q(position=before) | Q(position=after)
    return (
        Sentence.objects.filter(around, corpus_id=corpus_id, doc=doc)
        .order_by()
        .values_list("position", "source")
    )


#: Compiled once per process (:mod:`annotation.models.prepared`).
_AROUND = Prepared(_around_query)


def done_judgments(judgment: Judgment, *, for_figures: bool = True) -> list[Any]:
    """Named rows of the done judgments the page reads, oldest first (one query): this
    sentence's pooled ones (``pooled``: :func:`~annotation.judging.pool.pool_judgments`)
    and, ``for_figures``, the judge's others of this system (their counts: the texts the
    page needs are its targets', :func:`page_targets`)."""
    target = judgment.target
    shape = (
        target.sentence.corpus.share_new_refs,
        judgment.control == Judgment.Control.DEGRADED,
        for_figures,
    )
    rows = _DONE_JUDGMENTS(
        target.pk,
        target.sentence_id,
        target.sentence.corpus_id,
        judgment.evaluator_id,
        judgment.pk,
        shown_as_id(judgment),
        shape=shape,
    )
    # Sorted here: ordered in SQL, SQLite would walk all the judge's judgments in pk order.
    return sorted(rows, key=lambda r: r.pk)


def _done_query(
    target_id: int,
    sentence_id: int,
    corpus_id: int,
    evaluator_id: int,
    shown: int,
    system_id: int,
    *,
    shape: tuple[bool, bool, bool],
) -> QuerySet[Any]:
    """:func:`done_judgments`' query, its ``shape`` whether the corpus shares new
    references, whether the judgment is a bad-reference control's, and whether the
    figures' rows are wanted."""
    share, own, for_figures = shape
    ids = (target_id, sentence_id, corpus_id, evaluator_id)
    pooled = pool_judgments(*ids, share=share, own=own, shown=shown)
    here = (
        Judgment.objects.filter(pooled)
        .order_by()
        .annotate(pooled=Value(1))
        .values_list(*_JUDGMENT_ROW, named=True)
    )
    if not for_figures:
        return here
    # Through the system's targets, so the database looks up this system's candidates
    # rather than walking every judgment the judge ever made.
    of_this_system = Target.objects.filter(translator_id=system_id).values("pk")
    mine = (
        Judgment.objects.counted()
        .filter(evaluator_id=evaluator_id, target_id__in=of_this_system)
        .exclude(target_id=target_id)
        .order_by()
        .annotate(pooled=Value(0), no_new_ref=Value("", output_field=TextField()))
        .values_list(*_JUDGMENT_ROW[:5], "no_new_ref", *_JUDGMENT_ROW[6:])
    )
    return here.union(mine, all=True)


#: Compiled once per process (:mod:`annotation.models.prepared`): the ORM took longer to
#: build this union than the database to answer it.
_DONE_JUDGMENTS = Prepared(_done_query)


#: The columns of :func:`done_judgments`' rows.
_JUDGMENT_ROW = (
    "pk",
    "evaluator_id",
    "target_id",
    "target__sentence_id",
    "target__sentence__position",
    "new_ref",
    "sser",
    "edits",
    "ref_length",
    "pooled",
    "control",
    "shown_text",
)


def page_targets(judgment: Judgment, missing: dict[int, int]) -> list[Any]:
    """Named rows of this sentence's targets and, for the live figures, of the targets in
    ``missing`` (target id → sentence id: those whose statistics are not known yet) with
    their sentences' references (one query; the second part is empty once the judge's
    targets of this system have been seen). Ids, not subqueries: PostgreSQL reads a
    subquery under OR by scanning every target."""
    if not missing:  # the usual page: its SQL compiled once per process
        return _SENTENCE_TARGETS(judgment.target.sentence_id)
    return list(_targets_query(judgment.target.sentence_id, missing=missing))


def _targets_query(
    sentence_id: int, *, shape: object = None, missing: dict[int, int] | None = None
) -> QuerySet[Any]:
    """:func:`page_targets`' query (``shape`` unused: the prepared one is the sentence's)."""
    wanted = Q(sentence_id=sentence_id)
    if missing:
        wanted |= Q(pk__in=list(missing)) | Q(
            sentence_id__in=set(missing.values()), translator__role__in=REFERENCE_ROLES
        )
    return (
        Target.objects.filter(wanted)
        .order_by()
        .values_list(
            "pk",
            "sentence_id",
            "translator_id",
            "translator__role",
            "translator__position",
            "ordinal",
            "position",
            "text",
            named=True,
        )
    )


#: This sentence's targets, compiled once per process (:mod:`annotation.models.prepared`).
_SENTENCE_TARGETS = Prepared(_targets_query)
