"""Test data and plain helpers shared by the app's tests (fixtures are in ``conftest.py``).

Tests import from here, never from ``conftest.py`` or from another test module.
"""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from lxml import etree

from annotation.changes import judgments_changed
from annotation.corpora.evaltrans import (
    CorpusHeader,
    EvalElement,
    EvalTransError,
    SentenceElement,
    iter_evaltrans,
    write_evaltrans,
)
from annotation.corpora.exports import corpus_export
from annotation.corpora.import_jobs import queue_import
from annotation.corpora.imports import corpus_import
from annotation.jobs import Job
from annotation.judging.changes import (
    judgment_accept_op,
    judgment_edit_ref,
    judgment_finish,
    judgment_set_sser,
)
from annotation.judging.edits import OpRef
from annotation.models import Campaign, Corpus, Judgment, Sentence, Target, Translator, User
from annotation.statistics import FIXED_PREPROCESSING, PROTOCOL_FIGURES, JudgmentRow
from annotation.text import words
from metrics.align import Op, align
from metrics.facts import APP_AUTOMATIC

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
DEMO_XML = FIXTURES / "ted-zhen-demo.evaltrans.xml"
SEED_XML = FIXTURES / "seed-example.evaltrans.xml"
PASSWORD = "correct horse battery staple"
#: Seed 001's file, then a sentence without its source (line 30): refused once the import
#: reads that far, after the corpus (and its campaign) was created.
SEED_REFUSED_LATE = SEED_XML.read_bytes().replace(
    b"</evalTrans>",
    b"<sentence><eval translator='first reference'><target>x</target></eval></sentence>\n"
    b"</evalTrans>",
)

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
    path: Path,
    refs: Sequence[Sequence[str]],
    systems: dict[str, Sequence[str]],
    *,
    docs: Sequence[str | None] = (),
) -> Path:
    """A minimal evalTrans file: per sentence the references, then each system; the
    sentence's ``doc`` from ``docs`` where given (none where None or left out)."""
    out = ["<evalTrans>"]
    for k, seg in enumerate(refs):
        doc = docs[k] if k < len(docs) else None
        attrs = "" if doc is None else f" doc={quoteattr(doc)}"
        out.append(f"<sentence{attrs}><source>source {k}</source>")
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


def sized_corpus(
    path: Path, name: str, sentences: int, *, systems: int = 3, references: int = 2
) -> Corpus:
    """An imported corpus of ``sentences`` sentences, not scored until something reads
    its figures: for checking that a page's query count does not grow with the corpus
    (the same page on two sizes)."""
    refs = [
        [f"reference {r} of sentence {k} ." for r in range(references)] for k in range(sentences)
    ]
    hyps = {
        f"system {s}": [f"system {s} says sentence {k} ." for k in range(sentences)]
        for s in range(systems)
    }
    source = write_corpus(path / f"{name}.xml", refs, hyps)
    return corpus_import(source=source, name=name, score=False).corpus


def queue_upload(lead: User, data: bytes, name: str, campaign: Campaign | None = None) -> Job:
    """The upload of ``data`` as corpus ``name`` (file ``<name>.xml``) into ``campaign``,
    queued as the upload page queues it."""
    return queue_import(
        data=data,
        filename=f"{name}.xml",
        name=name,
        reference_names=(),
        assign=False,
        lead=lead,
        campaign=campaign,
    )


def seed_corpus(name: str = "seed", campaign: Campaign | None = None) -> Corpus:
    """Seed 001's example as corpus ``name`` in ``campaign`` (else a campaign of its own),
    not scored until something reads its figures."""
    return corpus_import(source=SEED_XML, name=name, score=False, campaign=campaign).corpus


def store_failed_jobs(corpus: Corpus, *, import_into: Campaign | None = None) -> None:
    """A scoring of ``corpus`` that failed, as a worker records it, and with
    ``import_into`` an upload into that campaign that a worker refused (its file kept for
    a retry): what the lead's pages show with their reason and Retry."""
    Job.objects.create(
        kind="statistics",
        key=f"statistics:{corpus.pk}:failed",
        label=f"Scoring {corpus.name}",
        corpus=corpus,
        status=Job.Status.FAILED,
        error="MemoryError: out of memory",
    )
    if import_into is not None:
        Job.objects.create(
            kind="import",
            key=f"import:broken-{import_into.pk}",
            label="import of 'broken'",
            status=Job.Status.FAILED,
            error="broken.xml line 3: <eval> without translator",
            upload=b"<evalTrans>",
            payload={"campaign": import_into.pk},
        )


