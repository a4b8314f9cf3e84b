"""evalTrans XML (seed 001 §3.1): refusals, hardening, round trips, streaming.

No database: ``annotation/corpora/evaltrans/`` imports no Django, and these tests use no ``db``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from lxml import etree

from annotation.corpora import evaltrans
from annotation.corpora.evaltrans import (
    CHUNK_SIZE,
    ERR_AWER_FORMAT,
    ERR_DOCTYPE,
    ERR_DUPLICATE_CHILD,
    ERR_DUPLICATE_JUDGMENT,
    ERR_EMPTY_FILE,
    ERR_ENCODING,
    ERR_EVAL_WITHOUT_TARGET,
    ERR_EVAL_WITHOUT_TRANSLATOR,
    ERR_MARKUP_IN_TEXT,
    ERR_NO_FIRST_REFERENCE,
    ERR_NOT_UTF8,
    ERR_NOT_UTF8_WIDE,
    ERR_SECOND_FIRST_REFERENCE,
    ERR_SENTENCE_WITHOUT_SOURCE,
    ERR_SSER_NOT_INTEGER,
    ERR_SSER_RANGE,
    ERR_STRAY_TEXT,
    ERR_TARGET_DIFFERS,
    ERR_WRONG_ROOT,
    PARSER_OPTIONS,
    CorpusHeader,
    EvalElement,
    EvalTransError,
    Role,
    SentenceElement,
    canonical_evals,
    iter_evaltrans,
    translator_role,
    write_evaltrans,
)

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures"
DEMO_XML = FIXTURES / "ted-zhen-demo.evaltrans.xml"
SEED_XML = FIXTURES / "seed-example.evaltrans.xml"

# Lines 1-5 of most refusal cases; the case's own lines start at line 6.
HEAD = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    "<evalTrans>",
    "<sentence>",
    "  <source>s</source>",
    '  <eval translator="first reference"><target>r</target></eval>',
]
TAIL = ["</sentence>", "</evalTrans>", ""]


def doc(*lines: str) -> bytes:
    """A one-sentence file whose extra lines start at line 6."""
    return "\n".join([*HEAD, *lines, *TAIL]).encode()


def ev(attrs: str, body: str = "<target>t</target>") -> str:
    """One <eval> on one line."""
    return f"  <eval {attrs}>{body}</eval>"


def lines(*text: str) -> bytes:
    return "\n".join(text).encode()


def parse(data: bytes, **kwargs: object) -> list[CorpusHeader | SentenceElement]:
    return list(iter_evaltrans(io.BytesIO(data), filename="t.xml", **kwargs))  # type: ignore[arg-type]


def sentences_of(items: list[CorpusHeader | SentenceElement]) -> list[SentenceElement]:
    return [item for item in items if isinstance(item, SentenceElement)]


def written(header: CorpusHeader, sentences: list[SentenceElement], **kwargs: object) -> bytes:
    out = io.BytesIO()
    write_evaltrans(out, header, sentences, **kwargs)  # type: ignore[arg-type]
    return out.getvalue()


def refusal(data: bytes) -> str:
    with pytest.raises(EvalTransError) as caught:
        parse(data)
    return str(caught.value)


# --- refusals ------------------------------------------------------------------------------

SYS = ev('translator="S"')
FIRST_REF = 'translator="first reference"'

REFUSALS = [
    # (case id, file, line, reason)
    ("sser above 10", doc(ev('translator="S" sser="11"')), 6, ERR_SSER_RANGE.format(value="11")),
    ("sser negative", doc(ev('translator="S" sser="-1"')), 6, ERR_SSER_RANGE.format(value="-1")),
    (
        "sser word",
        doc(ev('translator="S" sser="good"')),
        6,
        ERR_SSER_NOT_INTEGER.format(value="good"),
    ),
    (
        "sser decimal",
        doc(ev('translator="S" sser="8.5"')),
        6,
        ERR_SSER_NOT_INTEGER.format(value="8.5"),
    ),
    ("sser empty", doc(ev('translator="S" sser=""')), 6, ERR_SSER_NOT_INTEGER.format(value="")),
    ("awer dash", doc(ev('translator="S" awer="1-5"')), 6, ERR_AWER_FORMAT.format(value="1-5")),
    ("awer no length", doc(ev('translator="S" awer="1/"')), 6, ERR_AWER_FORMAT.format(value="1/")),
    (
        "awer negative",
        doc(ev('translator="S" awer="-1/5"')),
        6,
        ERR_AWER_FORMAT.format(value="-1/5"),
    ),
    ("awer ratio", doc(ev('translator="S" awer="0.2"')), 6, ERR_AWER_FORMAT.format(value="0.2")),
    (
        "awer three parts",
        doc(ev('translator="S" awer="1/5/2"')),
        6,
        ERR_AWER_FORMAT.format(value="1/5/2"),
    ),
    (
        "eval without translator",
        doc("  <eval><target>t</target></eval>"),
        6,
        ERR_EVAL_WITHOUT_TRANSLATOR,
    ),
    ("eval with blank translator", doc(ev('translator="  "')), 6, ERR_EVAL_WITHOUT_TRANSLATOR),
    (
        "eval without target",
        doc("", '  <eval translator="S">', "    <newRef>n</newRef>", "  </eval>"),
        7,
        ERR_EVAL_WITHOUT_TARGET,
    ),
    (
        "two targets",
        doc(
            '  <eval translator="S">',
            "    <target>a</target>",
            "    <target>b</target>",
            "  </eval>",
        ),
        8,
        ERR_DUPLICATE_CHILD.format(parent="eval", tag="target"),
    ),
    (
        "two newRefs",
        doc(
            '  <eval translator="S"><target>a</target>',
            "    <newRef>b</newRef>",
            "    <newRef>c</newRef></eval>",
        ),
        8,
        ERR_DUPLICATE_CHILD.format(parent="eval", tag="newRef"),
    ),
    (
        "two sources",
        doc("  <source>again</source>"),
        6,
        ERR_DUPLICATE_CHILD.format(parent="sentence", tag="source"),
    ),
    (
        "markup in target",
        doc('  <eval translator="S"><target>a <b>bold</b> word</target></eval>'),
        6,
        ERR_MARKUP_IN_TEXT.format(tag="target", child="b"),
    ),
    (
        "text in eval",
        doc('  <eval translator="S">', "    stray words", "    <target>t</target>", "  </eval>"),
        7,
        ERR_STRAY_TEXT.format(text="stray words", parent="eval"),
    ),
    (
        "text in sentence",
        doc(SYS, "", "  stray"),
        8,
        ERR_STRAY_TEXT.format(text="stray", parent="sentence"),
    ),
    (
        "text between sentences",
        lines(*HEAD, "</sentence>", "", "loose text", "</evalTrans>"),
        8,
        ERR_STRAY_TEXT.format(text="loose text", parent="evalTrans"),
    ),
    (
        "system target differs",
        doc(
            SYS,
            '  <eval translator="S" evaluator="JM" sser="5">',
            "    <target>other</target>",
            "  </eval>",
        ),
        7,
        ERR_TARGET_DIFFERS.format(translator="S", first=6),
    ),
    (
        "same evaluator twice",
        doc(
            ev('translator="S" evaluator="JM" sser="5"'),
            ev('translator="S" evaluator="JM" sser="6"'),
        ),
        7,
        ERR_DUPLICATE_JUDGMENT.format(translator="S", evaluator="'JM'", first=6),
    ),
    (
        "two anonymous judgments",
        doc(ev('translator="S" sser="5"'), ev('translator="S" sser="6"')),
        7,
        ERR_DUPLICATE_JUDGMENT.format(translator="S", evaluator="no evaluator", first=6),
    ),
    (
        "second first reference",
        doc('  <eval translator="first reference"><target>r2</target></eval>'),
        6,
        ERR_SECOND_FIRST_REFERENCE,
    ),
    (
        "the first problem comes first, even in a truncated file",
        lines("<evalTrans>", "<sentence>", "<source>x</source>", "<eval><target>y</target></eval>"),
        4,
        ERR_EVAL_WITHOUT_TRANSLATOR,
    ),
    (
        "sentence without source",
        lines(
            "<evalTrans>",
            "<sentence>",
            '  <eval translator="first reference"><target>r</target></eval>',
            "</sentence>",
            "</evalTrans>",
        ),
        2,
        ERR_SENTENCE_WITHOUT_SOURCE,
    ),
    (
        "sentence without first reference",
        lines(
            "<evalTrans>",
            "<sentence>",
            "  <source>s</source>",
            '  <eval translator="multi reference"><target>r</target></eval>',
            SYS,
            "</sentence>",
            "</evalTrans>",
        ),
        2,
        ERR_NO_FIRST_REFERENCE,
    ),
    (
        "wrong root",
        lines('<?xml version="1.0"?>', "<!-- a comment -->", "<html><body/></html>"),
        3,
        ERR_WRONG_ROOT.format(tag="html"),
    ),
    (
        "root in a namespace",
        lines('<evalTrans xmlns="urn:x">', "<sentence/>", "</evalTrans>"),
        1,
        ERR_WRONG_ROOT.format(tag="{urn:x}evalTrans"),
    ),
    ("empty file", b"", 1, ERR_EMPTY_FILE),
    ("blank file", b"\n  \n\t", 1, ERR_EMPTY_FILE),
    ("byte-order mark only", b"\xef\xbb\xbf\n", 1, ERR_EMPTY_FILE),
    (
        "latin-1 bytes",
        doc('  <eval translator="S"><target>café</target></eval>').replace("é".encode(), b"\xe9"),
        6,
        ERR_NOT_UTF8.format(byte="0xE9", column=35),
    ),
    (
        "declared latin-1",
        lines('<?xml version="1.0" encoding="ISO-8859-1"?>', "<evalTrans/>"),
        1,
        ERR_ENCODING.format(encoding="ISO-8859-1"),
    ),
    (
        "declared windows-1252",
        lines("<?xml version='1.0' encoding='windows-1252'?>", "<evalTrans/>"),
        1,
        ERR_ENCODING.format(encoding="windows-1252"),
    ),
    ("UTF-16 file", "\n".join(HEAD + TAIL).encode("utf-16"), 1, ERR_NOT_UTF8_WIDE),
]


@pytest.mark.parametrize(
    ("data", "line", "reason"),
    [pytest.param(data, line, reason, id=case) for case, data, line, reason in REFUSALS],
)
def test_refusal_is_one_line_with_the_line_number(data: bytes, line: int, reason: str) -> None:
    assert refusal(data) == f"t.xml line {line}: {reason}"


MALFORMED = [
    ("mismatched tag", doc('  <eval translator="S"><target>t</target>'), 7),
    ("unclosed root", lines(*HEAD, "</sentence>"), 6),
    ("undefined entity", doc('  <eval translator="S"><target>&foo;</target></eval>'), 6),
    ("duplicate attribute", doc(ev('translator="S" translator="T"')), 6),
    ("control character", doc('  <eval translator="S"><target>\x01</target></eval>'), 6),
    ("content after the root", lines("<evalTrans/>", "", "<evalTrans/>"), 3),
]


@pytest.mark.parametrize(
    ("data", "line"), [pytest.param(data, line, id=case) for case, data, line in MALFORMED]
)
def test_malformed_xml_says_where_in_one_line(data: bytes, line: int) -> None:
    message = refusal(data)
    assert message.startswith(f"t.xml line {line}: malformed XML: ")
    assert "\n" not in message and len(message) > len(f"t.xml line {line}: malformed XML: ")


def test_error_carries_file_line_and_reason() -> None:
    error = EvalTransError("corpus.xml", 12, ERR_EVAL_WITHOUT_TARGET)
    assert (error.filename, error.line, error.reason) == ("corpus.xml", 12, ERR_EVAL_WITHOUT_TARGET)
    assert str(error) == "corpus.xml line 12: <eval> without <target>"
    assert str(EvalTransError("corpus.xml", None, "no line")) == "corpus.xml: no line"
    assert isinstance(error, ValueError)


def test_filename_defaults_to_the_path(tmp_path: Path) -> None:
    path = tmp_path / "bad.xml"
    path.write_bytes(b"<html/>")
    with pytest.raises(EvalTransError) as caught:
        list(iter_evaltrans(path))
    assert str(caught.value) == f"{path} line 1: {ERR_WRONG_ROOT.format(tag='html')}"


def test_a_refusal_deep_in_a_large_file_gives_the_right_line() -> None:
    # libxml2 keeps line numbers in 16 bits unless told otherwise: check beyond 65,535.
    sentence = "\n".join(
        ["<sentence>", "<source>s</source>", ev(FIRST_REF, "<target>r</target>"), "</sentence>", ""]
    )
    bad = sentence.replace('reference">', 'reference" sser="x">')
    data = ("<evalTrans>\n" + sentence * 20_000 + bad + "</evalTrans>\n").encode()
    assert (
        refusal(data)
        == f"t.xml line {1 + 20_000 * 4 + 3}: {ERR_SSER_NOT_INTEGER.format(value='x')}"
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
    ("text", "line"), [pytest.param(text, line, id=case) for case, text, line in DOCTYPES]
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


# --- what a good file gives ---------------------------------------------------------------

SEED_001_EXAMPLE = """\
<evalTrans>
<sentence>
  <source>
   La figura muestra el método.
  </source>
  <eval translator="first reference">
    <target>
      This figure shows the procedure.
    </target>
  </eval>
  <eval translator="multi reference">
    <target>
      This figure shows the method.
    </target>
  </eval>
  <eval translator="Statistical"
   evaluator="JM" sser="8" awer="1/5">
    <target>
      Chart represent the method.
    </target>
    <newRef>
      Chart represents the method.
    </newRef>
  </eval>
