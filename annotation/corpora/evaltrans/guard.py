"""Hardening: what is checked on the raw bytes before libxml2 sees any of them.

Files are uploaded by users. The prolog is the only place a DOCTYPE (and with it any
entity declaration) can be, so scanning it here, before the parser, means a
billion-laughs or external-entity file is refused without anything ever being expanded or
fetched; the parser options below hold even so. UTF-8 is checked here too, chunk by
chunk, so a wrong byte is reported with its line and column in the user's terms.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from typing import BinaryIO, TypedDict

from annotation.corpora.evaltrans.schema import (
    CHUNK_SIZE,
    ERR_CUT_SHORT_CHARACTER,
    ERR_DOCTYPE,
    ERR_EMPTY_FILE,
    ERR_ENCODING,
    ERR_NOT_UTF8,
    ERR_NOT_UTF8_WIDE,
    ERR_PROLOG_TOO_LONG,
    ERR_WRONG_ROOT,
    EvalTransError,
)

MAX_PROLOG = 1 << 20  # bytes before the root element; real files have a few dozen


class ParserOptions(TypedDict):
    """lxml's parser keywords that harden it, named so each is checked where passed."""

    resolve_entities: bool
    load_dtd: bool
    dtd_validation: bool
    attribute_defaults: bool
    no_network: bool
    huge_tree: bool
    collect_ids: bool


#: The hardened parser: the reader's, and the writer's for the XML strings it is given.
PARSER_OPTIONS: ParserOptions = {
    "resolve_entities": False,
    "load_dtd": False,
    "dtd_validation": False,
    "attribute_defaults": False,
    "no_network": True,
    "huge_tree": False,
    "collect_ids": False,
}

_BOM = codecs.BOM_UTF8
_WIDE_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_ENCODING_RE = re.compile(rb"""\bencoding\s*=\s*(["'])(.*?)\1""", re.DOTALL)
_ROOT_NAME_RE = re.compile(rb"<([^\s/>]+)")
_SPACES = (b" ", b"\t", b"\r", b"\n")
_UTF8_NAMES = frozenset({"utf-8", "utf8"})


class CheckedBytes:
    """A binary stream read in chunks, each vetted before it goes to the parser.

    ``newlines`` counts the lines checked so far, so the reader can place what libxml2
    cannot (the line of the closing root tag).
    """

    def __init__(self, stream: BinaryIO, filename: str) -> None:
        self.stream = stream
        self.filename = filename
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.newlines = 0  # newlines in the bytes checked so far
        self.last_line_start = 0  # offset just after the last of them
        self.offset = 0  # bytes checked so far

    def error(self, line: int | None, reason: str) -> EvalTransError:
        return EvalTransError(self.filename, line, reason)

    def chunks(self) -> Iterator[tuple[bytes, bool]]:
        """The file in checked pieces, as (bytes, end of file); the first holds the prolog."""
        data, eof = self.head()
        while True:
            self.check_utf8(data, final=eof)
            yield data, eof
            if eof:
                return
            data = self.read()
            eof = not data

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
            if final and exc.reason == "unexpected end of data":  # a UTF-8 file, cut short
                raise self.error(line, ERR_CUT_SHORT_CHARACTER) from None
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