def page_queries(client: Client, url: str) -> int:
    """The queries one view of ``url`` costs (it must answer 200)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


def in_file_order(corpus: Corpus) -> Corpus:
    """``corpus`` with its judges' queue in file order, as migration 0021 leaves a corpus
    imported before the queue was drawn (:mod:`annotation.judging.order`): for tests of
    the page that follow seed 001's sentences as the paper shows them, Figure 1 first."""
    sentences = Sentence.objects.filter(corpus=corpus)
    sentences.update(queue_position=None)  # a unique index: no two rows meet on the way
    sentences.update(queue_position=F("position"))
    return corpus


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
    judgment = _done(target, evaluator, sser, edits, length, new_ref, seconds)
    judgment.save()
    judgments_changed(corpus.pk)  # as every write of a done one
    return judgment


def _done(
    target: Target,
    evaluator: User,
    sser: int | None,
    edits: int | None,
    length: int | None,
    new_ref: str,
    seconds: float,
) -> Judgment:
    """:func:`done_judgment`'s judgment, not saved yet."""
    return Judgment(
        target=target,
        evaluator=evaluator,
        sser=sser,
        new_ref=new_ref,
        edits=edits,
        ref_length=length,
        state=Judgment.State.DONE,
        active_seconds=seconds,
    )


#: One judgment of :func:`done_judgments`: the judge, the system, the sentence's position,
#: then its SSER score, edits and reference length (as :func:`done_judgment` takes them).
DoneJudgment = tuple[User, str, int, int | None, int | None, int | None]


def targets_at(corpus: Corpus, wanted: Sequence[tuple[str, int]]) -> dict[tuple[str, int], Target]:
    """The corpus's candidates of these (system, sentence position) pairs, read at once,
    by pair."""
    return {
        (t.translator.name, t.sentence.position): t
        for t in Target.objects.filter(
            sentence__corpus=corpus,
            sentence__position__in={position for _, position in wanted},
            translator__name__in={system for system, _ in wanted},
        ).select_related("translator", "sentence")
    }


def done_judgments(corpus: Corpus, judgments: Iterable[DoneJudgment]) -> list[Judgment]:
    """Many :func:`done_judgment` at once, in their order: the same rows, written in one
    insert after one read of the candidates, the change told once. Judgment by judgment,
    the 150 of a judged corpus cost two queries and a change each, a second of a
    dashboard test that then reads one page (``tests/dashboard/test_too_few.py``)."""
    wanted = list(judgments)
    targets = targets_at(corpus, [(system, position) for _, system, position, *_ in wanted])
    made = Judgment.objects.bulk_create(
        _done(targets[(system, position)], evaluator, sser, edits, length, "", 0.0)
        for evaluator, system, position, sser, edits, length in wanted
    )
    judgments_changed(corpus.pk)  # as every write of a done one
    return made


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