</sentence>
</evalTrans>
"""


def test_seed_001_example_with_its_judgment() -> None:
    header, sentence = parse(SEED_001_EXAMPLE.encode())
    assert header == CorpusHeader(name=None)
    assert isinstance(sentence, SentenceElement)
    assert sentence.source == "La figura muestra el método."
    assert (sentence.line, sentence.position, sentence.id, sentence.doc) == (2, 0, None, None)
    first, multi, judged = sentence.evals
    assert (first.translator, first.target, first.line) == (
        "first reference",
        "This figure shows the procedure.",
        6,
    )
    assert (multi.translator, multi.target) == ("multi reference", "This figure shows the method.")
    assert judged == EvalElement(
        translator="Statistical",
        target="Chart represent the method.",
        line=17,
        evaluator="JM",
        sser=8,
        awer=(1, 5),
        new_ref="Chart represents the method.",
    )
    # libxml2 gives a start tag written over two lines the line where it ends.
    assert judged.line == 17 and judged.judged and not first.judged
    # The judgment survives writing and reading back.
    out = written(header, [sentence])
    assert (
        b'  <eval translator="Statistical" evaluator="JM" sser="8" awer="1/5">\n'
        b"    <target>Chart represent the method.</target>\n"
        b"    <newRef>Chart represents the method.</newRef>\n"
        b"  </eval>\n"
    ) in out
    assert parse(out) == [header, sentence]


@pytest.mark.parametrize(
    ("raw", "normalised"),
    [
        ("  a  b ", "a b"),
        ("\n   La figura\n\tmuestra  el método.\n  ", "La figura muestra el método."),
        ("", ""),
        ("\u3000中文\u3000", "中文"),  # ideographic space is whitespace too
        ("«\u00a0oui\u00a0»", "« oui »"),  # and so is the no-break space (str.split)
        ("one", "one"),
    ],
)
def test_text_is_whitespace_normalised(raw: str, normalised: str) -> None:
    data = doc(f'  <eval translator="S"><target>{raw}</target><newRef>{raw}</newRef></eval>')
    data = data.replace(b"<source>s</source>", f"<source>{raw}</source>".encode())
    (sentence,) = sentences_of(parse(data))
    assert sentence.source == normalised
    assert (sentence.evals[1].target, sentence.evals[1].new_ref) == (normalised, normalised)


def test_translator_and_evaluator_names_are_normalised() -> None:
    data = doc(ev('translator=" Online\tW " evaluator="  J  M "'))
    (sentence,) = sentences_of(parse(data))
    assert (sentence.evals[1].translator, sentence.evals[1].evaluator) == ("Online W", "J M")


@pytest.mark.parametrize(
    ("name", "reference_names", "role"),
    [
        ("first reference", (), Role.FIRST_REFERENCE),
        ("first reference", ("first reference",), Role.FIRST_REFERENCE),
        ("multi reference", (), Role.REFERENCE),
        ("second reference", (), Role.REFERENCE),
        ("reference", (), Role.REFERENCE),
        ("human post-edit", ("human post-edit",), Role.REFERENCE),
        ("human post-edit", (), Role.SYSTEM),
        ("Statistical", ("Salt",), Role.SYSTEM),
        ("First Reference", (), Role.SYSTEM),  # names are case-sensitive
        ("reference-free MT", (), Role.SYSTEM),
    ],
)
def test_translator_role(name: str, reference_names: tuple[str, ...], role: Role) -> None:
    assert translator_role(name, reference_names) is role
    assert role.value in {"first_reference", "reference", "system"}


def test_reference_names_make_references_of_systems() -> None:
    data = doc(
        ev('translator="PE" evaluator="JM" sser="9"'),
        '  <eval translator="PE"><target>other post-edit</target></eval>',
    )
    with pytest.raises(EvalTransError):  # as a system, its two targets would have to agree
        parse(data)
    (sentence,) = sentences_of(parse(data, reference_names=["PE"]))
    assert [ev.target for ev in sentence.evals] == ["r", "t", "other post-edit"]


def test_accepted_variants() -> None:
    """Comments, a byte-order mark, a "utf8" declaration, no declaration, several
    references of one name, an empty corpus, and one system's bare plus judged <eval>."""
    data = (
        b"\xef\xbb\xbf<?xml version='1.0' encoding='utf8'?>\n<!-- corpus -->\n<?pi x?>\n"
        + doc(
            "  <!-- a comment -->",
            '  <eval translator="multi reference"><target>m1</target></eval>',
            '  <eval translator="multi reference"><target>m2</target></eval>',
            "  <eval translator='S'><target>t<!-- inside --> u</target></eval>",
            '  <eval translator="S" evaluator="JM" sser="7"><target>t u</target></eval>',
            '  <eval translator="S" evaluator="FC" awer=" 2 / 3 "><target>t  u</target></eval>',
        ).split(b"\n", 1)[1]
    )
    (sentence,) = sentences_of(parse(data))
    assert [
        (ev.translator, ev.target, ev.evaluator, ev.sser, ev.awer) for ev in sentence.evals
    ] == [
        ("first reference", "r", None, None, None),
        ("multi reference", "m1", None, None, None),
        ("multi reference", "m2", None, None, None),
        ("S", "t u", None, None, None),
        ("S", "t u", "JM", 7, None),
        ("S", "t u", "FC", None, (2, 3)),
    ]
    assert parse(b"<evalTrans name='empty'/>") == [CorpusHeader(name="empty")]


