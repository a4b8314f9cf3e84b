"""Error spans in and out of evalTrans: what ``<errors>`` (:mod:`.evaltrans.errors`)
says about a judgment, and back.

The spans are never stored: they follow from the target, the new reference and the
judgment's severities (:mod:`annotation.spans`). The export writes them for done
judgments only (a judgment in progress has no errors yet, only a reference being
edited); the import reads back only the severities, from the spans that are
operations of the target against its new reference, so export → import → export gives
the same bytes. A span that is no such operation is reported (its severity cannot be
placed) and the spans are recomputed, as ``awer`` is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from annotation.corpora.evaltrans.schema import ErrorElement, EvalElement
from annotation.spans import MAJOR, error_spans, op_key, span_of
from annotation.text import words
from metrics.align import Op, align

WARN_ERRORS_IGNORED = (
    "{count} <error> of {translator!r} are no operation of its target against its "
    "<newRef>: their severities are ignored, the spans recomputed"
)


def error_elements(
    target: str, new_ref: str, severities: Mapping[str, str]
) -> tuple[ErrorElement, ...]:
    """The ``<error>`` elements of a done judgment (13a words of target and new reference)."""
    return tuple(
        ErrorElement(
            s.start,
            s.end,
            s.op.value,
            s.severity,
            None if s.op is Op.EXTRA else s.ref_word,
        )
        for s in error_spans(words(target, cache=False), words(new_ref, cache=False), severities)
    )


def imported_severities(
    target: str, new_ref: str, ev: EvalElement, warn: Callable[[int, str], None]
) -> dict[str, str]:
    """The severities ``ev``'s ``<errors>`` give its judgment: those of its major spans,
    each matched to its operation of the target against ``new_ref`` (normalised);
    unmatched spans are counted in a warning (``warn(line, message)``)."""
    if not ev.errors:
        return {}
    ops = {
        (*span_of(e), e.op.value, e.ref_word): op_key(e)
        for e in align(words(target, cache=False), words(new_ref, cache=False)).ops
        if e.op is not Op.MATCH
    }
    severities, unmatched = {}, 0
    for err in ev.errors:
        key = ops.get((err.start, err.end, err.op, err.ref))
        if key is None:
            unmatched += 1
        elif err.severity == MAJOR:
            severities[key] = MAJOR
    if unmatched:
        warn(ev.line, WARN_ERRORS_IGNORED.format(count=unmatched, translator=ev.translator))
    return severities
