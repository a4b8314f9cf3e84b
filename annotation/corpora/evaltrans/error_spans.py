"""The ``<errorSpans>`` element of an ESA or MQM judgment's ``<eval>``: its error spans,
the judge's and those suggested to the judge (an evalTrans extension)::

    <eval translator="Statistical" evaluator="JM" esaScore="60" activeSeconds="41.5">
      <target>Chart represent the method.</target>
      <errorSpans>
        <span start="0" end="5" severity="minor" origin="suggested" source="awer"/>
        <span start="6" end="15" severity="major" origin="suggested" source="awer"/>
        <span start="0" end="5" severity="major" suggestion="1" seconds="3.25"/>
        <span start="27" end="27" missing="true" severity="minor" seconds="1.5"/>
      </errorSpans>
    </eval>

Unlike aWER's ``<errors>`` (:mod:`.errors`: 13a words, derived from the new reference),
these spans are what the judge marked, and nothing else says them: ``start`` and
``end`` count the target's characters (Unicode code points, ``end`` excluded, as
:mod:`metrics.error_spans`); ``missing="true"`` is a ``[MISSING]`` marker, an empty span
(``start`` = ``end``) where something is missing; ``severity`` is ``minor`` or
``major``; ``category`` an MQM category of the corpus's taxonomy (none in ESA);
``origin="suggested"`` a span suggested to the judge (ESA with pre-filled spans; without
it, the judge's own), with ``source`` saying where the suggestion came from (``awer``:
the aWER alignment against the nearest reference; ``imported``: a span file, ``manage.py
import_spans``), which a suggested span must give and a judge's span must not (as the
database's ``span_a_suggestion_has_a_source``); ``suggestion="k"`` on a judge's span,
the k-th suggested span of the same ``<eval>`` (from 1), which it started as (kept as
it was, or edited);
``seconds`` the judge's active time on the span (not written when 0).

Reading checks each ``<span>`` alone (:func:`read_spans`); what the spans must be
together, and against the text and the taxonomy, is :func:`spans_problem`'s, which the
reader asks once it knows the file's protocol and the writer asks before writing.
Why an element of its own rather than more ``<error>``: a reader that knows only
``<errors>`` refuses an ``<error>`` it cannot read, and keeps an element it does not know
(every evaltool before this one), so an older evaltool reads these files whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from lxml import etree

from annotation.corpora.evaltrans.timing import seconds_of, seconds_text
from metrics.error_spans import MarkedSpan, span_problems
from metrics.mqm import CATEGORY_MAX_LENGTH, SEVERITIES, Taxonomy
from metrics.numerals import digits

SPANS_TAG = "errorSpans"
SPAN_TAG = "span"
#: ``origin`` of a span suggested to the judge; a judge's own span has none.
SUGGESTED = "suggested"
#: ``source`` of a suggested span: where it came from (``annotation.models.Span.Source``).
SOURCES = ("awer", "imported")
#: ``missing``'s one value.
TRUE = "true"
#: The attributes of ``<span>``, in the order the writer writes them.
SPAN_ATTRS = (
    "start",
    "end",
    "missing",
    "severity",
    "category",
    "origin",
    "source",
    "suggestion",
    "seconds",
)

ERR_SPANS_CHILD = f"<{SPANS_TAG}> may hold only <{SPAN_TAG}> elements, found <{{tag}}>"
ERR_SPAN_ATTR = f"<{SPAN_TAG}> has an unknown attribute {{name!r}} ({', '.join(SPAN_ATTRS)})"
ERR_SPAN_PLACE = (
    f'<{SPAN_TAG} start="{{start}}" end="{{end}}"> is not a stretch of characters '
    "(0 ≤ start ≤ end, whole numbers)"
)
ERR_SPAN_MISSING = f'<{SPAN_TAG} missing="{{value}}">: only missing="{TRUE}" is allowed'
ERR_SPAN_ORIGIN = f'<{SPAN_TAG} origin="{{value}}">: only origin="{SUGGESTED}" is allowed'
_SOURCES_SAID = " or ".join(f'"{s}"' for s in SOURCES)
ERR_SPAN_SOURCE = (
    f'<{SPAN_TAG} origin="{SUGGESTED}" source="{{value}}">: a suggested span\'s source is '
    + _SOURCES_SAID
)
ERR_SPAN_NO_SOURCE = (
    f'<{SPAN_TAG} origin="{SUGGESTED}"> has no source: a suggested span says where it '
    f"came from, source={_SOURCES_SAID}"
)
ERR_JUDGES_SOURCE = (
    f'<{SPAN_TAG} source="{{value}}"> without origin="{SUGGESTED}": a judge\'s own span '
    "has no source"
)
ERR_SPAN_CATEGORY = (
    f'<{SPAN_TAG} category="…"> has {{length}} characters; at most {CATEGORY_MAX_LENGTH}'
)
ERR_SPAN_SUGGESTION = (
    f'<{SPAN_TAG} suggestion="{{value}}"> names no suggested span of its <eval> '
    "(it has {count}, numbered from 1)"
)
ERR_SUGGESTION_NAMES = f'a suggested <{SPAN_TAG}> cannot name a suggestion (suggestion="{{value}}")'
ERR_SPAN_RULE = f'<{SPAN_TAG} start="{{start}}" end="{{end}}">: {{problem}}'
ERR_SPAN_CLASH = "{problem} the <span> on line {line}"


@dataclass(frozen=True)
class SpanElement:
    """One ``<span>`` (module doc); ``suggestion`` numbers a suggested span of the same
    ``<eval>`` from 1. ``line`` takes no part in equality, as an ``<eval>``'s."""

    start: int
    end: int
    severity: str
    category: str = ""
    missing: bool = False
    suggested: bool = False
    #: A suggested span's :data:`SOURCES` entry; "" for a judge's span.
    source: str = ""
    suggestion: int | None = None
    seconds: float = 0.0
    line: int = field(default=0, compare=False)

    @property
    def marked(self) -> MarkedSpan:
        """The span as :mod:`metrics.error_spans` checks it."""
        return MarkedSpan(self.start, self.end, self.severity, self.category, self.missing)