def test_sentences_stream_out_before_the_end_is_read() -> None:
    good = (
        "<sentence><source>s</source>"
        '<eval translator="first reference"><target>r</target></eval></sentence>\n'
    )
    data = ("<evalTrans>\n" + good * 3000 + "<sentence>").encode()  # truncated
    items = iter_evaltrans(io.BytesIO(data), filename="t.xml")
    assert isinstance(next(items), CorpusHeader)
    first = next(items)
    assert isinstance(first, SentenceElement) and first.position == 0 and first.line == 2
    rest = []
    with pytest.raises(EvalTransError):
        rest.extend(items)
    assert len(rest) >= 2000  # yielded as the file was read, before the refusal at its end


# --- unknown attributes and elements --------------------------------------------------------

EXTRAS = """\
<?xml version="1.0" encoding="UTF-8"?>
<evalTrans name="extras" xml:lang="en" xmlns:m="urn:meta" m:origin="WMT20" license="CC-BY">
<meta><creator>JM</creator>  <date>2004</date></meta>
<sentence id="s1" doc="d1" genre="news" m:score="0.5">
  <source>s one</source>
  <note lang="en">check <b>this</b></note>
  <eval translator="first reference" origin="post-edit"><target>r one</target></eval>
  <eval translator="Sys" evaluator="JM" sser="8" awer="1/2" seconds="12.5">
    <target>t one</target>
    <newRef>n one</newRef>
    <m:comment>fine &amp; dandy</m:comment>
  </eval>
  <eval translator="Sys" evaluator="FC"><target>t one</target></eval>
</sentence>
<separator kind="page"/>
<sentence>
  <source>s two</source>
  <eval translator="first reference"><target>r two</target></eval>
</sentence>
<trailer>end</trailer>
</evalTrans>
"""


