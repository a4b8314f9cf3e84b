"""Read and write evalTrans XML, the corpus format of seed 001 §3.1 — and nothing else.

One ``<sentence>`` holds its ``<source>`` and one ``<eval translator=…>`` per translation:
``translator="first reference"`` is the single reference of WER/SER, other translators
whose name ends in ``reference`` are further references, every other translator is an MT
system. A system's ``<eval>`` may carry one evaluator's judgment (``evaluator``, ``sser``
0–10, ``awer="e/n"`` and a ``<newRef>``); several ``<eval>`` of the same system are several
evaluators' judgments of the *same* target::

    <evalTrans name="optional corpus name">
    <sentence id="optional" doc="optional">
      <source>La figura muestra el método.</source>
      <eval translator="first reference">
        <target>This figure shows the procedure.</target>
      </eval>
      <eval translator="Statistical" evaluator="JM" sser="8" awer="1/5">
        <target>Chart represent the method.</target>
        <newRef>Chart represents the method.</newRef>
      </eval>
    </sentence>
    </evalTrans>

Why it looks the way it does:

* **Untrusted input.** Files are uploaded by users, so the parser is hardened (no entity
  expansion, no DTD loading, no network, libxml2's size limits) and any ``<!DOCTYPE`` is
  refused by a scan of the prolog *before* libxml2 sees a byte of it: a billion-laughs or
  external-entity file is refused without anything ever being expanded or fetched.
* **Large corpora.** Reading is streaming: the bytes are fed in chunks to lxml's feed
  parser (``XMLPullParser``, iterparse's push form, so the prolog and the UTF-8 check run on
  the raw bytes first) and every finished ``<sentence>`` is cleared with its preceding
  siblings, so memory does not grow with the file. Writing is streaming too.
* **One-line refusals.** Every problem is an :class:`EvalTransError` whose text is
  ``"<file> line <n>: <reason>"``; the reasons are the ``ERR_*`` constants below, which
  the tests reuse.
* **Nothing lost.** Attributes and elements this module does not know are kept (as ordered
  attribute pairs and as serialized XML strings) and written back.
* **No Django here**, so the mapping is testable alone; the models and the import service
  consume the dataclasses.

The awer fraction is *not* checked against the new reference here: the import service
recomputes it.
"""

from __future__ import annotations

import codecs
import copy
import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import BinaryIO

from lxml import etree

# --- refusal reasons (module constants the tests reuse) ------------------------------------

ERR_EMPTY_FILE = "empty file"
ERR_NOT_UTF8 = "bytes are not UTF-8 ({byte} at column {column}); save the file as UTF-8"
ERR_NOT_UTF8_WIDE = "the file is UTF-16 or UTF-32, not UTF-8; save the file as UTF-8"
ERR_ENCODING = 'encoding="{encoding}" is declared; evalTrans files must be UTF-8'
ERR_DOCTYPE = "DOCTYPE/entities are not allowed"
ERR_PROLOG_TOO_LONG = "more than {limit} bytes before the root element"
ERR_MALFORMED = "malformed XML: {message}"
ERR_WRONG_ROOT = "root element is <{tag}>, expected <evalTrans>"
ERR_STRAY_TEXT = "text {text!r} directly inside <{parent}>"
ERR_MARKUP_IN_TEXT = "<{tag}> must hold text only, found <{child}>"
ERR_SENTENCE_WITHOUT_SOURCE = "<sentence> without <source>"
ERR_DUPLICATE_CHILD = "<{parent}> has more than one <{tag}>"
ERR_NO_FIRST_REFERENCE = '<sentence> without an <eval translator="first reference">'
ERR_SECOND_FIRST_REFERENCE = 'second <eval translator="first reference"> in the sentence'
ERR_EVAL_WITHOUT_TRANSLATOR = "<eval> without translator"
ERR_EVAL_WITHOUT_TARGET = "<eval> without <target>"
ERR_SSER_NOT_INTEGER = 'sser="{value}" is not an integer'
ERR_SSER_RANGE = 'sser="{value}" is not between 0 and 10'
ERR_AWER_FORMAT = 'awer="{value}" is not "e/n" (two non-negative integers)'
ERR_TARGET_DIFFERS = (
    '<eval translator="{translator}"> has a different <target> than its <eval> on line {first}'
)
ERR_DUPLICATE_JUDGMENT = (
    '<eval translator="{translator}"> judged twice by {evaluator} (first on line {first})'
)

