"""How a file's judgments were made: the ``judgingProtocol`` attribute of ``<evalTrans>``
and its ``<mqmTaxonomy>`` (an evalTrans extension), and what each protocol's judgment
may carry::

    <evalTrans name="news-mqm" judgingProtocol="mqm">
    <mqmTaxonomy>
      <weight severity="minor" points="1"/>
      <weight severity="major" points="5"/>
      <category name="Accuracy/Mistranslation"/>
      <category name="Fluency/Punctuation">
        <weight severity="minor" points="0.1"/>
      </category>
    </mqmTaxonomy>
    <sentence>…

``judgingProtocol`` is ``awer`` (seed 001's new reference and SSER score; the default,
and never written), ``esa``, ``esa_prefill`` (ESA with pre-filled spans) or ``mqm``.
``<mqmTaxonomy>`` comes before the first ``<sentence>``: the points of each severity
(``<weight>``), then the categories in the order a page offers them, each with the
points it gives instead of its severity's (:mod:`metrics.mqm`); without it a file's
taxonomy is WMT's. Points are written as Python writes the number (``1``, ``0.1``), so
they read back the same.

An ESA judgment carries its 0–100 score (``esaScore`` of its ``<eval>``,
:mod:`.judgment`) and its spans (:mod:`.error_spans`); an MQM judgment its spans, whose
categories are the taxonomy's, and no ``esaScore`` (its score is its spans' points). A
file that carries either declares its protocol, so that a reader never takes an ESA
score or a span for something else. A reader that does not know these names keeps the
attribute and the elements as unknown ones (every evaltool before this one), and reads
the rest of the file as the aWER file it is for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from lxml import etree

from annotation.corpora.evaltrans.error_spans import SPANS_TAG, spans_problem
from annotation.corpora.evaltrans.imported_spans import (
    ERR_IMPORTED_JUDGED,
    IMPORTED_TAG,
    ImportedElement,
    imported_problem,
)
from annotation.corpora.evaltrans.judgment import ESA_SCORE
from annotation.corpora.evaltrans.schema import EvalElement
from metrics.mqm import WMT_TAXONOMY, Taxonomy, taxonomy_from_json
from metrics.numerals import DECIMAL_NUMBER, WHOLE_NUMBER

PROTOCOL_ATTR = "judgingProtocol"
AWER, ESA, ESA_PREFILL, MQM = "awer", "esa", "esa_prefill", "mqm"
#: The protocols, as ``annotation.models.Protocol`` names them.
PROTOCOLS = (AWER, ESA, ESA_PREFILL, MQM)
#: The protocols whose judgments give ``esaScore``.
ESA_SCORED = (ESA, ESA_PREFILL)
TAXONOMY_TAG = "mqmTaxonomy"

ERR_PROTOCOL = f'{PROTOCOL_ATTR}="{{value}}" is not one of ' + ", ".join(PROTOCOLS)
ERR_TAXONOMY_CHILD = f"<{TAXONOMY_TAG}> may hold only <weight> and <category>, found <{{tag}}>"
ERR_CATEGORY_CHILD = "<category> may hold only <weight>, found <{tag}>"
ERR_TAXONOMY_ATTR = "<{tag}> has an unknown attribute {name!r} ({known})"
ERR_POINTS = '<weight points="{value}"> is not a number of penalty points'
ERR_WEIGHT_TWICE = '<weight severity="{severity}"> is given twice in <{parent}>'
ERR_TAXONOMY = f"<{TAXONOMY_TAG}>: {{problem}}"
ERR_TAXONOMY_PLACE = f"<{TAXONOMY_TAG}> must come before the first <sentence>"
ERR_NEEDS_PROTOCOL = (
    "<eval> carries {what}, which only a file of "
    f'{PROTOCOL_ATTR}="esa", "esa_prefill" or "mqm" holds'
)
ERR_IMPORTED_PROTOCOL = (
    f"<{IMPORTED_TAG}> holds a span file's suggestions, which only a file of "
    f'{PROTOCOL_ATTR}="esa_prefill" holds'
)
ERR_SCORE_NOT_ESA = (
    f'<eval {ESA_SCORE}="…">: an {{protocol}} judgment has no ESA score '
    "(an MQM judgment's score is its spans' points)"
)


def protocol_of(value: str) -> str:
    """The protocol ``judgingProtocol`` names, or a ``ValueError`` saying why not."""
    if value not in PROTOCOLS:
        raise ValueError(ERR_PROTOCOL.format(value=value))
    return value


@dataclass(frozen=True)
class Judging:
    """The protocol a file's judgments follow and the MQM taxonomy it gives (None:
    none given, WMT's); :meth:`problem` is what each of its judgments may carry."""

    protocol: str = AWER
    taxonomy: Taxonomy | None = None

    @property
    def span_taxonomy(self) -> Taxonomy | None:
        """The taxonomy a judge's span takes its category from: MQM's, None in ESA."""
        if self.protocol != MQM:
            return None
        return self.taxonomy if self.taxonomy is not None else WMT_TAXONOMY

    def problem(self, ev: EvalElement) -> tuple[int, str] | None:
        """Why ``ev`` cannot be one of this file's judgments, as (line, reason); None if
        it can. aWER judgments are the import's to check against the corpus."""
        if ev.imported is not None:
            problem = self.imported_problem(ev, ev.imported)
            if problem is not None:
                return problem
        if ev.esa_score is None and not ev.spans:
            return None
        if self.protocol == AWER:
            what = f'{ESA_SCORE}="{ev.esa_score}"' if ev.esa_score is not None else None
            return ev.line, ERR_NEEDS_PROTOCOL.format(what=what or f"<{SPANS_TAG}>")
        if ev.esa_score is not None and self.protocol not in ESA_SCORED:
            return ev.line, ERR_SCORE_NOT_ESA.format(protocol=self.protocol.upper())
        return spans_problem(ev.spans, ev.target, self.span_taxonomy)

    def imported_problem(
        self, ev: EvalElement, imported: ImportedElement
    ) -> tuple[int, str] | None:
        """Why ``ev``'s ``<importedSpans>`` (``imported``) cannot be, or None: only on a
        candidate's own ``<eval>`` of an ESA-with-pre-filled-spans file, inside its text."""
        if ev.judged:
            return imported.line, ERR_IMPORTED_JUDGED
        if self.protocol != ESA_PREFILL:
            return imported.line, ERR_IMPORTED_PROTOCOL
        return imported_problem(imported, ev.target)


