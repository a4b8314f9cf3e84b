"""Error spans computed elsewhere (xCOMET, GEMBA-MQM, …) imported for an ESA corpus with
pre-filled spans (:func:`imported_spans_import`), to be suggested to its judges
(:mod:`annotation.judging.prefill`). The file's layout and its refusals are
:mod:`metrics.span_file`'s: all of the file or nothing, a refusal naming the file's line
and the reason (:class:`SpansRefused`).

A file holds the spans of the systems it names, one line per sentence each; a system
it does not name keeps what it had (spans of an earlier file, or the aWER alignment's
suggestions). A candidate a judge has opened already keeps the suggestions written
then: the file changes what the next judges are shown.
"""

from __future__ import annotations

from django.db import transaction

from annotation.models import Corpus, ImportedSpans, Protocol, Sentence, Target, Translator
from metrics.error_spans import span_json
from metrics.span_file import read_span_file
from metrics.textfiles import SegmentFileError

ERR_NOT_PREFILL = (
    "the corpus {corpus!r} is judged by {protocol}: imported spans are suggested only under "
    "'ESA with pre-filled spans' (esa_prefill); choose it on the corpus's campaign page first"
)
ERR_NO_SYSTEM = "the corpus {corpus!r} has no MT system"


class SpansRefused(ValueError):
    """Nothing was stored, and why (the file's line and reason, or the corpus's problem)."""


def imported_spans_import(
    *, corpus: Corpus, data: bytes, filename: str = "spans"
) -> dict[str, int]:
    """Store the spans of the file's bytes ``data`` for the candidates of the systems it
    names (module doc); per system, how many spans it gave. A :class:`SpansRefused`
    stores nothing."""
    if corpus.protocol != Protocol.ESA_PREFILL:
        protocol = Protocol(corpus.protocol).label
        raise SpansRefused(ERR_NOT_PREFILL.format(corpus=corpus.name, protocol=protocol))
    systems = list(
        Translator.objects.filter(corpus=corpus, role=Translator.Role.SYSTEM)
        .order_by("position")
        .values_list("name", flat=True)
    )
    if not systems:
        raise SpansRefused(ERR_NO_SYSTEM.format(corpus=corpus.name))
    sentences = list(
        Sentence.objects.filter(corpus=corpus).order_by("position").values_list("pk", "xml_id")
    )
    number = {pk: k for k, (pk, _) in enumerate(sentences)}
    ids = {xml_id: k for k, (_, xml_id) in enumerate(sentences) if xml_id}
    targets = {
        (t.translator__name, number[t.sentence_id]): t
        for t in Target.objects.filter(
            sentence__corpus=corpus, translator__role=Translator.Role.SYSTEM
        ).values_list("pk", "translator__name", "sentence_id", "text", named=True)
    }
    try:
        read = read_span_file(
            data,
            systems=systems,
            n_segments=len(sentences),
            segment_ids=ids,
            candidate=lambda system, k: targets[system, k].text,
            filename=filename,
        )
    except SegmentFileError as refused:
        raise SpansRefused(str(refused)) from None
    rows = [
        ImportedSpans(
            target_id=targets[system, k].pk,
            spans=[span_json(s) for s in spans],
            source=filename[:200],
        )
        for system, per_segment in read.items()
        for k, spans in enumerate(per_segment)
    ]
    with transaction.atomic():
        ImportedSpans.objects.filter(
            target__sentence__corpus=corpus, target__translator__name__in=list(read)
        ).delete()
        ImportedSpans.objects.bulk_create(rows, batch_size=1000)
    return {system: sum(len(s) for s in per_segment) for system, per_segment in read.items()}