FIRST_REFERENCE = "first reference"
REFERENCE_SUFFIX = "reference"
SSER_MIN, SSER_MAX = 0, 10

CHUNK_SIZE = 1 << 16
MAX_PROLOG = 1 << 20  # bytes before the root element; real files have a few dozen

# The hardened parser (also used to vet the XML strings the writer is given).
PARSER_OPTIONS: dict[str, bool] = {
    "resolve_entities": False,
    "load_dtd": False,
    "dtd_validation": False,
    "attribute_defaults": False,
    "no_network": True,
    "huge_tree": False,
    "collect_ids": False,
}

_XML_NS = "http://www.w3.org/XML/1998/namespace"
_BOM = codecs.BOM_UTF8
_WIDE_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_ENCODING_RE = re.compile(rb"""\bencoding\s*=\s*(["'])(.*?)\1""", re.DOTALL)
_ROOT_NAME_RE = re.compile(rb"<([^\s/>]+)")
_SPACES = (b" ", b"\t", b"\r", b"\n")
_UTF8_NAMES = frozenset({"utf-8", "utf8"})
_SSER_RE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_AWER_RE = re.compile(r"\s*([0-9]+)\s*/\s*([0-9]+)\s*", re.ASCII)
# Characters XML 1.0 cannot carry at all (controls, surrogates, U+FFFE/FFFF).
_NOT_XML_CHAR = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# Attribute names the writer accepts: plain, Clark ``{uri}local`` (as lxml gives them), xml:*.
_NAME_RE = re.compile(r"(?:\{[^}]+\}|xml:)?(?!xmlns)[A-Za-z_][\w.\-]*")
_KNOWN_ATTRS = {
    "evalTrans": ("name",),
    "sentence": ("id", "doc"),
    "eval": ("translator", "evaluator", "sser", "awer"),
}
_LXML_POSITION = re.compile(r", line \d+, column (\d+)$")


class EvalTransError(ValueError):
    """A refused file: where (file, line) and why, in one line."""

    def __init__(self, filename: str, line: int | None, reason: str) -> None:
        super().__init__(filename, line, reason)
        self.filename = filename
        self.line = line
        self.reason = reason

    def __str__(self) -> str:
        if self.line is None:
            return f"{self.filename}: {self.reason}"
        return f"{self.filename} line {self.line}: {self.reason}"


class Role(StrEnum):
    FIRST_REFERENCE = "first_reference"
    REFERENCE = "reference"
    SYSTEM = "system"


def translator_role(name: str, reference_names: Collection[str] = ()) -> Role:
    """The role a translator plays (seed 001 §3.1: references are the translators named so).

    ``first reference`` is the one reference WER and SER use; a name ending in
    ``reference``, or one the caller lists, is a further reference; anything else is an MT
    system whose outputs get judged.
    """
    if name == FIRST_REFERENCE:
        return Role.FIRST_REFERENCE
    if name.endswith(REFERENCE_SUFFIX) or name in reference_names:
        return Role.REFERENCE
    return Role.SYSTEM


Attrs = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class EvalElement:
    """One ``<eval>``: a translator's target and, for a system, at most one judgment.

    ``line`` says where it came from and takes no part in equality, so a parsed element
    equals the one parsed again from the written file.
    """

    translator: str
    target: str
    line: int = field(compare=False)
    evaluator: str | None = None
    sser: int | None = None
    awer: tuple[int, int] | None = None
    new_ref: str | None = None
    extra_attrs: Attrs = ()
    extra_xml: tuple[str, ...] = ()

    @property
    def judged(self) -> bool:
        return not (
            self.evaluator is None
            and self.sser is None
            and self.awer is None
            and self.new_ref is None
        )


