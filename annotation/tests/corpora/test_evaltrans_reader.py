"""Reading evalTrans XML (seed 001 §3.1): what a good file gives, streamed.

No database: ``annotation/corpora/evaltrans/`` imports no Django, and these tests use no ``db``.
"""

from __future__ import annotations

import io

import pytest

from annotation.corpora.evaltrans import (
    CorpusHeader,
    EvalElement,
    EvalTransError,
    Role,
    SentenceElement,
    iter_evaltrans,
    translator_role,
)
from annotation.tests.factories import (
    DEMO_XML,
    EXTRAS,
    doc,
    ev,
    parse,
    sentences_of,
    written,
)

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
    assert judged.line == 17
    assert judged.judged
    assert not first.judged
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
    "raw, normalised",
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
    assert isinstance(first, SentenceElement)
    assert first.position == 0
    assert first.line == 2
    rest = []
    with pytest.raises(EvalTransError):
        rest.extend(items)
    assert len(rest) >= 2000  # yielded as the file was read, before the refusal at its end


def test_unknown_attributes_and_elements_are_kept() -> None:
    header, first, second = parse(EXTRAS.encode())
    assert isinstance(header, CorpusHeader)
    assert isinstance(first, SentenceElement)
    assert isinstance(second, SentenceElement)
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


def test_demo_corpus_content() -> None:
    items = list(iter_evaltrans(DEMO_XML))
    header, sentences = items[0], sentences_of(items)
    assert header == CorpusHeader(name="TED talks zh-en, demo sample")
    assert len(sentences) == 40
    assert [s.position for s in sentences] == list(range(40))
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
