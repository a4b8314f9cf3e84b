"""Reading evalTrans XML: every refusal is one line with the file's line number.

No database: ``annotation/corpora/evaltrans/`` imports no Django, and these tests use no ``db``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from annotation.corpora.evaltrans import (
    CHUNK_SIZE,
    ERR_AWER_FORMAT,
    ERR_CUT_SHORT,
    ERR_CUT_SHORT_CHARACTER,
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
    EvalTransError,
    iter_evaltrans,
)
from annotation.tests.factories import (
    HEAD,
    TAIL,
    doc,
    ev,
    lines,
    refusal,
)

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
    "data, line, reason",
    [pytest.param(data, line, reason, id=case) for case, data, line, reason in REFUSALS],
)
def test_refusal_is_one_line_with_the_line_number(data: bytes, line: int, reason: str) -> None:
    assert refusal(data) == f"t.xml line {line}: {reason}"


MALFORMED = [
    ("mismatched tag", doc('  <eval translator="S"><target>t</target>'), 7),
    ("undefined entity", doc('  <eval translator="S"><target>&foo;</target></eval>'), 6),
    ("duplicate attribute", doc(ev('translator="S" translator="T"')), 6),
    ("control character", doc('  <eval translator="S"><target>\x01</target></eval>'), 6),
    ("content after the root", lines("<evalTrans/>", "", "<evalTrans/>"), 3),
]


@pytest.mark.parametrize(
    "data, line", [pytest.param(data, line, id=case) for case, data, line in MALFORMED]
)
def test_malformed_xml_says_where_in_one_line(data: bytes, line: int) -> None:
    message = refusal(data)
    assert message.startswith(f"t.xml line {line}: malformed XML: ")
    assert "\n" not in message
    assert len(message) > len(f"t.xml line {line}: malformed XML: ")


#: Two sentences; a file cut short is a prefix of it.
WHOLE = lines(
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<evalTrans name="x">',
    '<sentence id="1">',
    "  <source>a b</source>",
    '  <eval translator="first reference"><target>a b</target></eval>',
    '  <eval translator="S"><target>a c</target></eval>',
    "</sentence>",
    '<sentence id="2">',
    "  <source>a b</source>",
    '  <eval translator="first reference"><target>a b</target></eval>',
    '  <eval translator="S"><target>a c</target></eval>',
    "</sentence>",
    "</evalTrans>",
    "",
)


def cut_after(text: str, occurrence: int = 2) -> bytes:
    """:data:`WHOLE` up to the end of the ``occurrence``-th ``text`` in it."""
    at = -1
    for _ in range(occurrence):
        at = WHOLE.index(text.encode(), at + 1)
    return WHOLE[: at + len(text.encode())]


@pytest.mark.parametrize(
    "data, line, tag, opened",
    [
        # each was told as what libxml2's closing of the open elements left them lacking
        (cut_after("<target>a c"), 11, "target", 11),  # was: malformed XML
        (cut_after('<eval translator="S"><targe'), 11, "eval", 11),  # <eval> without <target>
        (cut_after("<source>a b</source>\n"), 10, "sentence", 8),  # without its first reference
        (cut_after("</target></", 4), 11, "eval", 11),
        (cut_after("</sentence>\n"), 13, "evalTrans", 2),
        (cut_after("</sentence>\n</evalT", 1), 13, "evalTrans", 2),
        (lines(*HEAD, "</sentence>"), 6, "evalTrans", 2),
    ],
)
def test_a_file_cut_short_is_told_as_such_where_it_ends(
    data: bytes, line: int, tag: str, opened: int
) -> None:
    """Issue 36, point 8g: a truncated upload, a copy not finished."""
    assert refusal(data) == f"t.xml line {line}: {ERR_CUT_SHORT.format(tag=tag, line=opened)}"


def test_a_file_cut_inside_a_character_is_told_as_cut_short_not_as_another_encoding() -> None:
    """It was "bytes are not UTF-8 (0xC3 …); save the file as UTF-8": it is UTF-8."""
    data = doc(ev('translator="S"', "<target>café</target>"))
    cut = data[: data.index("é".encode()) + 1]

    assert refusal(cut) == f"t.xml line 6: {ERR_CUT_SHORT_CHARACTER}"
    assert refusal(cut + b"\n") == (
        f"t.xml line 6: {ERR_NOT_UTF8.format(byte='0xC3', column=35)}"  # not at the end
    )


def test_a_large_file_cut_short_is_told_as_such_where_it_ends() -> None:
    """Cut in a later chunk than its first: the same words, the last line."""
    sentence = "\n".join(
        ["<sentence>", "<source>s</source>", ev(FIRST_REF, "<target>r</target>"), "</sentence>", ""]
    )
    data = ("<evalTrans>\n" + sentence * 20_000 + "<sentence>\n<source>s").encode()
    assert len(data) > 4 * CHUNK_SIZE
    last = 1 + 20_000 * 4 + 2
    reason = ERR_CUT_SHORT.format(tag="source", line=last)
    assert refusal(data) == f"t.xml line {last}: {reason}"


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


@pytest.mark.parametrize(
    "line, reason",
    [
        (
            ev(f'translator="{"t" * 201}"'),
            '<eval translator="…"> is 201 characters long; at most 200',
        ),
        (
            ev(f'translator="sys" evaluator="{"e" * 151}" sser="5"'),
            '<eval evaluator="…"> is 151 characters long; at most 150',
        ),
    ],
)
def test_names_longer_than_their_columns_are_refused_with_the_line(line: str, reason: str) -> None:
    assert refusal(doc(line)) == f"t.xml line 6: {reason} fit"


def test_a_sentence_id_longer_than_its_column_is_refused() -> None:
    data = lines(
        "<evalTrans>",
        f'<sentence id="{"i" * 201}">',
        "  <source>s</source>",
        '  <eval translator="first reference"><target>r</target></eval>',
        "</sentence>",
        "</evalTrans>",
    )
    assert refusal(data) == (
        't.xml line 2: <sentence id="…"> is 201 characters long; at most 200 fit'
    )


def test_a_corpus_name_longer_than_its_column_is_refused() -> None:
    data = lines(
        f'<evalTrans name="{"n" * 300}">',
        "<sentence>",
        "  <source>s</source>",
        '  <eval translator="first reference"><target>r</target></eval>',
        "</sentence>",
        "</evalTrans>",
    )
    assert refusal(data) == (
        't.xml line 1: <evalTrans name="…"> is 300 characters long; at most 200 fit'
    )
