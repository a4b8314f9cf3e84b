"""A corpus's ESA judgments as Appraise's ESA/DA CSV (:mod:`~annotation.corpora.
appraise_csv`), so WMT's own analysis scripts read an evaltool campaign.

One row per done judgment with a 0–100 score, control items included as Appraise marks
them (a reference control ``REF`` under the system it was shown as, a bad-reference
control ``BAD`` in its document ``…#bad``); every judge's, left out of the figures or
not (the file is the campaign's raw data). Rows go annotator by annotator, each in the
order they judged (start time). Spans are the judge's (not the suggestions of a
pre-filled corpus), in characters of the stored text; a ``[MISSING]`` marker is the
empty span at its place. The languages are the corpus's (``srclang``, ``trglang``) in
ISO 639-3, or ``pair`` when given.

What :func:`~annotation.corpora.appraise.corpus_import_appraise` stored comes back as it
was read: the same rows, but for the rows WMT's conventions leave out (tutorials,
``#incomplete``/``#dup`` documents, an item's earlier rating, document-level scores) and
a ``[MISSING]`` marker written past the text's end (written at the end).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from annotation.corpora.appraise_csv import (
    BAD,
    BAD_SUFFIX,
    REF,
    TGT,
    AppraiseRow,
    AppraiseSpan,
    iso_639_3,
)
from annotation.models import Corpus, Judgment, Span

_ITEM_TYPE: dict[str, str] = {
    Judgment.Control.NONE.value: TGT,
    Judgment.Control.REFERENCE.value: REF,
    Judgment.Control.DEGRADED.value: BAD,
}


def corpus_languages_639_3(corpus: Corpus, pair: str | None = None) -> tuple[str, str]:
    """The corpus's source and target languages in ISO 639-3 ("" for one it does not
    name); ``pair`` (``SRC-TGT``) instead when given. A ``ValueError`` for a code
    without a known ISO 639-3 one."""
    if pair is not None:
        src, _, tgt = pair.partition("-")
    else:
        attrs = dict(corpus.extra_attrs)
        src, tgt = attrs.get("srclang", ""), attrs.get("trglang", "")
    return (iso_639_3(src) if src else "", iso_639_3(tgt) if tgt else "")


def appraise_rows(corpus: Corpus, *, pair: str | None = None) -> Iterator[AppraiseRow]:
    """The corpus's rows (module doc), in two queries: the spans, then the judgments. A
    ``ValueError`` for a language without an ISO 639-3 code is raised here, before the
    first row (a download refuses it before it starts)."""
    src, tgt = corpus_languages_639_3(corpus, pair)
    return _rows(corpus, src, tgt)


def _rows(corpus: Corpus, src: str, tgt: str) -> Iterator[AppraiseRow]:
    judgments = (
        Judgment.objects.of_corpus(corpus.pk)
        .filter(state=Judgment.State.DONE, esa_score__isnull=False, control__in=list(_ITEM_TYPE))
        .order_by("evaluator__username", "created_at", "pk")
        .values_list(
            "pk",
            "evaluator__username",
            "target__translator__name",
            "shown_as__name",
            "control",
            "target__sentence__position",
            "target__sentence__doc",
            "esa_score",
            "created_at",
            "updated_at",
        )
    )
    spans: dict[int, list[AppraiseSpan]] = defaultdict(list)
    for judgment, start, end, severity, category in (
        Span.objects.filter(
            judgment__target__translator__corpus_id=corpus.pk, origin=Span.Origin.JUDGE
        )
        .order_by("judgment", "pk")
        .values_list("judgment_id", "start", "end", "severity", "category")
    ):
        spans[judgment].append(AppraiseSpan(start, end, severity, category or None))
    for pk, user, system, shown_as, control, item, doc, score, started, ended in judgments:
        kind = _ITEM_TYPE[control]
        if score is None:  # the query keeps judgments with a score
            continue
        yield AppraiseRow(
            user=user,
            system=shown_as if kind == REF else system,
            item_id=item,
            item_type=kind,
            source_language=src,
            target_language=tgt,
            score=score,
            document_id=(doc or "") + (BAD_SUFFIX if kind == BAD else ""),
            is_document=False,
            spans=tuple(spans.get(pk, ())),
            start_time=started.timestamp(),
            end_time=ended.timestamp(),
        )