def test_unknown_attributes_and_elements_are_kept() -> None:
    header, first, second = parse(EXTRAS.encode())
    assert isinstance(header, CorpusHeader)
    assert isinstance(first, SentenceElement) and isinstance(second, SentenceElement)
    assert header.name == "extras"
    assert header.extra_attrs == (
        ("{http://www.w3.org/XML/1998/namespace}lang", "en"),
        ("{urn:meta}origin", "WMT20"),
        ("license", "CC-BY"),
    )
    assert header.extra_xml == ("<meta><creator>JM</creator>  <date>2004</date></meta>",)
    assert (first.id, first.doc) == ("s1", "d1")
    assert first.extra_attrs == (("genre", "news"), ("{urn:meta}score", "0.5"))
    assert first.extra_xml == ('<note lang="en">check <b>this</b></note>',)
    assert first.after_xml == ('<separator kind="page"/>',)
    assert second.after_xml == ("<trailer>end</trailer>",)
    reference, judged, other = first.evals
    assert reference.extra_attrs == (("origin", "post-edit"),)
    assert judged.extra_attrs == (("seconds", "12.5"),)
    assert judged.extra_xml == ('<m:comment xmlns:m="urn:meta">fine &amp; dandy</m:comment>',)
    assert (other.evaluator, other.extra_attrs, other.extra_xml) == ("FC", (), ())


