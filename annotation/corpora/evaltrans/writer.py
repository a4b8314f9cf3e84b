"""Write canonical evalTrans XML, streaming, and refuse what would not read back.

Canonical means one layout for one content (UTF-8, 2-space indentation, ``<eval>`` in the
order of :func:`canonical_evals`), like the fixtures: an export of an unchanged corpus is
the file that was imported, and writing what was read gives the same bytes again.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from typing import BinaryIO

from lxml import etree

from annotation.corpora.evaltrans.error_spans import spans_xml
from annotation.corpora.evaltrans.errors import errors_xml
from annotation.corpora.evaltrans.guard import PARSER_OPTIONS
from annotation.corpora.evaltrans.imported_spans import imported_xml
from annotation.corpora.evaltrans.judgment import ESA_SCORE, JUDGMENT_ATTRS
from annotation.corpora.evaltrans.protocol import (
    AWER,
    PROTOCOL_ATTR,
    PROTOCOLS,
    Judging,
    taxonomy_xml,
)
from annotation.corpora.evaltrans.schema import (
    CHUNK_SIZE,
    FLAGS,
    SSER_MAX,
    SSER_MIN,
    CorpusHeader,
    EvalElement,
    Role,
    SentenceElement,
    awer_text,
    ier_text,
    sentence_problem,
    translator_role,
)
from annotation.corpora.evaltrans.timing import timing_attrs
from annotation.ier import IER_LABELS
from annotation.limits import non_xml_char_problem
from metrics.protocols import ESA_MAX, ESA_MIN

_XML_NS = "http://www.w3.org/XML/1998/namespace"
# Attribute names the writer accepts: plain, Clark ``{uri}local`` (as lxml gives them), xml:*.
_NAME_RE = re.compile(r"(?:\{[^}]+\}|xml:)?(?!xmlns)[A-Za-z_][\w.\-]*")
# The attributes the format knows; an unknown one of the same name would be written twice.
_KNOWN_ATTRS = {
    "evalTrans": ("name", PROTOCOL_ATTR),
    "sentence": ("id", "doc"),
    "eval": ("translator", "evaluator", *JUDGMENT_ATTRS),
}


def write_evaltrans(
    out: BinaryIO,
    header: CorpusHeader,
    sentences: Iterable[SentenceElement],
    *,
    reference_names: Collection[str] = (),
) -> None:
    """Write canonical evalTrans XML (UTF-8, 2-space indentation, like the demo corpus).

    Per sentence: ``<source>``, the first reference, the other references in their given
    order, then per system (in order of first appearance) one ``<eval>`` per judgment, or a
    single bare one if it has none; unknown attributes and elements go back where they were
    found (unknown child elements after the known ones). Streaming: ``sentences`` may be a
    generator over a 50 MB corpus; the text goes out in 64 KiB pieces.

    Raises ``ValueError`` (naming the sentence) for data that would not read back: a
    sentence breaking the rules the reader enforces, characters XML cannot carry, an
    unusable attribute name or a malformed extra XML string.
    """
    for chunk in iter_evaltrans_bytes(header, sentences, reference_names=reference_names):
        out.write(chunk)


def iter_evaltrans_bytes(
    header: CorpusHeader,
    sentences: Iterable[SentenceElement],
    *,
    reference_names: Collection[str] = (),
) -> Iterator[bytes]:
    """The bytes :func:`write_evaltrans` writes, in pieces (e.g. for a streaming HTTP response)."""
    names = frozenset(reference_names)
    buffer: list[str] = []
    size = 0
    head = ['<?xml version="1.0" encoding="UTF-8"?>\n<evalTrans']
    known = [("name", header.name)] if header.name is not None else []
    if header.protocol is not None:
        if header.protocol not in PROTOCOLS:
            raise ValueError(f"the corpus header: protocol {header.protocol!r} is unknown")
        known.append((PROTOCOL_ATTR, header.protocol))
    head.append(_attributes(known, header.extra_attrs, "evalTrans", "the corpus header"))
    head.append(">\n")
    if header.taxonomy is not None:
        head.append(taxonomy_xml(header.taxonomy, _escape_attr))
    head.extend(_extra(xml, "", "the corpus header") for xml in header.extra_xml)
    buffer.append(_checked("".join(head), "the corpus header"))
    judging = Judging(header.protocol or AWER, header.taxonomy)
    for sentence in sentences:
        text = _render_sentence(sentence, names, judging)
        buffer.append(text)
        size += len(text)
        if size >= CHUNK_SIZE:
            yield "".join(buffer).encode("utf-8")
            buffer, size = [], 0
    buffer.append("</evalTrans>\n")
    yield "".join(buffer).encode("utf-8")


def canonical_evals(
    evals: Iterable[EvalElement], reference_names: Collection[str] = ()
) -> list[EvalElement]:
    """The ``<eval>`` elements of a sentence in the order and number the writer writes them.

    First reference, other references (given order), then each system's judgments, its
    systems in order of first appearance. A system's bare ``<eval>`` (no judgment, nothing
    unknown or imported on it) is dropped when the system has other ``<eval>`` elements to show.
    """
    first: list[EvalElement] = []
    references: list[EvalElement] = []
    systems: dict[str, list[EvalElement]] = {}
    for ev in evals:
        role = translator_role(ev.translator, reference_names)
        if role is Role.FIRST_REFERENCE:
            first.append(ev)
        elif role is Role.REFERENCE:
            references.append(ev)
        else:
            systems.setdefault(ev.translator, []).append(ev)
    ordered = first + references
    for group in systems.values():
        kept = [ev for ev in group if ev.judged or ev.extra_attrs or ev.extra_xml or ev.imported]
        ordered.extend(kept or group[:1])
    return ordered


def _render_sentence(
    sentence: SentenceElement, reference_names: Collection[str], judging: Judging
) -> str:
    where = f"sentence {sentence.position}" + (
        f" (id={sentence.id!r})" if sentence.id is not None else ""
    )
    problem = sentence_problem(sentence.evals, reference_names)
    if problem is not None:
        raise ValueError(f"{where}: {problem[1]}")
    attrs: list[tuple[str, str]] = []
    if sentence.id is not None:
        attrs.append(("id", sentence.id))
    if sentence.doc is not None:
        attrs.append(("doc", sentence.doc))
    parts = [
        "<sentence",
        _attributes(attrs, sentence.extra_attrs, "sentence", where),
        ">\n  <source>",
        _escape_text(sentence.source),
        "</source>\n",
    ]
    for ev in canonical_evals(sentence.evals, reference_names):
        eval_attrs = _eval_attributes(ev, where)
        problem = judging.problem(ev)
        if problem is not None:
            raise ValueError(f"{where}: {problem[1]} ({ev.translator!r})")
        parts += [
            "  <eval",
            _attributes(eval_attrs, ev.extra_attrs, "eval", where),
            ">\n    <target>",
            _escape_text(ev.target),
            "</target>\n",
        ]
        if ev.new_ref is not None:
            parts += ["    <newRef>", _escape_text(ev.new_ref), "</newRef>\n"]
        parts.append(errors_xml(ev.errors, _escape_attr))
        parts.append(spans_xml(ev.spans, _escape_attr))
        parts.append(imported_xml(ev.imported, _escape_attr))
        parts.extend(_extra(xml, "    ", where) for xml in ev.extra_xml)
        parts.append("  </eval>\n")
    parts.extend(_extra(xml, "  ", where) for xml in sentence.extra_xml)
    parts.append("</sentence>\n")
    parts.extend(_extra(xml, "", where) for xml in sentence.after_xml)
    return _checked("".join(parts), where)


def _eval_attributes(ev: EvalElement, where: str) -> list[tuple[str, str]]:
    """The known attributes of ``ev``'s ``<eval>``, in the order they are written, each
    value checked as a reader would check it (a ``ValueError`` naming ``where``)."""
    eval_attrs = [("translator", ev.translator)]
    if ev.evaluator is not None:
        eval_attrs.append(("evaluator", ev.evaluator))
    if ev.sser is not None:
        if not SSER_MIN <= ev.sser <= SSER_MAX:
            raise ValueError(
                f"{where}: sser={ev.sser!r} of {ev.translator!r} is not {SSER_MIN}-{SSER_MAX}"
            )
        eval_attrs.append(("sser", str(ev.sser)))
    if ev.awer is not None:
        edits, length = ev.awer
        if edits < 0 or length < 0:
            raise ValueError(f"{where}: awer={ev.awer!r} of {ev.translator!r} is negative")
        eval_attrs.append(("awer", awer_text(edits, length)))
    if ev.flag is not None:
        if ev.flag not in FLAGS:
            raise ValueError(f"{where}: judgeFlag={ev.flag!r} of {ev.translator!r} is unknown")
        eval_attrs.append(("judgeFlag", ev.flag))
    if ev.note is not None:
        eval_attrs.append(("judgeNote", ev.note))
    if ev.ier is not None:
        if any(label not in IER_LABELS for _, _, label in ev.ier):
            raise ValueError(f"{where}: ierItems={ev.ier!r} of {ev.translator!r} is unknown")
        eval_attrs.append(("ierItems", ier_text(ev.ier)))
    if ev.timing is not None:
        try:
            eval_attrs.extend(timing_attrs(ev.timing))
        except ValueError as exc:
            raise ValueError(f"{where}: {exc} of {ev.translator!r}") from None
    # Last of the known ones: where a reader that does not know it (every evaltool
    # before ESA) writes it back, among the unknown attributes, so it writes the same.
    if ev.esa_score is not None:
        if not ESA_MIN <= ev.esa_score <= ESA_MAX:
            raise ValueError(
                f"{where}: {ESA_SCORE}={ev.esa_score!r} of {ev.translator!r} "
                f"is not {ESA_MIN}-{ESA_MAX}"
            )
        eval_attrs.append((ESA_SCORE, str(ev.esa_score)))
    return eval_attrs


def _checked(text: str, where: str) -> str:
    problem = non_xml_char_problem(text)
    if problem is not None:
        raise ValueError(f"{where}: {problem}")
    return text


def _attributes(
    known: list[tuple[str, str]], extra: Iterable[tuple[str, str]], element: str, where: str
) -> str:
    """`` name="value"`` pairs; Clark names ``{uri}local`` get a prefix declared in place."""
    out = [f' {key}="{_escape_attr(value)}"' for key, value in known]
    declared: dict[str, str] = {}
    seen = set(_KNOWN_ATTRS[element])
    for key, value in extra:
        if key in seen:
            raise ValueError(f"{where}: attribute {key!r} given twice on <{element}>")
        seen.add(key)
        if not _NAME_RE.fullmatch(key):
            raise ValueError(f"{where}: {key!r} is not a usable attribute name on <{element}>")
        name = key
        if key.startswith("{"):
            uri, local = key[1:].split("}", 1)
            if uri == _XML_NS:
                name = f"xml:{local}"
            else:
                if uri not in declared:
                    declared[uri] = f"ns{len(declared)}"
                    out.append(f' xmlns:{declared[uri]}="{_escape_attr(uri)}"')
                name = f"{declared[uri]}:{local}"
        out.append(f' {name}="{_escape_attr(value)}"')
    return "".join(out)


def _extra(xml: str, indent: str, where: str) -> str:
    """An unknown element's XML text, vetted: exactly one well-formed element, no DOCTYPE."""
    parser = etree.XMLParser(**PARSER_OPTIONS)
    try:
        wrapper = etree.fromstring(f"<w>{xml}</w>".encode(), parser)
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"{where}: extra XML {xml[:60]!r} is not well-formed: {exc.msg}") from None
    elements = [child for child in wrapper if isinstance(child.tag, str)]
    stray = (wrapper.text or "").strip() or any((child.tail or "").strip() for child in wrapper)
    if len(elements) != 1 or len(wrapper) != 1 or stray:
        raise ValueError(f"{where}: extra XML {xml[:60]!r} is not exactly one element")
    return f"{indent}{xml}\n"


def _escape_text(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
    )


def _escape_attr(value: str) -> str:
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
        .replace("\t", "&#9;")
    )
