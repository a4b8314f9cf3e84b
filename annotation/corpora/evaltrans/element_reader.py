"""Read one element of an evalTrans file: an ``<eval>`` into an
:class:`~annotation.corpora.evaltrans.schema.EvalElement`, any element's children and
text, each checked where it is (stray text, markup in a text, a name too long for its
column, a system or a text beyond the work limits) and refused in one line.

Its own module so that the rules of one element can be read apart from the pass over the
file that finds the elements (:mod:`~annotation.corpora.evaltrans.reader`: the guard, the
feed parser, the header and the sentences in file order), which builds on this class.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Iterator

from lxml import etree

from annotation.corpora.evaltrans.error_spans import SPANS_TAG, SpanElement, read_spans
from annotation.corpora.evaltrans.errors import read_errors
from annotation.corpora.evaltrans.imported_spans import (
    IMPORTED_TAG,
    ImportedElement,
    read_imported,
)
from annotation.corpora.evaltrans.judgment import judgment_attrs
from annotation.corpora.evaltrans.schema import (
    ERR_DOCTYPE,
    ERR_DUPLICATE_CHILD,
    ERR_EVAL_WITHOUT_TARGET,
    ERR_EVAL_WITHOUT_TRANSLATOR,
    ERR_MARKUP_IN_TEXT,
    ERR_STRAY_TEXT,
    ErrorElement,
    EvalElement,
    EvalTransError,
    Role,
    normalize_space,
    translator_role,
)
from annotation.limits import (
    EVALUATOR_MAX_LENGTH,
    NAME_MAX_LENGTH,
    WorkLimits,
    length_problem,
)


class ElementReader:
    """The reading of one element of one file (``filename``), its problems told as
    :class:`EvalTransError` of that file; ``limits`` count the systems seen so far."""

    def __init__(
        self,
        filename: str,
        reference_names: Collection[str],
        limits: WorkLimits | None,
    ) -> None:
        self.filename = filename
        self.reference_names = frozenset(reference_names)
        self.limits = limits
        self.systems: set[str] = set()  # the systems seen so far, while limits count them

    def error(self, line: int | None, reason: str) -> EvalTransError:
        return EvalTransError(self.filename, line, reason)

    def check_text(
        self,
        text: str | None,
        parent: etree._Element,
        *,
        start: int | None = None,
        before: etree._Element | None = None,
        end: int | None = None,
    ) -> None:
        """Refuse non-blank text between elements, on the line where it is.

        The text's line is counted from what is known: the line it starts on, the node it
        comes ``before``, or the line of the ``end`` tag that follows it.
        """
        if not text or not text.strip():
            return
        leading = text[: len(text) - len(text.lstrip())].count("\n")
        trailing = text[len(text.rstrip()) :].count("\n")
        line: int | None = None
        if start is not None:
            line = start + leading
        elif before is not None and before.sourceline:
            line = before.sourceline - trailing
        elif end is not None:
            line = end - trailing
        shown = " ".join(text.split())
        if len(shown) > 40:
            shown = shown[:39] + "…"
        raise self.error(line, ERR_STRAY_TEXT.format(text=shown, parent=tag_name(parent)))

    def eval(self, element: etree._Element) -> EvalElement:
        line = element.sourceline or 0
        translator = ""
        evaluator: str | None = None
        others: list[tuple[str, str]] = []
        for key, value in element.attrib.items():
            if key == "translator":
                translator = normalize_space(value)
                self.fitting('<eval translator="…">', translator, NAME_MAX_LENGTH, element)
            elif key == "evaluator":
                evaluator = normalize_space(value) or None
                self.fitting('<eval evaluator="…">', value, EVALUATOR_MAX_LENGTH, element)
            else:
                others.append((key, value))
        try:
            judgment = judgment_attrs(others)
        except ValueError as exc:
            raise self.error(line, str(exc)) from None
        if not translator:
            raise self.error(line, ERR_EVAL_WITHOUT_TRANSLATOR)
        self.within_systems(translator, line)
        target: str | None = None
        new_ref: str | None = None
        errors: tuple[ErrorElement, ...] | None = None
        spans: tuple[SpanElement, ...] | None = None
        imported: ImportedElement | None = None
        extra_xml: list[str] = []
        for child in self.children(element):
            if child.tag == "target":
                if target is not None:
                    raise self.error(
                        child.sourceline, ERR_DUPLICATE_CHILD.format(parent="eval", tag="target")
                    )
                target = self.text_of(child)
                self.within_words("<target>", target, child)
            elif child.tag == "newRef":
                if new_ref is not None:
                    raise self.error(
                        child.sourceline, ERR_DUPLICATE_CHILD.format(parent="eval", tag="newRef")
                    )
                new_ref = self.text_of(child)
                self.within_words("<newRef>", new_ref, child)
            elif child.tag == "errors":
                if errors is not None:
                    reason = ERR_DUPLICATE_CHILD.format(parent="eval", tag="errors")
                    raise self.error(child.sourceline, reason)
                errors = read_errors(child, self.children, self.error)
            elif child.tag == SPANS_TAG:
                if spans is not None:
                    reason = ERR_DUPLICATE_CHILD.format(parent="eval", tag=SPANS_TAG)
                    raise self.error(child.sourceline, reason)
                spans = read_spans(child, self.children, self.error)
            elif child.tag == IMPORTED_TAG:
                if imported is not None:
                    reason = ERR_DUPLICATE_CHILD.format(parent="eval", tag=IMPORTED_TAG)
                    raise self.error(child.sourceline, reason)
                imported = read_imported(child, self.children, self.error)
            else:
                extra_xml.append(serialize(child))
        if target is None:
            raise self.error(line, ERR_EVAL_WITHOUT_TARGET)
        return EvalElement(
            translator=translator,
            target=target,
            line=line,
            evaluator=evaluator,
            sser=judgment.sser,
            awer=judgment.awer,
            new_ref=new_ref,
            extra_attrs=judgment.extra_attrs,
            extra_xml=tuple(extra_xml),
            note=judgment.note,
            flag=judgment.flag,
            errors=errors or (),
            ier=judgment.ier,
            timing=judgment.timing,
            esa_score=judgment.esa_score,
            spans=spans or (),
            imported=imported,
        )

    def within_systems(self, translator: str, line: int) -> None:
        """Count a system the first time it appears; refuse the first one too many."""
        if self.limits is None or translator in self.systems:
            return
        if translator_role(translator, self.reference_names) is not Role.SYSTEM:
            return
        self.systems.add(translator)
        problem = self.limits.systems_problem(len(self.systems), translator)
        if problem is not None:
            raise self.error(line, problem)

    def within_words(self, what: str, text: str, element: etree._Element) -> None:
        """Refuse a text too long to be aligned, where it is."""
        problem = None if self.limits is None else self.limits.words_problem(what, text)
        if problem is not None:
            raise self.error(element.sourceline, problem)

    def fitting(self, what: str, value: str, limit: int, element: etree._Element) -> str:
        """``value`` if its column can hold it; a name the database would cut or refuse
        is refused here, with the file and line, on every database."""
        problem = length_problem(what, value, limit)
        if problem is not None:
            raise self.error(element.sourceline, problem)
        return value

    def children(self, element: etree._Element) -> Iterator[etree._Element]:
        """The element children; comments and PIs skipped, stray text and entities refused."""
        text = element.text
        if text and not text.isspace():
            self.check_text(text, element, start=element.sourceline)
        for child in element:
            tail = child.tail
            if tail and not tail.isspace():
                following = child.getnext()
                if following is not None:
                    self.check_text(tail, element, before=following)
                else:
                    self.check_text(tail, element, start=_end_line(child))
            if isinstance(child.tag, str):
                yield child
            elif isinstance(child, etree._Entity):  # cannot be without a DOCTYPE; refuse anyway
                raise self.error(child.sourceline, ERR_DOCTYPE)

    def text_of(self, element: etree._Element) -> str:
        """Whitespace-normalised text of a text-only element (comments inside are dropped)."""
        parts = [element.text or ""]
        for child in element:
            if isinstance(child.tag, str):
                raise self.error(
                    child.sourceline,
                    ERR_MARKUP_IN_TEXT.format(tag=tag_name(element), child=tag_name(child)),
                )
            if isinstance(child, etree._Entity):
                raise self.error(child.sourceline, ERR_DOCTYPE)
            parts.append(child.tail or "")
        return normalize_space("".join(parts))


def tag_name(element: etree._Element) -> str:
    tag = element.tag
    return tag if isinstance(tag, str) else "?"


def _end_line(element: etree._Element) -> int | None:
    """The line an element ends on: its start line plus the newlines of its content."""
    if element.sourceline is None:
        return None
    newlines = (element.text or "").count("\n")
    for node in element.iterdescendants():
        newlines += (node.text or "").count("\n") + (node.tail or "").count("\n")
    return int(element.sourceline) + newlines


def serialize(element: etree._Element) -> str:
    """An unknown element as XML text, verbatim (its tail is layout and is not kept).

    lxml would declare on it every namespace in scope; only those it uses are kept, so
    the text does not change when read back from a written file.
    """
    alone = copy.deepcopy(element)
    etree.cleanup_namespaces(alone)
    return str(etree.tostring(alone, encoding="unicode", with_tail=False))