def manage_py(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python manage.py ARGS`` in a fresh process on the SQLite file ``database``, as a
    lead's shell runs it (exit status and standard error as they would see them)."""
    env = {"DATABASE_URL": f"sqlite:///{database}", "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


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

#: A right-to-left override (U+202E) left open in a system's name, the source and the
#: candidate (nothing closes it before the text that follows).
BIDI_XML = """<evalTrans>
<sentence>
  <source>el \u202egato negro</source>
  <eval translator="first reference"><target>the black cat</target></eval>
  <eval translator="sys \u202eone"><target>the \u202eblack dog</target></eval>
</sentence>
</evalTrans>""".encode()

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


def judged_eval(text: bytes) -> EvalElement:
    """The last ``<eval>`` of a one-sentence file, as the reader gives it."""
    (sentence,) = sentences_of(parse(text))
    return sentence.evals[-1]


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


#: Three sentences of a Chinese target, one reference, two systems. The texts have no
#: spaces, so 13a makes one word of each and the ``zh`` tokenizer one of each character:
#: "sys B"'s first candidate misses one word of one under 13a, one of five under ``zh``.
CHINESE_REFS = ["我喜欢猫。", "今天天气很好。", "他在读书。"]
CHINESE_SYSTEMS = {
    "sys A": ["我喜欢猫。", "今天天气不错。", "他在看书。"],
    "sys B": ["我喜欢狗。", "今天天气很好。", "她在读书。"],
}
#: :data:`CHINESE_REFS` and :data:`CHINESE_SYSTEMS` as an evalTrans file naming its
#: target language (``trglang="zh"``).
CHINESE = "\n".join(
    [
        '<evalTrans srclang="en" trglang="zh">',
        *(
            f"<sentence><source>source {k}</source>"
            f'<eval translator="first reference"><target>{ref}</target></eval>'
            + "".join(
                f'<eval translator="{name}"><target>{hyps[k]}</target></eval>'
                for name, hyps in CHINESE_SYSTEMS.items()
            )
            + "</sentence>"
            for k, ref in enumerate(CHINESE_REFS)
        ),
        "</evalTrans>",
    ]
)


# --- the judge's work: seed 001 Figure 1 and click helpers ------------------------------


#: Seed 001 Figure 1: candidate, nearest reference (5 edits), 3 clicks' result (2), as-is.
FIGURE_1_CANDIDATE = "Diagram show the scan procedure for locate the archives ."
FIGURE_1_FIRST_REF = "This figure shows the scan procedure to find the archives."
FIGURE_1_RESULT = "Diagram shows the scan procedure to locate the archives."
FIGURE_1_AS_IS = "Diagram show the scan procedure for locate the archives."
#: One sentence, one reference, two systems; ``{b}`` is system B's candidate.
CATS = """<evalTrans>
<sentence>
  <source>el gato</source>
  <eval translator="first reference"><target>the cat sat on the mat .</target></eval>
  <eval translator="sys A"><target>a cat sat on a mat .</target></eval>
  <eval translator="sys B"><target>{b}</target></eval>
</sentence>
</evalTrans>"""


def import_xml(text: str, name: str, *judges: User, share: bool = False) -> Corpus:
    """A corpus from evalTrans ``text``, assigned to ``judges`` (sharing new references
    among them if ``share``); not scored until something reads its figures."""
    corpus = corpus_import(source=io.BytesIO(text.encode()), name=name, score=False).corpus
    corpus.judges.add(*judges)
    if share:
        corpus.share_new_refs = True
        corpus.save()
    return corpus


def exported(corpus: Corpus) -> bytes:
    """The corpus as ``export_evaltrans`` writes it."""
    out = io.BytesIO()
    corpus_export(corpus=corpus, out=out)
    return out.getvalue()


def target_of(corpus: Corpus, translator: str, sentence: int = 0) -> Target:
    """``translator``'s target of sentence ``sentence``, as the judging services load it."""
    return Target.objects.select_related("sentence__corpus", "translator").get(
        sentence__corpus=corpus, sentence__position=sentence, translator__name=translator
    )


def click(judgment: Judgment, user: User, kind: Op, word: str) -> Judgment:
    """Click the operation of ``kind`` whose candidate word (or, for "–", reference word)
    is ``word``, on the alignment the page would show."""
    alignment = align(words(judgment.target.text), words(judgment.new_ref))
    op = next(
        e
        for e in alignment.ops
        if e.op is kind and (e.ref_word if kind is Op.MISSING else e.hyp_word) == word
    )
    return judgment_accept_op(
        judgment=judgment, user=user, version=judgment.version, op=OpRef.of(op)
    )


def finish(judgment: Judgment, user: User, new_ref: str, sser: int) -> None:
    """Judge a candidate through the services: this new reference, this score, done."""
    judgment_edit_ref(judgment=judgment, user=user, version=judgment.version, text=new_ref)
    judgment_set_sser(judgment=judgment, user=user, version=judgment.version, sser=sser)
    judgment_finish(judgment=judgment, user=user, version=judgment.version)


# --- the judge's page: URLs and one valid change per action -------------------------------

HTMX = {"HTTP_HX_REQUEST": "true"}
#: The query budget of one click on the judge's page (htmx or plain): 10, and the one a
#: process makes the first time it shows a corpus (the stored statistics' live rows).
MAX_QUERIES_PER_CLICK = 11


def page_url(judgment: Judgment) -> str:
    """The judge's page of ``judgment``."""
    return reverse("annotation:judgment", args=[judgment.pk])


def change_url(judgment: Judgment, action: str) -> str:
    """Where the judge's page posts the change ``action`` of ``judgment``."""
    return reverse("annotation:judgment_change", args=[judgment.pk, action])


def fresh(judgment: Judgment) -> Judgment:
    """``judgment`` as stored now."""
    return Judgment.objects.get(pk=judgment.pk)


#: One valid change per action of the judge's page, for the Figure 1 judgment at version
#: 1: (action, posted fields, a check of the stored judgment after it).
JUDGE_CHANGES = [
    ("op", {"op": "missing:0:0"}, lambda j: j.new_ref.startswith("figure shows")),
    ("word", {"pos": "0", "action": "replace", "text": "Diagram"}, lambda j: j.edits == 4),
    ("new-ref", {"text": "Diagram shows it ."}, lambda j: j.new_ref == "Diagram shows it."),
    (
        "use-ref",
        {"text": "Chart represents the search method to locate the files ."},
        lambda j: j.edits == 6,
    ),
    ("sser", {"sser": "8"}, lambda j: j.sser == 8),
    (
        "severity",
        {"op": "substitution:0:1"},
        lambda j: j.severities == {"substitution:0": "major"},
    ),
]
# --- the dashboard's tests ---------------------------------------------------------------

#: The automatic metrics in the dashboard's column order, and the human ones an aWER
#: corpus shows, every test corpus's protocol unless it says otherwise (the table of
#: :mod:`metrics.facts`; statistics/test_metric_set.py pins what it holds).
AUTOMATIC = APP_AUTOMATIC
HUMAN = PROTOCOL_FIGURES["awer"]


def signature_choice(metric: str, tok: str, lowercase: bool) -> tuple[str, str]:
    """The tokenizer and case an automatic metric's signature names when the dashboard's
    choice is ``tok`` and ``lowercase``: chrF reads the raw text, TER normalises as
    sacreBLEU's TER, the metrics of fixed preprocessing keep the default choice."""
    case = "case:lc" if lowercase else "case:mixed"
    if metric.startswith("chrf"):
        return "tok:none", case
    if metric == "ter":
        return "tok:tercom", "case:lc"
    if metric in FIXED_PREPROCESSING:
        return "tok:13a", "case:lc" if metric == "meteor" else "case:mixed"
    return f"tok:{tok}", case


#: Every metric of an aWER corpus's dashboard in its column order (automatic, then human).
METRICS = (*AUTOMATIC, *HUMAN)
#: htmx's request header, as the test client takes it.

#: Judge "ann" on the hand corpus: the perfect system 10 everywhere (SSER 0 %), one-off
#: 8, 7, 8, 7 (SSER 25 %), bad 0 (100 %); aWER 0/4, 1/4, 4/4 per sentence.
HAND_SSER = {"perfect": [10, 10, 10, 10], "one-off": [8, 7, 8, 7], "bad": [0, 0, 0, 0]}
HAND_EDITS = {"perfect": 0, "one-off": 1, "bad": 4}


def judgment_row(
    system: str,
    segment: int,
    evaluator: str,
    *,
    sser: int | None = None,
    edits: int | None = None,
    length: int | None = None,
    new_ref: str = "",
    seconds: float = 0.0,
    target: int | None = None,
    ier: tuple[int, int] | None = None,
    ier_seconds: float = 0.0,
    ier_clicks: int = 0,
) -> JudgmentRow:
    """A done judgment as the dashboard reads it, without a database (``ier``: bad, all)."""
    return JudgmentRow(
        system=system,
        segment=segment,
        target_id=target if target is not None else hash((system, segment)) % 10**6,
        evaluator=evaluator,
        sser=sser,
        edits=edits,
        ref_length=length,
        new_ref=new_ref,
        active_seconds=seconds,
        ier_errors=None if ier is None else ier[0],
        ier_length=None if ier is None else ier[1],
        ier_seconds=ier_seconds,
        ier_clicks=ier_clicks,
    )


def add_judgments(corpus: Corpus, users: list[User], count: int) -> None:
    """``count`` done judgments spread over the users (each candidate up to twice)."""
    judgments_changed(corpus.pk)  # as every write of a done one
    targets = list(
        Target.objects.filter(sentence__corpus=corpus, translator__role="system").order_by("pk")
    )
    made = (
        Judgment(
            target=target,
            evaluator=user,
            sser=(i + 3 * j) % 11,
            new_ref=target.text,
            edits=(i + j) % 4,
            ref_length=8,
            ter_edits=(i + j) % 3,
            ter_length=8,
            ier_errors=(i + j) % 3,
            ier_length=2 + i % 2,
            state="done",
            active_seconds=20.0 + i,
        )
        for i, target in enumerate(targets)
        for j, user in enumerate(users[: 1 + i % 2])
    )
    Judgment.objects.bulk_create(itertools.islice(made, count))  # in one insert, in order


def system_pk(corpus: Corpus, name: str = "NiuTrans") -> int:
    return Translator.objects.get(corpus=corpus, name=name).pk


def by_id(tree: etree._Element, element_id: str) -> etree._Element:
    (found,) = tree.xpath(f'//*[@id="{element_id}"]')
    return found


def cells(html: str) -> dict[tuple[str, str], dict[str, str]]:
    """(system, metric) → the cell's attributes and text, from #metrics-table."""
    table = by_id(etree.HTML(html), "metrics-table")
    out = {}
    for tr in table.iterfind(".//tbody/tr"):
        for td in tr.iterfind("td"):
            info = dict(td.attrib)
            info["text"] = "".join(td.itertext()).strip()
            info["number"] = (td.text or "").strip()
            out[(tr.get("data-translator"), td.get("data-metric"))] = info
    return out