def test_unknown_attributes_and_elements_survive_the_round_trip() -> None:
    items = parse(EXTRAS.encode())
    header, sentences = items[0], sentences_of(items)
    assert isinstance(header, CorpusHeader)
    out = written(header, sentences)
    again = parse(out)
    assert again == items
    assert written(header, sentences_of(again)) == out  # writing is stable
    text = out.decode()
    assert '<evalTrans name="extras" xml:lang="en" xmlns:ns0="urn:meta" ns0:origin="WMT20"' in text
    assert '<eval translator="Sys" evaluator="JM" sser="8" awer="1/2" seconds="12.5">' in text
    assert "</sentence>\n<separator" in text and "<trailer" in text


def test_attribute_values_that_need_escaping_survive() -> None:
    value = 'a "quoted" <tag> & a\nnewline\tand tab'
    header = CorpusHeader(name='n "1" & <2>', extra_attrs=(("note", value),))
    sentence = SentenceElement(
        source="x < y & z > w",
        evals=(EvalElement(translator="first reference", target="« r » 😀", line=0),),
        line=0,
        position=0,
        id="a&b",
    )
    again = parse(written(header, [sentence]))
    assert again == [header, sentence]


# --- round trips ----------------------------------------------------------------------------


def canonical(element: etree._Element) -> tuple[object, ...]:
    """Tag, attributes, whitespace-normalised text and children, recursively."""
    return (
        element.tag,
        sorted(element.attrib.items()),
        " ".join((element.text or "").split()),
        [canonical(child) for child in element if isinstance(child.tag, str)],
    )


