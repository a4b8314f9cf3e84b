"""Test data and plain helpers shared by the app's tests (fixtures are in ``conftest.py``).

Tests import from here, never from ``conftest.py`` or from another test module.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from django.core.management import call_command
from lxml import etree

from annotation.models import Corpus, Judgment, Target, Translator, User
from annotation.scoring import JudgmentRow

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
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


# --- the dashboard's tests ---------------------------------------------------------------

#: The nine metrics in the dashboard's column order (automatic, then human).
METRICS = ("wer", "ser", "mwer", "per", "bleu", "nist", "sser", "awer", "aser")
#: htmx's request header, as the test client takes it.
HTMX = {"HTTP_HX_REQUEST": "true"}

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
) -> JudgmentRow:
    """A done judgment as the dashboard reads it, without a database."""
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
    )


def add_judgments(corpus: Corpus, users: list[User], count: int) -> None:
    """``count`` done judgments spread over the users (each candidate up to twice)."""
    targets = list(
        Target.objects.filter(sentence__corpus=corpus, translator__role="system").order_by("pk")
    )
    made = 0
    for i, target in enumerate(targets):
        for j, user in enumerate(users[: 1 + i % 2]):
            if made == count:
                return
            Judgment.objects.create(
                target=target,
                evaluator=user,
                sser=(i + 3 * j) % 11,
                new_ref=target.text,
                edits=(i + j) % 4,
                ref_length=8,
                state="done",
                active_seconds=20.0 + i,
            )
            made += 1


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
