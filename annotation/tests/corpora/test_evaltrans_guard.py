"""The byte guard: no DOCTYPE, no entity ever expanded, UTF-8 checked before parsing.

No database: ``annotation/corpora/evaltrans/`` imports no Django, and these tests use no ``db``.
"""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest
from lxml import etree

from annotation.corpora.evaltrans import (
    CHUNK_SIZE,
    ERR_DOCTYPE,
    ERR_NOT_UTF8,
    PARSER_OPTIONS,
    EvalTransError,
    iter_evaltrans,
)
from annotation.tests.factories import (
    refusal,
)


def test_not_utf8_counts_lines_and_columns_across_chunks() -> None:
    filler = "\n".join(f"<!-- line {k} -->" for k in range(2, 10_000))  # several chunks
    data = ("<evalTrans>\n" + filler + "\n<sentence><source>ab").encode() + b"\xff" + b"</source>"
    assert len(data) > 2 * CHUNK_SIZE
    assert refusal(data) == f"t.xml line 10000: {ERR_NOT_UTF8.format(byte='0xFF', column=21)}"


# --- hardening: no DOCTYPE, no entity ever expanded ----------------------------------------

BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE evalTrans [\n <!ENTITY lol "lol">\n'
    + "".join(
        f' <!ENTITY lol{k} "{("&lol" + (str(k - 1) if k > 1 else "") + ";") * 10}">\n'
        for k in range(1, 10)
    )
    + "]>\n<evalTrans>&lol9;</evalTrans>\n"
)


def _xxe(url: str) -> str:
    return textwrap.dedent(
        f"""\
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE evalTrans [<!ENTITY xxe SYSTEM "{url}">]>
        <evalTrans>
        <sentence>
          <source>&xxe;</source>
          <eval translator="first reference"><target>&xxe;</target></eval>
        </sentence>
        </evalTrans>
        """
    )


DOCTYPES = [
    ("billion laughs", BILLION_LAUGHS, 2),
    ("external entity, http", _xxe("http://127.0.0.1:9/secret"), 2),
    (
        "parameter entity",
        '<!DOCTYPE evalTrans [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]>\n<evalTrans/>',
        1,
    ),
    (
        "external DTD",
        '<!DOCTYPE evalTrans SYSTEM "http://127.0.0.1:9/evaltrans.dtd">\n<evalTrans/>',
        1,
    ),
    (
        "plain DOCTYPE after a comment",
        "<!-- one -->\n<!-- two -->\n<!doctype evalTrans>\n<evalTrans/>",
        3,
    ),
]


@pytest.mark.parametrize(
    "text, line", [pytest.param(text, line, id=case) for case, text, line in DOCTYPES]
)
def test_doctype_is_refused(text: str, line: int) -> None:
    assert refusal(text.encode()) == f"t.xml line {line}: {ERR_DOCTYPE}"


class CountingStream(io.BytesIO):
    """A stream that remembers how many bytes were asked of it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.served = 0

    def read(self, size: int | None = -1) -> bytes:
        chunk = super().read(size)
        self.served += len(chunk)
        return chunk


def test_external_file_entity_is_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-7731")
    text = _xxe(secret.as_uri())
    with pytest.raises(EvalTransError) as caught:
        list(iter_evaltrans(io.BytesIO(text.encode()), filename="t.xml"))
    assert str(caught.value) == f"t.xml line 2: {ERR_DOCTYPE}"
    assert "TOP-SECRET" not in str(caught.value)
    # Belt and braces: even if a DOCTYPE got past the prolog check, the hardened parser
    # leaves the entity unexpanded.
    parsed = etree.fromstring(text.encode(), etree.XMLParser(**PARSER_OPTIONS))
    assert "TOP-SECRET" not in etree.tostring(parsed, encoding="unicode")
    assert "TOP-SECRET" not in "".join(parsed.itertext())


def test_billion_laughs_is_refused_before_parsing() -> None:
    # The DOCTYPE is followed by a megabyte of valid sentences: the refusal comes from the
    # prolog scan of the first chunk, so the rest is never read and nothing is expanded.
    body = b"<sentence><source>s</source></sentence>\n" * 25_000
    data = BILLION_LAUGHS.replace("<evalTrans>&lol9;</evalTrans>", "<evalTrans>&lol9;").encode()
    stream = CountingStream(data + body + b"</evalTrans>")
    with pytest.raises(EvalTransError) as caught:
        list(iter_evaltrans(stream, filename="t.xml"))
    assert str(caught.value) == f"t.xml line 2: {ERR_DOCTYPE}"
    assert stream.served <= CHUNK_SIZE < len(stream.getvalue())


def test_hardened_parser_options() -> None:
    assert PARSER_OPTIONS["resolve_entities"] is False
    assert PARSER_OPTIONS["load_dtd"] is False
    assert PARSER_OPTIONS["no_network"] is True
    assert PARSER_OPTIONS["huge_tree"] is False