@pytest.mark.parametrize("path", [DEMO_XML, SEED_XML], ids=["demo", "seed"])
def test_round_trip_gives_equal_dataclasses(path: Path) -> None:
    items = list(iter_evaltrans(path))
    header, sentences = items[0], sentences_of(items)
    assert isinstance(header, CorpusHeader) and len(sentences) == len(items) - 1 > 0
    out = written(header, sentences)
    again = parse(out)
    assert again == items
    # Same layout as the fixtures, so even the line numbers agree.
    assert [s.line for s in sentences_of(again)] == [s.line for s in sentences]
    assert [ev.line for s in sentences_of(again) for ev in s.evals] == [
        ev.line for s in sentences for ev in s.evals
    ]


@pytest.mark.parametrize("path", [DEMO_XML, SEED_XML], ids=["demo", "seed"])
def test_written_file_equals_the_input_after_whitespace_normalisation(path: Path) -> None:
    items = list(iter_evaltrans(path))
    header = items[0]
    assert isinstance(header, CorpusHeader)
    out = written(header, sentences_of(items))
    assert out.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<evalTrans')
    parser = etree.XMLParser(**PARSER_OPTIONS)
    assert canonical(etree.fromstring(out, parser)) == canonical(
        etree.parse(str(path), parser).getroot()
    )
    assert out == path.read_bytes()  # the fixtures are canonical already