def read_spans(
    element: etree._Element,
    children: Callable[[etree._Element], Iterator[etree._Element]],
    refuse: Callable[[int | None, str], Exception],
) -> tuple[SpanElement, ...]:
    """The ``<span>`` elements of ``<errorSpans>`` in file order, each checked alone
    (``children``: the reader's, which refuses stray text; ``refuse`` makes the refusal
    of a line)."""
    out = []
    for child in children(element):
        line = child.sourceline
        if child.tag != SPAN_TAG:
            raise refuse(line, ERR_SPANS_CHILD.format(tag=child.tag))
        try:
            out.append(_span(dict(child.attrib), int(line or 0)))
        except ValueError as exc:
            raise refuse(line, str(exc)) from None
    return tuple(out)


def _span(attrs: dict[str, str], line: int) -> SpanElement:
    for name in attrs:
        if name not in SPAN_ATTRS:
            raise ValueError(ERR_SPAN_ATTR.format(name=name))
    start, end = attrs.get("start", ""), attrs.get("end", "")
    if not (digits(start) and digits(end) and int(start) <= int(end)):
        raise ValueError(ERR_SPAN_PLACE.format(start=start, end=end))
    missing = attrs.get("missing")
    if missing not in (None, TRUE):
        raise ValueError(ERR_SPAN_MISSING.format(value=missing))
    origin = attrs.get("origin")
    if origin not in (None, SUGGESTED):
        raise ValueError(ERR_SPAN_ORIGIN.format(value=origin))
    source = attrs.get("source")
    if origin == SUGGESTED and source is None:
        raise ValueError(ERR_SPAN_NO_SOURCE)
    if origin == SUGGESTED and source not in SOURCES:
        raise ValueError(ERR_SPAN_SOURCE.format(value=source))
    if origin is None and source is not None:
        raise ValueError(ERR_JUDGES_SOURCE.format(value=source))
    category = attrs.get("category", "")
    if len(category) > CATEGORY_MAX_LENGTH:
        raise ValueError(ERR_SPAN_CATEGORY.format(length=len(category)))
    suggestion = attrs.get("suggestion")
    if suggestion is not None:
        if origin == SUGGESTED:
            raise ValueError(ERR_SUGGESTION_NAMES.format(value=suggestion))
        if not digits(suggestion) or int(suggestion) == 0:
            raise ValueError(ERR_SPAN_SUGGESTION.format(value=suggestion, count="none"))
    return SpanElement(
        start=int(start),
        end=int(end),
        severity=attrs.get("severity", ""),
        category=category,
        missing=missing == TRUE,
        suggested=origin == SUGGESTED,
        source=source or "",
        suggestion=None if suggestion is None else int(suggestion),
        seconds=seconds_of("seconds", attrs["seconds"]) if "seconds" in attrs else 0.0,
        line=line,
    )