def read_taxonomy(
    element: etree._Element,
    children: Callable[[etree._Element], Iterator[etree._Element]],
    refuse: Callable[[int | None, str], Exception],
) -> Taxonomy:
    """The taxonomy ``<mqmTaxonomy>`` gives; what :func:`metrics.mqm.taxonomy_from_json`
    refuses is refused with the element's line, a malformed child with its own."""
    _attributes(element, (), refuse)
    weights: dict[str, int | float] = {}
    categories: list[dict[str, object]] = []
    for child in children(element):
        if child.tag == "weight":
            _weight(child, weights, refuse)
        elif child.tag == "category":
            name = _attributes(child, ("name",), refuse).get("name", "")
            own: dict[str, int | float] = {}
            for grandchild in children(child):
                if grandchild.tag != "weight":
                    reason = ERR_CATEGORY_CHILD.format(tag=grandchild.tag)
                    raise refuse(grandchild.sourceline, reason)
                _weight(grandchild, own, refuse)
            categories.append({"name": name, **({"weights": own} if own else {})})
        else:
            raise refuse(child.sourceline, ERR_TAXONOMY_CHILD.format(tag=child.tag))
    try:
        return taxonomy_from_json({"weights": weights, "categories": categories})
    except ValueError as exc:
        raise refuse(element.sourceline, ERR_TAXONOMY.format(problem=exc)) from None


def _attributes(
    element: etree._Element,
    known: tuple[str, ...],
    refuse: Callable[[int | None, str], Exception],
) -> dict[str, str]:
    attrs = {str(k): str(v) for k, v in element.attrib.items()}
    for name in attrs:
        if name not in known:
            reason = ERR_TAXONOMY_ATTR.format(
                tag=element.tag, name=name, known=", ".join(known) or "none"
            )
            raise refuse(element.sourceline, reason)
    return attrs


def _weight(
    element: etree._Element,
    weights: dict[str, int | float],
    refuse: Callable[[int | None, str], Exception],
) -> None:
    attrs = _attributes(element, ("severity", "points"), refuse)
    severity, points = attrs.get("severity", ""), attrs.get("points", "")
    if severity in weights:
        parent = element.getparent()
        where = TAXONOMY_TAG if parent is None else str(parent.tag)
        raise refuse(element.sourceline, ERR_WEIGHT_TWICE.format(severity=severity, parent=where))
    if WHOLE_NUMBER.fullmatch(points):
        weights[severity] = int(points)
    elif DECIMAL_NUMBER.fullmatch(points):
        weights[severity] = float(points)
    else:
        raise refuse(element.sourceline, ERR_POINTS.format(value=points))


def taxonomy_xml(taxonomy: Taxonomy, escape: Callable[[str], str]) -> str:
    """``<mqmTaxonomy>`` as the writer writes it (module doc)."""
    lines = [f"<{TAXONOMY_TAG}>\n"]
    lines += [_weight_xml(s, p, "  ", escape) for s, p in taxonomy.weights]
    for category in taxonomy.categories:
        name = f'  <category name="{escape(category.name)}"'
        if not category.weights:
            lines.append(f"{name}/>\n")
            continue
        lines.append(f"{name}>\n")
        lines += [_weight_xml(s, p, "    ", escape) for s, p in category.weights]
        lines.append("  </category>\n")
    lines.append(f"</{TAXONOMY_TAG}>\n")
    return "".join(lines)


def _weight_xml(severity: str, points: float, indent: str, escape: Callable[[str], str]) -> str:
    text = str(points) if isinstance(points, int) else repr(float(points))
    return f'{indent}<weight severity="{escape(severity)}" points="{text}"/>\n'