@dataclass(frozen=True)
class SentenceElement:
    """One ``<sentence>``; ``evals`` in file order, ``position`` 0-based in the file.

    ``after_xml`` holds unknown elements that follow this sentence directly inside
    ``<evalTrans>`` (written back right after it).
    """

    source: str
    evals: tuple[EvalElement, ...]
    line: int = field(compare=False)
    position: int
    id: str | None = None
    doc: str | None = None
    extra_attrs: Attrs = ()
    extra_xml: tuple[str, ...] = ()
    after_xml: tuple[str, ...] = ()


@dataclass(frozen=True)
class CorpusHeader:
    """The ``<evalTrans>`` element's attributes, and unknown elements before the first sentence."""

    name: str | None
    extra_attrs: Attrs = ()
    extra_xml: tuple[str, ...] = ()


def normalize_space(text: str) -> str:
    """Whitespace-normalised text: the layout of the XML file is not part of the sentence."""
    return " ".join(text.split())


# --- reading ----------------------------------------------------------------------------


def iter_evaltrans(
    source: BinaryIO | str | Path,
    *,
    filename: str | None = None,
    reference_names: Collection[str] = (),
) -> Iterator[CorpusHeader | SentenceElement]:
    """Yield the :class:`CorpusHeader`, then one :class:`SentenceElement` per ``<sentence>``.

    ``source`` is a path or a binary stream. Streaming: memory stays flat however large the
    file (each sentence is yielded once the next one has been read, so unknown elements
    between sentences can be attached to the one before). A refused file raises
    :class:`EvalTransError` when the iteration reaches the problem — sentences before it
    have been yielded already, so a caller that stores them must do so atomically.
    """
    if isinstance(source, (str, Path)):
        shown = filename if filename is not None else str(source)
        with open(source, "rb") as stream:
            yield from _Reader(stream, shown, reference_names).run()
    else:
        name = getattr(source, "name", None)
        default = name if isinstance(name, str) else "<stream>"
        shown = filename if filename is not None else default
        yield from _Reader(source, shown, reference_names).run()