def test_demo_corpus_content() -> None:
    items = list(iter_evaltrans(DEMO_XML))
    header, sentences = items[0], sentences_of(items)
    assert header == CorpusHeader(name="TED talks zh-en, demo sample")
    assert len(sentences) == 40 and [s.position for s in sentences] == list(range(40))
    assert (sentences[0].id, sentences[0].doc) == ("talk.2:84", "talk.2")
    names = [ev.translator for ev in sentences[0].evals]
    assert names == [
        "first reference",
        "multi reference",
        "DIDI-NLP",
        "Facebook-AI",
        "IIE-MT",
        "NiuTrans",
        "Online-W",
    ]
    assert [translator_role(n) for n in names].count(Role.SYSTEM) == 5


def test_writer_puts_evals_in_canonical_order() -> None:
    evals = (
        EvalElement("B", "b", 1),
        EvalElement("A", "a", 2, evaluator="JM", sser=3),
        EvalElement("multi reference", "m", 3),
        EvalElement("B", "b", 4, evaluator="FC", sser=9),
        EvalElement("first reference", "r", 5),
        EvalElement("A", "a", 6),  # bare, and A has a judgment: not written
        EvalElement("A", "a", 7, extra_attrs=(("flag", "1"),)),  # bare but carries data: kept
        EvalElement("PE", "p", 8),
        EvalElement("C", "c", 9),
        EvalElement("C", "c", 10),  # a repeated bare one: written once
    )
    expected = [evals[i] for i in (4, 2, 7, 3, 1, 6, 8)]
    assert canonical_evals(evals, ["PE"]) == expected
    sentence = SentenceElement(source="s", evals=evals, line=0, position=0)
    (again,) = sentences_of(
        parse(
            written(CorpusHeader(None), [sentence], reference_names=["PE"]), reference_names=["PE"]
        )
    )
    assert list(again.evals) == expected


WRITER_REFUSALS = [
    (
        "no first reference",
        SentenceElement("s", (EvalElement("S", "t", 0),), 0, 3, id="x"),
        f"sentence 3 (id='x'): {ERR_NO_FIRST_REFERENCE}",
    ),
    (
        "control character",
        SentenceElement("s\x01", (EvalElement("first reference", "r", 0),), 0, 0),
        "sentence 0: character U+0001 cannot be written in XML",
    ),
    (
        "system targets differ",
        SentenceElement(
            "s",
            (
                EvalElement("first reference", "r", 0),
                EvalElement("S", "a", 0),
                EvalElement("S", "b", 0, evaluator="JM"),
            ),
            0,
            0,
        ),
        "sentence 0: " + ERR_TARGET_DIFFERS.format(translator="S", first=0),
    ),
    (
        "sser out of range",
        SentenceElement(
            "s", (EvalElement("first reference", "r", 0), EvalElement("S", "t", 0, sser=12)), 0, 0
        ),
        "sentence 0: sser=12 of 'S' is not 0-10",
    ),
    (
        "malformed extra XML",
        SentenceElement(
            "s", (EvalElement("first reference", "r", 0),), 0, 0, extra_xml=("<a><b></a>",)
        ),
        "sentence 0: extra XML '<a><b></a>' is not well-formed",
    ),
    (
        "extra XML that is not one element",
        SentenceElement(
            "s", (EvalElement("first reference", "r", 0),), 0, 0, extra_xml=("<a/><b/>",)
        ),
        "sentence 0: extra XML '<a/><b/>' is not exactly one element",
    ),
    (
        "attribute named like a known one",
        SentenceElement(
            "s", (EvalElement("first reference", "r", 0),), 0, 0, extra_attrs=(("id", "x"),)
        ),
        "sentence 0: attribute 'id' given twice on <sentence>",
    ),
    (
        "unusable attribute name",
        SentenceElement(
            "s", (EvalElement("first reference", "r", 0, extra_attrs=(("a b", "x"),)),), 0, 0
        ),
        "sentence 0: 'a b' is not a usable attribute name on <eval>",
    ),
    (
        "namespace declaration as attribute",
        SentenceElement(
            "s", (EvalElement("first reference", "r", 0),), 0, 0, extra_attrs=(("xmlns", "urn:x"),)
        ),
        "sentence 0: 'xmlns' is not a usable attribute name on <sentence>",
    ),
]


