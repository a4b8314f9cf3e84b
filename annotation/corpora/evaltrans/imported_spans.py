"""The ``<importedSpans>`` element of a candidate's own ``<eval>`` (the one without a
judgment): the spans a span file gave the candidate (``manage.py import_spans``), waiting
to be suggested to the next judge who opens it, in an ESA corpus with pre-filled spans
(an evalTrans extension)::

    <eval translator="Statistical">
      <target>Chart represent the method.</target>
      <importedSpans file="xcomet.jsonl">
        <span start="0" end="5" severity="minor"/>
        <span start="27" end="27" missing="true" severity="major"/>
      </importedSpans>
    </eval>

``file`` names the span file; ``<importedSpans file="…"/>`` without a span says the file
found no error in the candidate (its judges are suggested none, not the aWER
alignment's). A ``<span>`` is as in ``<errorSpans>`` (:mod:`.error_spans`), with only
``start``, ``end``, ``missing``, ``severity`` and ``category``, and follows the rules
the span file's spans follow (:func:`metrics.error_spans.span_problems`). So a running
campaign moves with what its next judges are to be suggested, and export → import →
export gives the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from lxml import etree

from annotation.corpora.evaltrans.error_spans import (
    ERR_SPAN_RULE,
    SPAN_TAG,
    SpanElement,
    read_spans,
    span_xml,
)
from metrics.error_spans import span_problems

IMPORTED_TAG = "importedSpans"
FILE_ATTR = "file"

ERR_IMPORTED_ATTR = f"<{IMPORTED_TAG}> has an unknown attribute {{name!r}} ({FILE_ATTR})"
ERR_IMPORTED_SPAN = (
    f"<{SPAN_TAG}> of <{IMPORTED_TAG}> has only start, end, missing, severity and category"
)
ERR_IMPORTED_JUDGED = f"<{IMPORTED_TAG}> belongs to the candidate's own <eval>, not to a judgment's"
ERR_IMPORTED_RULE = f"<{IMPORTED_TAG}>: {{problem}}"


@dataclass(frozen=True)
class ImportedElement:
    """``<importedSpans>``: the span file's name and its spans, in the file's order."""

    file: str
    spans: tuple[SpanElement, ...] = ()
    line: int = field(default=0, compare=False)


def read_imported(
    element: etree._Element,
    children: Callable[[etree._Element], Iterator[etree._Element]],
    refuse: Callable[[int | None, str], Exception],
) -> ImportedElement:
    """The element read, each ``<span>`` checked alone (the text is :func:`imported_problem`'s)."""
    for name in element.attrib:
        if name != FILE_ATTR:
            raise refuse(element.sourceline, ERR_IMPORTED_ATTR.format(name=name))
    spans = read_spans(element, children, refuse)
    for span in spans:
        if span.suggested or span.source or span.suggestion is not None or span.seconds:
            raise refuse(span.line, ERR_IMPORTED_SPAN)
    line = int(element.sourceline or 0)
    return ImportedElement(str(element.get(FILE_ATTR, "")), spans, line)


def imported_problem(imported: ImportedElement, candidate: str) -> tuple[int, str] | None:
    """Why ``imported`` cannot be ``candidate``'s imported spans, as (the line of the span
    at fault, reason)."""
    found = span_problems([s.marked for s in imported.spans], candidate)
    if not found:
        return None
    number = _SPAN_NUMBER.match(found[0])
    if number is None:
        return imported.line, ERR_IMPORTED_RULE.format(problem=found[0])
    span = imported.spans[int(number.group(1)) - 1]
    problem = found[0][number.end() :]
    return span.line, ERR_SPAN_RULE.format(start=span.start, end=span.end, problem=problem)


#: The ``span 2: `` that :func:`metrics.error_spans.span_problems` puts before a problem.
_SPAN_NUMBER = re.compile(r"^span ([0-9]+): ")


def imported_xml(imported: ImportedElement | None, escape: Callable[[str], str]) -> str:
    """``<importedSpans>`` as the writer writes it (indented as an ``<eval>``'s child),
    or nothing for None."""
    if imported is None:
        return ""
    head = f'    <{IMPORTED_TAG} {FILE_ATTR}="{escape(imported.file)}"'
    if not imported.spans:
        return head + "/>\n"
    lines = [span_xml(s, escape) for s in imported.spans]
    return "".join([head + ">\n", *lines, f"    </{IMPORTED_TAG}>\n"])
