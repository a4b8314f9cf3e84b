"""Writing evalTrans XML: round trips, canonical order, refusals, flat memory.

No database: ``annotation/corpora/evaltrans/`` imports no Django, and these tests use no ``db``.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from annotation.corpora.evaltrans import (
    ERR_NO_FIRST_REFERENCE,
    ERR_TARGET_DIFFERS,
    PARSER_OPTIONS,
    CorpusHeader,
    EvalElement,
    Role,
    SentenceElement,
    canonical_evals,
    iter_evaltrans,
    translator_role,
)
from annotation.tests.factories import (
    DEMO_XML,
    EXTRAS,
    ROOT,
    SEED_XML,
    parse,
    sentences_of,
    written,
)


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
    assert "</sentence>\n<separator" in text
    assert "<trailer" in text


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
    assert isinstance(header, CorpusHeader)
    assert len(sentences) == len(items) - 1 > 0
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
    "sentence, message",
    [pytest.param(s, m, id=case) for case, s, m in WRITER_REFUSALS],
)
def test_writer_refuses_what_would_not_read_back(sentence: SentenceElement, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}"):
        written(CorpusHeader(None), [sentence])


# --- streaming and independence from Django -------------------------------------------------

MEMORY_SCRIPT = """
import json, sys
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
    # this process's own high-water mark: getrusage's ru_maxrss survives execve, so a
    # child of a large test process would start at its parent's peak
    with open("/proc/self/status") as status:
        return next(int(l.split()[1]) * 1024 for l in status if l.startswith("VmHWM:"))

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


@pytest.mark.slow
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
    assert not (wrote["django"])
    assert not (streamed["django"])


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