@pytest.mark.parametrize(
    ("sentence", "message"),
    [pytest.param(s, m, id=case) for case, s, m in WRITER_REFUSALS],
)
def test_writer_refuses_what_would_not_read_back(sentence: SentenceElement, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        written(CorpusHeader(None), [sentence])
    assert str(caught.value).startswith(message)


# --- streaming and independence from Django -------------------------------------------------

MEMORY_SCRIPT = """
import json, resource, sys
from annotation.corpora.evaltrans import (CorpusHeader, EvalElement, SentenceElement,
                                          iter_evaltrans, write_evaltrans)

path, mode = sys.argv[1], sys.argv[2]

def sentences():
    for k in range(50_000):
        words = " ".join(f"w{(k * 7 + j) % 997}" for j in range(10))
        yield SentenceElement(source=f"source {k} " + words, position=k, line=0, id=f"s{k}",
            evals=(EvalElement("first reference", "ref " + words, 0),
                   EvalElement("multi reference", "alt " + words, 0),
                   EvalElement("S1", "one " + words, 0),
                   EvalElement("S2", "two " + words, 0, evaluator="JM", sser=k % 11,
                               awer=(1, 11), new_ref="two " + words)))

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux

before = peak()
result = {}
if mode == "write":
    with open(path, "wb") as out:
        write_evaltrans(out, CorpusHeader(name="big"), sentences())
elif mode == "stream":
    result["count"] = sum(isinstance(item, SentenceElement) for item in iter_evaltrans(path))
else:  # the control: the whole tree at once
    from lxml import etree
    result["count"] = len(etree.parse(path).getroot())
result["growth"] = peak() - before
result["django"] = any(name.split(".")[0] == "django" for name in sys.modules)
print(json.dumps(result))
"""


def _run(script: str, *args: str) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    result: dict[str, int] = json.loads(done.stdout)
    return result


def test_fifty_thousand_sentences_stream_in_flat_memory(tmp_path: Path) -> None:
    """Peak RSS of a fresh process, measured around the write and around the read.

    The control parses the same file into one tree: it shows the bound can fail.
    """
    path = tmp_path / "big.evaltrans.xml"
    wrote = _run(MEMORY_SCRIPT, str(path), "write")
    size = path.stat().st_size
    streamed = _run(MEMORY_SCRIPT, str(path), "stream")
    whole = _run(MEMORY_SCRIPT, str(path), "tree")
    assert streamed["count"] == whole["count"] == 50_000
    assert size > 25_000_000
    bound = 16 * 2**20
    assert wrote["growth"] < bound
    assert streamed["growth"] < bound
    assert whole["growth"] > 4 * bound  # a whole tree takes several times the file
    assert not (wrote["django"] or streamed["django"])


def test_module_imports_no_django() -> None:
    script = (
        "import sys, annotation.corpora.evaltrans\n"
        "print(int(any(m.split('.')[0] == 'django' for m in sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "0"
    assert evaltrans.__name__ == "annotation.corpora.evaltrans"


def test_benchmark_corpus_generator_writes_a_readable_corpus() -> None:
    from bench.gen_corpus import generate_corpus

    out = io.BytesIO()
    count = generate_corpus(out, sentences=30, references=3, systems=4, judged=0.5, seed=7)
    items = parse(out.getvalue())
    sentences = sentences_of(items)
    assert count == 30 * (3 + 4) == sum(len(s.evals) for s in sentences)
    roles = [translator_role(ev.translator) for ev in sentences[0].evals]
    assert roles == [Role.FIRST_REFERENCE, Role.REFERENCE, Role.REFERENCE] + [Role.SYSTEM] * 4
    judged = [ev for s in sentences for ev in s.evals if ev.judged]
    assert 0 < len(judged) < 30 * 4
    assert all(ev.sser is not None and ev.awer and ev.new_ref for ev in judged)
    again = io.BytesIO()
    generate_corpus(again, sentences=30, references=3, systems=4, judged=0.5, seed=7)
    assert again.getvalue() == out.getvalue()  # deterministic for a seed