def spans_problem(
    spans: Sequence[SpanElement], candidate: str, taxonomy: Taxonomy | None
) -> tuple[int, str] | None:
    """The first of ``spans`` that breaks the rules, as (its line, why); None if none.

    The judge's spans follow the rules of the judge's page (:func:`metrics.error_spans.
    span_problems`: inside ``candidate``, a known severity, in MQM a category of
    ``taxonomy`` and none in ESA, no blank at the ends, no two over one character
    unless MQM categories differ), and one that names a suggestion names one of
    ``spans``' suggested spans. A suggested span is a model's output, kept as it was
    made: it must lie inside the text, have a known severity and say its source,
    nothing more."""
    judge = [s for s in spans if not s.suggested]
    suggested = len(spans) - len(judge)
    for span in spans:
        if span.suggestion is not None and not (
            not span.suggested and 1 <= span.suggestion <= suggested
        ):
            return span.line, ERR_SPAN_SUGGESTION.format(value=span.suggestion, count=suggested)
    for span in spans:
        problem = _alone(span, candidate, taxonomy)
        if problem is not None:
            return span.line, ERR_SPAN_RULE.format(start=span.start, end=span.end, problem=problem)
    for k, span in enumerate(judge):
        for earlier in judge[:k]:
            found = span_problems([earlier.marked, span.marked], candidate, taxonomy)
            if found:
                clash = _RULE_PREFIX.sub("", found[0]).removesuffix(" span 1")
                problem = ERR_SPAN_CLASH.format(problem=clash, line=earlier.line)
                return span.line, ERR_SPAN_RULE.format(
                    start=span.start, end=span.end, problem=problem
                )
    return None


#: The ``span 2: `` that :func:`metrics.error_spans.span_problems` puts before a problem.
_RULE_PREFIX = re.compile(r"^span [0-9]+: ")


def _alone(span: SpanElement, candidate: str, taxonomy: Taxonomy | None) -> str | None:
    # The reader refuses these two already (:func:`_span`); the writer meets them here.
    if span.suggested and span.source not in SOURCES:
        return ERR_SPAN_SOURCE.format(value=span.source) if span.source else ERR_SPAN_NO_SOURCE
    if not span.suggested and span.source:
        return ERR_JUDGES_SOURCE.format(value=span.source)
    if span.suggested:
        if span.severity not in SEVERITIES:
            return f"severity {span.severity!r} (choose from {', '.join(SEVERITIES)})"
        size = len(candidate)
        if not (0 <= span.start <= span.end <= size) or (span.start == span.end) != span.missing:
            return f"characters {span.start}…{span.end}: no stretch of the text's 0…{size}"
        return None
    found = span_problems([span.marked], candidate, taxonomy)
    return _RULE_PREFIX.sub("", found[0]) if found else None


def spans_xml(spans: Iterable[SpanElement], escape: Callable[[str], str]) -> str:
    """The ``<errorSpans>`` element (indented as the writer indents), or nothing when
    there is no span."""
    lines = [span_xml(s, escape) for s in spans]
    if not lines:
        return ""
    return "".join([f"    <{SPANS_TAG}>\n", *lines, f"    </{SPANS_TAG}>\n"])


def span_xml(s: SpanElement, escape: Callable[[str], str]) -> str:
    """One ``<span>`` line: attributes in one order, each only when it says something."""
    attrs = [f'start="{s.start}"', f'end="{s.end}"']
    if s.missing:
        attrs.append(f'missing="{TRUE}"')
    attrs.append(f'severity="{escape(s.severity)}"')
    if s.category:
        attrs.append(f'category="{escape(s.category)}"')
    if s.suggested:
        attrs.append(f'origin="{SUGGESTED}"')
        attrs.append(f'source="{escape(s.source)}"')
    if s.suggestion is not None:
        attrs.append(f'suggestion="{s.suggestion}"')
    seconds = seconds_text("seconds", s.seconds)
    if seconds:
        attrs.append(f'seconds="{seconds}"')
    return f"      <{SPAN_TAG} {' '.join(attrs)}/>\n"
