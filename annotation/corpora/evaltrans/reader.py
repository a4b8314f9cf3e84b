"""Read evalTrans XML as a stream of dataclasses, refusing what the format does not allow.

The bytes pass :mod:`~annotation.corpora.evaltrans.guard` first (prolog and UTF-8), then
lxml's feed parser (``XMLPullParser``, iterparse's push form, so the guard sees the raw
bytes before libxml2 does). Every finished ``<sentence>`` is cleared with its preceding
siblings, so memory does not grow with the file. Problems are reported in file order, as
one-line :class:`~annotation.corpora.evaltrans.schema.EvalTransError`; a file that ends
before its root element does is told as cut short, where it ends.

One element (an ``<eval>``, any element's children and text) is read by
:class:`~annotation.corpora.evaltrans.element_reader.ElementReader`, which the pass
over the file here builds on.

The awer fraction is *not* checked against the new reference here: the import recomputes it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Generator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

from lxml import etree

from annotation.corpora.evaltrans.element_reader import ElementReader, serialize, tag_name
from annotation.corpora.evaltrans.guard import PARSER_OPTIONS, CheckedBytes
from annotation.corpora.evaltrans.protocol import (
    AWER,
    ERR_TAXONOMY_PLACE,
    PROTOCOL_ATTR,
    TAXONOMY_TAG,
    Judging,
    protocol_of,
    read_taxonomy,
)
from annotation.corpora.evaltrans.schema import (
    ERR_CUT_SHORT,
    ERR_DUPLICATE_CHILD,
    ERR_EMPTY_FILE,
    ERR_MALFORMED,
    ERR_SENTENCE_WITHOUT_SOURCE,
    ERR_WRONG_ROOT,
    CorpusHeader,
    EvalElement,
    EvalTransError,
    SentenceElement,
    sentence_problem,
)
from annotation.limits import NAME_MAX_LENGTH, WorkLimits

_LXML_POSITION = re.compile(r", line \d+, column (\d+)$")
#: libxml2's words for a file that ends in the text of an element.
_PREMATURE_END = re.compile(r"Premature end of data in tag (?P<tag>\S+) line (?P<line>\d+)")


def iter_evaltrans(
    source: BinaryIO | str | Path,
    *,
    filename: str | None = None,
    reference_names: Collection[str] = (),
    limits: WorkLimits | None = None,
) -> Generator[CorpusHeader | SentenceElement]:
    """Yield the :class:`CorpusHeader`, then one :class:`SentenceElement` per ``<sentence>``.

    ``source`` is a path or a binary stream. ``limits``: a file with more systems, or a
    text with more words, than they allow is refused where the first one too many is
    (before the rest of the file is read). Streaming: memory stays flat however large the
    file (each sentence is yielded once the next one has been read, so unknown elements
    between sentences can be attached to the one before). A refused file raises
    :class:`EvalTransError` when the iteration reaches the problem — sentences before it
    have been yielded already, so a caller that stores them must do so atomically.
    """
    if isinstance(source, (str, Path)):
        shown = filename if filename is not None else str(source)
        with open(source, "rb") as stream:
            yield from _Reader(stream, shown, reference_names, limits).run()
    else:
        name = getattr(source, "name", None)
        default = name if isinstance(name, str) else "<stream>"
        shown = filename if filename is not None else default
        yield from _Reader(source, shown, reference_names, limits).run()


class _Reader(ElementReader):
    """One pass over one file: checked bytes in, lxml's feed parser, dataclasses out."""

    def __init__(
        self,
        stream: BinaryIO,
        filename: str,
        reference_names: Collection[str],
        limits: WorkLimits | None,
    ) -> None:
        self.input = CheckedBytes(stream, filename)
        super().__init__(filename, reference_names, limits)
        self.parser = etree.XMLPullParser(
            events=("end",),
            tag=("{*}sentence", "eval", "evalTrans"),
            encoding="utf-8",
            **PARSER_OPTIONS,
        )
        self.header: CorpusHeader | None = None
        self.judging: Judging | None = None  # the file's protocol (:meth:`rules`)
        self.declared_protocol: str | None = None  # judgingProtocol, if the file gives it
        self.header_xml: list[str] = []
        self.root: etree._Element | None = None
        self.pending: SentenceElement | None = None
        self.current: etree._Element | None = None  # the sentence of the evals read so far
        self.current_evals: list[EvalElement] = []
        self.pending_after: list[str] = []
        self.position = 0
        self.root_text_checked = False
        self.root_closed = False  # the root's end tag was read (events of "evalTrans")
        self.last_bytes = b""  # the end of the file, to place text before </evalTrans>

    def run(self) -> Iterator[CorpusHeader | SentenceElement]:
        root: etree._Element | None = None
        for data, eof in self.input.chunks():
            if data:
                self.last_bytes = self.last_bytes[-256:] + data
                error: EvalTransError | None = None
                try:
                    self.parser.feed(data)
                except etree.XMLSyntaxError as exc:
                    error = self.syntax_error(exc)
                # The events before a syntax error first: the file's first problem is reported.
                yield from self.read_events()
                if error is not None:
                    raise error
            if eof:
                root = self.close()
                yield from self.read_events()
        # close() returns the root or raises: an invariant that narrows the type, not a check
        assert root is not None  # noqa: S101
        yield from self.finish(root)

    def read_events(self) -> Iterator[CorpusHeader | SentenceElement]:
        for _event, element in self.parser.read_events():
            if element.tag == "evalTrans":
                self.root_closed = self.root_closed or element.getparent() is None
            elif element.tag == "eval":
                self.on_eval(element)
            else:
                yield from self.on_sentence(element)

    def close(self) -> etree._Element:
        """The root, once the whole file has been fed. A file cut short (an upload broken
        off, a copy not finished) is told as such (:meth:`cut_short`): its root is still
        open, and libxml2's error is where the file ends. Any other error found only now
        (content after the root; an undefined entity, which halts libxml2 where it is
        and is told at the end) is told where it is."""
        try:
            return self.parser.close()
        except etree.XMLSyntaxError as exc:
            error = self.syntax_error(exc)
            if self.root_closed or error.line != self.input.newlines + 1:
                raise error from None
            raise self.cut_short(exc) from None

    def cut_short(self, exc: etree.XMLSyntaxError) -> EvalTransError:
        """The file ended before its root element did: "the file ends inside <target>
        (opened on line 11)", on its last line. libxml2 names the innermost element when
        the file ends in its text; where it ends inside a tag, the innermost element is
        the first that libxml2 ended itself (their end events, which are not read:
        an ``<eval>`` ended so lacks its ``<target>``, and was refused for that)."""
        found = _PREMATURE_END.search(exc.msg or "")
        if found is not None:
            tag, opened = found["tag"], int(found["line"])
        else:
            ended = [element for _event, element in self.parser.read_events()]
            inside = ended[0] if ended else self.root
            if inside is None or inside.sourceline is None:
                return self.syntax_error(exc)
            tag, opened = tag_name(inside), int(inside.sourceline)
        return self.error(self.input.newlines + 1, ERR_CUT_SHORT.format(tag=tag, line=opened))

    def syntax_error(self, exc: etree.XMLSyntaxError) -> EvalTransError:
        message, line = exc.msg or "", exc.lineno
        if not line:
            # lxml loses the position of some errors (an undefined entity, for one);
            # libxml2's error log still has it.
            last = exc.error_log.last_error
            if last is not None and last.line:
                message, line = last.message, last.line
        message = " ".join(message.split())
        message = _LXML_POSITION.sub(r" (column \1)", message)
        if message == "Document is empty":
            return self.error(line or 1, ERR_EMPTY_FILE)
        return self.error(line or None, ERR_MALFORMED.format(message=message))

    def on_eval(self, element: etree._Element) -> None:
        """An ``<eval>`` has ended: read it now, so its problems come in file order."""
        sentence = element.getparent()
        if sentence is None:
            self.check_root(element)  # an <eval> root: refused
            return
        root = sentence.getparent()
        if root is None or root.getparent() is not None or sentence.tag != "sentence":
            return  # not in a sentence: an unknown element, or part of one
        self.check_root(root)
        if self.current is not sentence:
            self.current, self.current_evals = sentence, []
        ev = self.eval(element)
        problem = self.rules(root).problem(ev)
        if problem is not None:
            raise self.error(*problem)
        self.current_evals.append(ev)

    def rules(self, root: etree._Element) -> Judging:
        """The file's protocol and MQM taxonomy (:mod:`.protocol`), read the first time
        they are needed: by the first ``<eval>``, or the header. Both come before the
        first sentence, so they are complete by then."""
        if self.judging is not None:
            return self.judging
        value = root.get(PROTOCOL_ATTR)
        try:
            protocol = None if value is None else protocol_of(value)
        except ValueError as exc:
            raise self.error(root.sourceline, str(exc)) from None
        taxonomy = None
        for node in root:
            if node.tag == "sentence":
                break
            if node.tag != TAXONOMY_TAG:
                continue
            if taxonomy is not None:
                reason = ERR_DUPLICATE_CHILD.format(parent="evalTrans", tag=TAXONOMY_TAG)
                raise self.error(node.sourceline, reason)
            taxonomy = read_taxonomy(node, self.children, self.error)
        self.judging = Judging(protocol or AWER, taxonomy)
        self.declared_protocol = protocol
        return self.judging

    def on_sentence(self, element: etree._Element) -> Iterator[CorpusHeader | SentenceElement]:
        """A ``<sentence>`` has ended: take what precedes it, then hold it as the pending one.

        The parser reports only the end events of ``sentence``, ``eval`` and the root
        (lxml creates no Python objects for the rest); unknown elements directly inside
        ``<evalTrans>`` are picked up as the preceding siblings of the next sentence, or
        at the end.
        """
        root = element.getparent()
        if root is None:
            self.check_root(element)  # a <sentence> root: refused
            return
        if root.getparent() is not None:
            return  # an unknown element's <sentence>: part of that element's XML
        self.check_root(root)
        if element.tag != "sentence":
            return  # {namespace}sentence: an unknown element, picked up with the others
        self.take_preceding(root, element)
        # What precedes the sentence is complete (the header, the pending sentence), but it
        # is yielded once this sentence has been read: a reader that stops at the header
        # (the upload page: queue_import's first look) has the first sentence checked.
        complete = list(self.complete(root))
        self.pending = self.sentence(element)
        yield from complete
        # Free the finished sentence and everything before it: memory stays flat.
        element.clear(keep_tail=True)
        while element.getprevious() is not None:
            del root[0]

    def check_root(self, root: etree._Element) -> None:
        if self.root is None:
            if root.tag != "evalTrans":
                raise self.error(root.sourceline, ERR_WRONG_ROOT.format(tag=tag_name(root)))
            self.root = root

    def take_preceding(self, root: etree._Element, element: etree._Element | None) -> None:
        """Check the text and keep the unknown elements before ``element`` (None: the end).

        Every node before ``element`` is complete, tail included. Unknown elements before
        the first sentence belong to the header, later ones follow the pending sentence.
        """
        if not self.root_text_checked:
            self.root_text_checked = True
            self.check_text(root.text, root, start=root.sourceline)
        for node in root:
            if node is element:
                break
            following = node.getnext()
            if following is not None:
                self.check_text(node.tail, root, before=following)
            else:
                self.check_text(node.tail, root, end=self.root_end_line())
            if not isinstance(node.tag, str) or node.tag == "sentence":
                continue  # a comment, or the pending sentence (already read and cleared)
            if node.tag == TAXONOMY_TAG:
                if self.pending is None:
                    continue  # the header's, read by rules()
                raise self.error(node.sourceline, ERR_TAXONOMY_PLACE)
            (self.header_xml if self.pending is None else self.pending_after).append(
                serialize(node)
            )

    def root_end_line(self) -> int | None:
        """The line of ``</evalTrans>``, counted back from the end of the file."""
        at = self.last_bytes.rfind(b"</evalTrans")
        if at < 0:
            return None
        return self.input.newlines + 1 - self.last_bytes[at:].count(b"\n")

    def make_header(self, root: etree._Element) -> CorpusHeader:
        name: str | None = None
        extra: list[tuple[str, str]] = []
        for key, value in root.attrib.items():
            if key == "name":
                name = self.fitting('<evalTrans name="…">', value, NAME_MAX_LENGTH, root)
            elif key != PROTOCOL_ATTR:
                extra.append((key, value))
        judging = self.rules(root)
        header = CorpusHeader(
            name=name,
            extra_attrs=tuple(extra),
            extra_xml=tuple(self.header_xml),
            protocol=self.declared_protocol,
            taxonomy=judging.taxonomy,
        )
        self.header_xml = []
        return header

    def flush_pending(self) -> SentenceElement:
        assert self.pending is not None  # noqa: S101 (internal invariant, not a check)
        sentence = self.pending
        if self.pending_after:
            sentence = replace(sentence, after_xml=tuple(self.pending_after))
            self.pending_after = []
        self.pending = None
        return sentence

    def finish(self, root: etree._Element) -> Iterator[CorpusHeader | SentenceElement]:
        self.check_root(root)
        self.take_preceding(root, None)
        yield from self.complete(root)

    def complete(self, root: etree._Element) -> Iterator[CorpusHeader | SentenceElement]:
        """What is complete once the elements before a sentence (or the end) are taken:
        the header, the first time, then the pending sentence with what followed it."""
        if self.header is None:
            self.header = self.make_header(root)
            yield self.header
        if self.pending is not None:
            yield self.flush_pending()

    def sentence(self, element: etree._Element) -> SentenceElement:
        line = element.sourceline or 0
        sentence_id: str | None = None
        doc: str | None = None
        extra_attrs: list[tuple[str, str]] = []
        for key, value in element.attrib.items():
            if key == "id":
                sentence_id = self.fitting('<sentence id="…">', value, NAME_MAX_LENGTH, element)
            elif key == "doc":
                doc = self.fitting('<sentence doc="…">', value, NAME_MAX_LENGTH, element)
            else:
                extra_attrs.append((key, value))
        source: str | None = None
        evals: list[EvalElement] = []
        extra_xml: list[str] = []
        for child in self.children(element):
            if child.tag == "source":
                if source is not None:
                    reason = ERR_DUPLICATE_CHILD.format(parent="sentence", tag="source")
                    raise self.error(child.sourceline, reason)
                source = self.text_of(child)
                self.within_words("<source>", source, child)
            elif child.tag != "eval":  # the evals were read as they ended (on_eval)
                extra_xml.append(serialize(child))
        if self.current is element:
            evals, self.current, self.current_evals = self.current_evals, None, []
        if source is None:
            raise self.error(line, ERR_SENTENCE_WITHOUT_SOURCE)
        problem = sentence_problem(evals, self.reference_names)
        if problem is not None:
            bad_line, reason = problem
            raise self.error(bad_line if bad_line is not None else line, reason)
        sentence = SentenceElement(
            source=source,
            evals=tuple(evals),
            line=line,
            position=self.position,
            id=sentence_id,
            doc=doc,
            extra_attrs=tuple(extra_attrs),
            extra_xml=tuple(extra_xml),
        )
        self.position += 1
        return sentence