class _Reader:
    """One pass over one file: raw-byte checks, then lxml's feed parser."""

    def __init__(self, stream: BinaryIO, filename: str, reference_names: Collection[str]) -> None:
        self.stream = stream
        self.filename = filename
        self.reference_names = frozenset(reference_names)
        self.parser = etree.XMLPullParser(
            events=("end",), tag=("{*}sentence", "eval"), encoding="utf-8", **PARSER_OPTIONS
        )
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.newlines = 0  # newlines in the bytes checked so far
        self.last_line_start = 0  # offset just after the last of them
        self.offset = 0  # bytes checked so far
        self.header: CorpusHeader | None = None
        self.header_xml: list[str] = []
        self.root: etree._Element | None = None
        self.pending: SentenceElement | None = None
        self.current: etree._Element | None = None  # the sentence of the evals read so far
        self.current_evals: list[EvalElement] = []
        self.pending_after: list[str] = []
        self.position = 0
        self.root_text_checked = False
        self.last_bytes = b""  # the end of the file, to place text before </evalTrans>

    def error(self, line: int | None, reason: str) -> EvalTransError:
        return EvalTransError(self.filename, line, reason)

    # -- bytes ---------------------------------------------------------------------------

    def read(self) -> bytes:
        chunk = self.stream.read(CHUNK_SIZE)
        if isinstance(chunk, str):
            raise TypeError(f"{self.filename}: open the file in binary mode ('rb')")
        return bytes(chunk)

    def check_utf8(self, chunk: bytes, final: bool = False) -> None:
        """Refuse bytes that are not UTF-8, with line and column, before libxml2 sees them."""
        pending = len(self.decoder.getstate()[0])
        try:
            self.decoder.decode(chunk, final)
        except UnicodeDecodeError as exc:
            # exc.start indexes the pending bytes of the previous chunk followed by this one.
            bad = self.offset - pending + exc.start
            data = exc.object
            before = data[: exc.start]
            line = 1 + self.newlines + before.count(b"\n")
            nl = before.rfind(b"\n")
            line_start = self.offset - pending + nl + 1 if nl >= 0 else self.last_line_start
            byte = f"0x{data[exc.start]:02X}"
            column = bad - line_start + 1
            raise self.error(line, ERR_NOT_UTF8.format(byte=byte, column=column)) from None
        self.newlines += chunk.count(b"\n")
        nl = chunk.rfind(b"\n")
        if nl >= 0:
            self.last_line_start = self.offset + nl + 1
        self.offset += len(chunk)

    def head(self) -> tuple[bytes, bool]:
        """Read up to the root element's ``<`` and vet the prolog; return the bytes read."""
        data = self.read()
        eof = not data
        while True:
            verdict = self.scan_prolog(data, eof)
            if verdict:
                return data, eof
            if len(data) > MAX_PROLOG:
                line = 1 + data.count(b"\n")
                raise self.error(line, ERR_PROLOG_TOO_LONG.format(limit=MAX_PROLOG))
            more = self.read()
            eof = not more
            data += more

    def scan_prolog(self, data: bytes, eof: bool) -> bool:
        """True once the prolog is vetted (or is libxml2's business); False: read more.

        The prolog is the only place a DOCTYPE (and with it any entity declaration) can
        be, so refusing it here means entities never reach the parser.
        """
        if not data.strip(b" \t\r\n" + _BOM) and eof:
            raise self.error(1, ERR_EMPTY_FILE)
        if data.startswith(_WIDE_BOMS) or b"\x00" in data[:4]:
            raise self.error(1, ERR_NOT_UTF8_WIDE)
        i = len(_BOM) if data.startswith(_BOM) else 0
        n = len(data)
        while True:
            while i < n and data[i] in b" \t\r\n":
                i += 1
            if i >= n:
                return eof
            if data.startswith(b"<?", i):
                end = data.find(b"?>", i + 2)
                if end < 0:
                    return eof
                if data.startswith(b"<?xml", i) and data[i + 5 : i + 6] in _SPACES:
                    self.check_declaration(data[i:end])
                i = end + 2
            elif data.startswith(b"<!--", i):
                end = data.find(b"-->", i + 4)
                if end < 0:
                    return eof
                i = end + 3
            elif data.startswith(b"<!", i):
                if n - i < 9 and not eof:
                    return False
                if data[i : i + 9].upper() == b"<!DOCTYPE" or data.startswith(b"<!ENTITY", i):
                    raise self.error(1 + data.count(b"\n", 0, i), ERR_DOCTYPE)
                return True  # something else: libxml2 says what is wrong
            else:
                # The root element: refuse a wrong one before parsing it (or garbage,
                # which libxml2 reports).
                name = _ROOT_NAME_RE.match(data, i)
                if name is not None and name.end() == n and not eof:
                    return False  # the name may go on in the next chunk
                if name is not None and name.group(1) != b"evalTrans":
                    tag = name.group(1).decode("utf-8", "replace")
                    line = 1 + data.count(b"\n", 0, i)
                    raise self.error(line, ERR_WRONG_ROOT.format(tag=tag))
                return True

    def check_declaration(self, decl: bytes) -> None:
        match = _ENCODING_RE.search(decl)
        if match is None:
            return
        encoding = match.group(2).decode("ascii", "replace")
        if encoding.lower() not in _UTF8_NAMES:
            raise self.error(1, ERR_ENCODING.format(encoding=encoding))

    # -- parsing ---------------------------------------------------------------------------

    def run(self) -> Iterator[CorpusHeader | SentenceElement]:
        data, eof = self.head()
        root: etree._Element | None = None
        while True:
            self.check_utf8(data, final=eof)
            if data:
                self.last_bytes = self.last_bytes[-256:] + data
            error: EvalTransError | None = None
            try:
                if data:
                    self.parser.feed(data)
                if eof:
                    root = self.parser.close()
            except etree.XMLSyntaxError as exc:
                error = self.syntax_error(exc)
            # The events before a syntax error first: the file's first problem is reported.
            for _event, element in self.parser.read_events():
                if element.tag == "eval":
                    self.on_eval(element)
                else:
                    yield from self.on_sentence(element)
            if error is not None:
                raise error
            if eof:
                break
            data = self.read()
            eof = not data
        assert root is not None  # close() returns the root or raises; not an argument check
        yield from self.finish(root)

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
        self.current_evals.append(self.eval(element))

    def on_sentence(self, element: etree._Element) -> Iterator[CorpusHeader | SentenceElement]:
        """A ``<sentence>`` has ended: take what precedes it, then hold it as the pending one.

        The parser reports only ``sentence`` end events (lxml creates no Python objects for
        the rest); unknown elements directly inside ``<evalTrans>`` are picked up as the
        preceding siblings of the next sentence, or at the end.
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
        if self.header is None:
            self.header = self.make_header(root)
            yield self.header
        if self.pending is not None:
            yield self.flush_pending()
        self.pending = self.sentence(element)
        # Free the finished sentence and everything before it: memory stays flat.
        element.clear(keep_tail=True)
        while element.getprevious() is not None:
            del root[0]

    def check_root(self, root: etree._Element) -> None:
        if self.root is None:
            if root.tag != "evalTrans":
                raise self.error(root.sourceline, ERR_WRONG_ROOT.format(tag=_tag_name(root)))
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
            (self.header_xml if self.pending is None else self.pending_after).append(
                _serialize(node)
            )

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
        raise self.error(line, ERR_STRAY_TEXT.format(text=shown, parent=_tag_name(parent)))

    def root_end_line(self) -> int | None:
        """The line of ``</evalTrans>``, counted back from the end of the file."""
        at = self.last_bytes.rfind(b"</evalTrans")
        if at < 0:
            return None
        return self.newlines + 1 - self.last_bytes[at:].count(b"\n")

    def make_header(self, root: etree._Element) -> CorpusHeader:
        name: str | None = None
        extra: list[tuple[str, str]] = []
        for key, value in root.attrib.items():
            if key == "name":
                name = value
            else:
                extra.append((key, value))
        header = CorpusHeader(name=name, extra_attrs=tuple(extra), extra_xml=tuple(self.header_xml))
        self.header_xml = []
        return header

    def flush_pending(self) -> SentenceElement:
        assert self.pending is not None  # internal invariant, not an argument check
        sentence = self.pending
        if self.pending_after:
            sentence = SentenceElement(
                source=sentence.source,
                evals=sentence.evals,
                line=sentence.line,
                position=sentence.position,
                id=sentence.id,
                doc=sentence.doc,
                extra_attrs=sentence.extra_attrs,
                extra_xml=sentence.extra_xml,
                after_xml=tuple(self.pending_after),
            )
            self.pending_after = []
        self.pending = None
        return sentence

    def finish(self, root: etree._Element) -> Iterator[CorpusHeader | SentenceElement]:
        self.check_root(root)
        self.take_preceding(root, None)
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
                sentence_id = value
            elif key == "doc":
                doc = value
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
            elif child.tag != "eval":  # the evals were read as they ended (on_eval)
                extra_xml.append(_serialize(child))
        if self.current is element:
            evals, self.current, self.current_evals = self.current_evals, None, []
        if source is None:
            raise self.error(line, ERR_SENTENCE_WITHOUT_SOURCE)
        problem = _check_evals(evals, self.reference_names)
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

    def eval(self, element: etree._Element) -> EvalElement:
        line = element.sourceline or 0
        translator = ""
        evaluator: str | None = None
        sser: int | None = None
        awer: tuple[int, int] | None = None
        extra_attrs: list[tuple[str, str]] = []
        for key, value in element.attrib.items():
            if key == "translator":
                translator = normalize_space(value)
            elif key == "evaluator":
                evaluator = normalize_space(value) or None
            elif key == "sser":
                sser = self.sser(value, line)
            elif key == "awer":
                awer = self.awer(value, line)
            else:
                extra_attrs.append((key, value))
        if not translator:
            raise self.error(line, ERR_EVAL_WITHOUT_TRANSLATOR)
        target: str | None = None
        new_ref: str | None = None
        extra_xml: list[str] = []
        for child in self.children(element):
            if child.tag == "target":
                if target is not None:
                    raise self.error(
                        child.sourceline, ERR_DUPLICATE_CHILD.format(parent="eval", tag="target")
                    )
                target = self.text_of(child)
            elif child.tag == "newRef":
                if new_ref is not None:
                    raise self.error(
                        child.sourceline, ERR_DUPLICATE_CHILD.format(parent="eval", tag="newRef")
                    )
                new_ref = self.text_of(child)
            else:
                extra_xml.append(_serialize(child))
        if target is None:
            raise self.error(line, ERR_EVAL_WITHOUT_TARGET)
        return EvalElement(
            translator=translator,
            target=target,
            line=line,
            evaluator=evaluator,
            sser=sser,
            awer=awer,
            new_ref=new_ref,
            extra_attrs=tuple(extra_attrs),
            extra_xml=tuple(extra_xml),
        )

    def sser(self, value: str, line: int) -> int:
        text = value.strip()
        if not _SSER_RE.fullmatch(text):
            raise self.error(line, ERR_SSER_NOT_INTEGER.format(value=value))
        sser = int(text)
        if not SSER_MIN <= sser <= SSER_MAX:
            raise self.error(line, ERR_SSER_RANGE.format(value=value))
        return sser

    def awer(self, value: str, line: int) -> tuple[int, int]:
        match = _AWER_RE.fullmatch(value)
        if match is None:
            raise self.error(line, ERR_AWER_FORMAT.format(value=value))
        return int(match.group(1)), int(match.group(2))

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
            elif child.tag is etree.Entity:  # cannot happen without a DOCTYPE; refuse anyway
                raise self.error(child.sourceline, ERR_DOCTYPE)

    def text_of(self, element: etree._Element) -> str:
        """Whitespace-normalised text of a text-only element (comments inside are dropped)."""
        parts = [element.text or ""]
        for child in element:
            if isinstance(child.tag, str):
                raise self.error(
                    child.sourceline,
                    ERR_MARKUP_IN_TEXT.format(tag=_tag_name(element), child=_tag_name(child)),
                )
            if child.tag is etree.Entity:
                raise self.error(child.sourceline, ERR_DOCTYPE)
            parts.append(child.tail or "")
        return normalize_space("".join(parts))


def _check_evals(
    evals: Iterable[EvalElement], reference_names: Collection[str]
) -> tuple[int | None, str] | None:
    """The sentence-level rules shared by reader and writer: (line, reason) of the first break.

    Exactly one first reference; several ``<eval>`` of one system are judgments of one
    target (same text), at most one per evaluator (a judgment without evaluator counts as
    one more evaluator).
    """
    first_reference: EvalElement | None = None
    systems: dict[str, EvalElement] = {}
    judges: dict[tuple[str, str | None], EvalElement] = {}
    for ev in evals:
        role = translator_role(ev.translator, reference_names)
        if role is Role.FIRST_REFERENCE:
            if first_reference is not None:
                return ev.line, ERR_SECOND_FIRST_REFERENCE
            first_reference = ev
        elif role is Role.SYSTEM:
            seen = systems.setdefault(ev.translator, ev)
            if seen is not ev and seen.target != ev.target:
                return ev.line, ERR_TARGET_DIFFERS.format(translator=ev.translator, first=seen.line)
            if ev.judged:
                key = (ev.translator, ev.evaluator)
                judged_by = judges.setdefault(key, ev)
                if judged_by is not ev:
                    who = repr(ev.evaluator) if ev.evaluator is not None else "no evaluator"
                    return ev.line, ERR_DUPLICATE_JUDGMENT.format(
                        translator=ev.translator, evaluator=who, first=judged_by.line
                    )
    if first_reference is None:
        return None, ERR_NO_FIRST_REFERENCE
    return None


def _tag_name(element: etree._Element) -> str:
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


def _serialize(element: etree._Element) -> str:
    """An unknown element as XML text, verbatim (its tail is layout and is not kept).

    lxml would declare on it every namespace in scope; only those it uses are kept, so
    the text does not change when read back from a written file.
    """
    alone = copy.deepcopy(element)
    etree.cleanup_namespaces(alone)
    return str(etree.tostring(alone, encoding="unicode", with_tail=False))


# --- writing ----------------------------------------------------------------------------


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
    head.append(_attributes(known, header.extra_attrs, "evalTrans", "the corpus header"))
    head.append(">\n")
    head.extend(_extra(xml, "", "the corpus header") for xml in header.extra_xml)
    buffer.append(_checked("".join(head), "the corpus header"))
    for sentence in sentences:
        text = _render_sentence(sentence, names)
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
    unknown on it) is dropped when the system has other ``<eval>`` elements to show.
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
        kept = [ev for ev in group if ev.judged or ev.extra_attrs or ev.extra_xml]
        ordered.extend(kept or group[:1])
    return ordered


def _render_sentence(sentence: SentenceElement, reference_names: Collection[str]) -> str:
    where = f"sentence {sentence.position}" + (
        f" (id={sentence.id!r})" if sentence.id is not None else ""
    )
    problem = _check_evals(sentence.evals, reference_names)
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
        eval_attrs = [("translator", ev.translator)]
        if ev.evaluator is not None:
            eval_attrs.append(("evaluator", ev.evaluator))
        if ev.sser is not None:
            if not SSER_MIN <= ev.sser <= SSER_MAX:
                raise ValueError(f"{where}: sser={ev.sser!r} of {ev.translator!r} is not 0-10")
            eval_attrs.append(("sser", str(ev.sser)))
        if ev.awer is not None:
            edits, length = ev.awer
            if edits < 0 or length < 0:
                raise ValueError(f"{where}: awer={ev.awer!r} of {ev.translator!r} is negative")
            eval_attrs.append(("awer", f"{edits}/{length}"))
        parts += [
            "  <eval",
            _attributes(eval_attrs, ev.extra_attrs, "eval", where),
            ">\n    <target>",
            _escape_text(ev.target),
            "</target>\n",
        ]
        if ev.new_ref is not None:
            parts += ["    <newRef>", _escape_text(ev.new_ref), "</newRef>\n"]
        parts.extend(_extra(xml, "    ", where) for xml in ev.extra_xml)
        parts.append("  </eval>\n")
    parts.extend(_extra(xml, "  ", where) for xml in sentence.extra_xml)
    parts.append("</sentence>\n")
    parts.extend(_extra(xml, "", where) for xml in sentence.after_xml)
    return _checked("".join(parts), where)


def _checked(text: str, where: str) -> str:
    bad = _NOT_XML_CHAR.search(text)
    if bad is not None:
        start = max(0, bad.start() - 30)
        raise ValueError(
            f"{where}: character U+{ord(bad.group()):04X} cannot be written in XML "
            f"(near {text[start : bad.start()]!r})"
        )
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
