"""The ``<errors>`` element of a judged ``<eval>``: its error spans (an evalTrans
extension; :mod:`annotation.spans` says where the spans come from)::

    <eval translator="Statistical" evaluator="JM" sser="8" awer="2/5">
      <target>Chart represent the method .</target>
      <newRef>Chart represents the procedure .</newRef>
      <errors>
        <error start="1" end="2" op="substitution" severity="major" ref="represents"/>
        <error start="3" end="3" op="missing" severity="minor" ref="procedure"/>
      </errors>
    </eval>

``start`` and ``end`` count the target's 13a words (``end`` excluded; a missing word
is the empty span before word ``start``), ``op`` is ``substitution``, ``extra`` or
``missing``, ``severity`` ``minor`` or ``major``, ``ref`` the new reference's word
(none for an extra word). Reading checks each attribute; the import compares the spans
with the target and the new reference (:mod:`annotation.corpora.imports`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from lxml import etree

from annotation.corpora.evaltrans.schema import ERROR_OPS, ERROR_SEVERITIES, ErrorElement
from metrics.numerals import digits

ERR_ERRORS_CHILD = "<errors> may hold only <error> elements, found <{tag}>"
ERR_ERROR_ATTR = "<error> has an unknown attribute {name!r} (start, end, op, severity, ref)"
ERR_ERROR_SPAN = '<error start="{start}" end="{end}"> is not a span of words (0 ≤ start ≤ end)'
ERR_ERROR_WIDTH = '<error op="{op}"> covers {width} words; {expected}'
ERR_ERROR_OP = '<error op="{value}"> is not one of ' + ", ".join(ERROR_OPS)
ERR_ERROR_SEVERITY = '<error severity="{value}"> is not one of ' + ", ".join(ERROR_SEVERITIES)

_ATTRS = ("start", "end", "op", "severity", "ref")


def error_problem(element: etree._Element) -> str | None:
    """Why one ``<error>`` cannot be read, or None."""
    attrs = dict(element.attrib)
    for name in attrs:
        if name not in _ATTRS:
            return ERR_ERROR_ATTR.format(name=name)
    start, end = attrs.get("start", ""), attrs.get("end", "")
    if not (digits(start) and digits(end) and int(start) <= int(end)):
        return ERR_ERROR_SPAN.format(start=start, end=end)
    op = attrs.get("op", "")
    if op not in ERROR_OPS:
        return ERR_ERROR_OP.format(value=op)
    width = int(end) - int(start)
    if (op == "missing") != (width == 0) or width > 1:
        expected = "a missing word covers none" if op == "missing" else "it covers one"
        return ERR_ERROR_WIDTH.format(op=op, width=width, expected=expected)
    if attrs.get("severity", "") not in ERROR_SEVERITIES:
        return ERR_ERROR_SEVERITY.format(value=attrs.get("severity", ""))
    return None


def read_errors(
    element: etree._Element,
    children: Callable[[etree._Element], Iterator[etree._Element]],
    refuse: Callable[[int | None, str], Exception],
) -> tuple[ErrorElement, ...]:
    """The ``<error>`` elements of ``<errors>`` (``children``: the reader's, which refuses
    stray text); a bad one is refused with its line (``refuse``)."""
    out = []
    for child in children(element):
        if child.tag != "error":
            raise refuse(child.sourceline, ERR_ERRORS_CHILD.format(tag=child.tag))
        problem = error_problem(child)
        if problem is not None:
            raise refuse(child.sourceline, problem)
        a = child.attrib
        out.append(
            ErrorElement(int(a["start"]), int(a["end"]), a["op"], a["severity"], a.get("ref"))
        )
    return tuple(out)


def errors_xml(errors: Iterable[ErrorElement], escape: Callable[[str], str]) -> str:
    """The ``<errors>`` element of a judged ``<eval>`` (indented as the writer indents),
    or nothing when there is no error."""
    lines = [
        f'      <error start="{e.start}" end="{e.end}" op="{e.op}" severity="{e.severity}"'
        + ("" if e.ref is None else f' ref="{escape(e.ref)}"')
        + "/>\n"
        for e in errors
    ]
    return "".join(["    <errors>\n", *lines, "    </errors>\n"]) if lines else ""
