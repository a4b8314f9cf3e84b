"""Test data and plain helpers shared by the app's tests (fixtures are in ``conftest.py``).

Tests import from here, never from ``conftest.py`` or from another test module.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import pytest
from django.core.management import call_command

from annotation.corpora.evaltrans import (
    CorpusHeader,
    EvalTransError,
    SentenceElement,
    iter_evaltrans,
    write_evaltrans,
)
from annotation.models import Corpus, Judgment, Target, User

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
DEMO_XML = FIXTURES / "ted-zhen-demo.evaltrans.xml"
SEED_XML = FIXTURES / "seed-example.evaltrans.xml"
PASSWORD = "correct horse battery staple"

#: Four sentences, two references each; "perfect" is the first reference, "one-off"
#: misses one word of four in every sentence, "bad" has no word right.
HAND_REFS = [
    ("a b c d", "a b c e"),
    ("e f g h", "e f g h i"),
    ("i j k l", "i j k"),
    ("m n o p", "m n o q"),
]
HAND_SYSTEMS = {
    "perfect": ["a b c d", "e f g h", "i j k l", "m n o p"],
    "one-off": ["a b c x", "e f g x", "i j k x", "m n o x"],
    "bad": ["w x y z", "w x y z", "w x y z", "w x y z"],
}


def write_corpus(
    path: Path, refs: Sequence[Sequence[str]], systems: dict[str, Sequence[str]]
) -> Path:
    """A minimal evalTrans file: per sentence the references, then each system."""
    out = ["<evalTrans>"]
    for k, seg in enumerate(refs):
        out.append(f"<sentence><source>source {k}</source>")
        for i, ref in enumerate(seg):
            name = "first reference" if i == 0 else "multi reference"
            out.append(f"<eval translator={quoteattr(name)}><target>{escape(ref)}</target></eval>")
        for name, hyps in systems.items():
            out.append(
                f"<eval translator={quoteattr(name)}><target>{escape(hyps[k])}</target></eval>"
            )
        out.append("</sentence>")
    out.append("</evalTrans>")
    path.write_text("\n".join(out), encoding="utf-8")
    return path


def done_judgment(
    corpus: Corpus,
    evaluator: User,
    system: str,
    position: int,
    *,
    sser: int | None,
    edits: int | None = None,
    length: int | None = None,
    new_ref: str = "",
    seconds: float = 0.0,
) -> Judgment:
    """A done judgment of ``system``'s candidate for sentence ``position``, made directly
    (not through the judge's page): for tests of what the figures make of judgments."""
    target = Target.objects.get(
        sentence__corpus=corpus, sentence__position=position, translator__name=system
    )
    return Judgment.objects.create(
        target=target,
        evaluator=evaluator,
        sser=sser,
        new_ref=new_ref,
        edits=edits,
        ref_length=length,
        state=Judgment.State.DONE,
        active_seconds=seconds,
    )


def scores_json(name: str) -> dict:
    """What ``manage.py scores NAME --json`` prints, parsed."""
    out = io.StringIO()
    call_command("scores", name, "--json", stdout=out)
    return json.loads(out.getvalue())


def imports_django(module: str) -> bool:
    """Whether importing ``module`` in a fresh interpreter loads any part of Django.

    A fresh process, because this one has Django loaded already (pytest-django)."""
    script = (
        f"import sys, {module}\nprint(int(any(m.split('.')[0] == 'django' for m in sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.strip() != "0"


#: One sentence judged by two evaluators (JM's awer right, AB's to be recomputed), with
#: attributes and elements the format does not know: what an import must keep.
JUDGED = b"""<?xml version="1.0" encoding="UTF-8"?>
<evalTrans name="judged">
<sentence id="s1" doc="d1" topic="figures">
  <source>La figura muestra el m\xc3\xa9todo.</source>
  <eval translator="first reference"><target>This figure shows the procedure.</target></eval>
  <eval translator="multi reference"><target>This figure shows the method.</target></eval>
  <eval translator="Statistical" evaluator="JM" sser="8" awer="1/5" checked="yes">
    <target>Chart represent the method.</target>
    <newRef>Chart represents the method.</newRef>
  </eval>
  <eval translator="Statistical" evaluator="AB" sser="6" awer="3/4">
    <target>Chart represent the method.</target>
    <newRef>Chart represents the method.</newRef>
    <note>second opinion</note>
  </eval>
  <eval translator="Rules"><target>The figure shows the method.</target></eval>
</sentence>
</evalTrans>
"""

# --- evalTrans files in a few lines (the format's tests) ---------------------------------

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
    """A file of exactly these lines."""
    return "\n".join(text).encode()


def parse(data: bytes, **kwargs: object) -> list[CorpusHeader | SentenceElement]:
    """Everything the reader yields for ``data``, read as the file ``t.xml``."""
    return list(iter_evaltrans(io.BytesIO(data), filename="t.xml", **kwargs))  # type: ignore[arg-type]


def sentences_of(items: list[CorpusHeader | SentenceElement]) -> list[SentenceElement]:
    """The sentences of what the reader yielded, without the header."""
    return [item for item in items if isinstance(item, SentenceElement)]


def written(header: CorpusHeader, sentences: list[SentenceElement], **kwargs: object) -> bytes:
    """The bytes the writer writes."""
    out = io.BytesIO()
    write_evaltrans(out, header, sentences, **kwargs)  # type: ignore[arg-type]
    return out.getvalue()


def refusal(data: bytes) -> str:
    """The one-line refusal of ``data``, which must be refused."""
    with pytest.raises(EvalTransError) as caught:
        parse(data)
    return str(caught.value)


#: Attributes and elements the format does not know, everywhere they may be.
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
