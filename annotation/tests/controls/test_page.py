"""A control item's page is a candidate's page (issue 23): each kind of control is drawn,
as the judge reaches it, beside the real candidate that comes right after it (same
sentence), and the two full pages are compared with everything but the texts taken
out (the candidate's words, the new reference, the pool's texts and kinds, the figures'
values, the numbers, the pool's entries): the same markup, attributes, URL shape,
counters' pattern ("sentence k of M" the same, "candidate k of N" with the same N, "done
x / T" moving by one) and label pattern. (The whole queue, control items and real ones,
with controls on and off: ``test_unseen.py``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from lxml import etree

from annotation.judging.start import next_judgment_for
from annotation.models import Judgment, User
from annotation.tests.controls.factories import (
    DRAWN_KINDS,
    queue_corpus,
    right_answer,
    with_every_kind,
)
from annotation.tests.factories import finish, page_url

pytestmark = pytest.mark.django_db

#: Where the page prints the candidate's own texts: their children go, their count stays.
#: The pool's entries go too: each item's pool holds the new references the judge made
#: before it in the sentence (a control's as a real item's), so their number grows along
#: the run, and shows the four nearest the candidate (what a pool lists is compared, the
#: whole pool in sight, in ``test_unseen.py``).
TEXT_BLOCKS = ("candidate", "new-ref", "figures", "pool")
#: What the header says of the judge's own history, not of the item: the pace (and the
#: time left it gives) reads "after your first accepted candidate" until one is accepted,
#: so a control that happens to be the judge's first item is followed by a page with a
#: pace, as a real first item is (the queue's order, drawn per corpus, decides which).
JUDGE_HISTORY = ("pace", "time-left")
#: Buttons on or off by the item's texts (see :func:`skeleton`).
CONTENT_SWITCHED = ("accept-as-is", "toggle-severity")
#: Attributes that carry a text of the item (or its pk / version).
POOL_TEXTS = ("pool-ref", "pool-ref current", "pool-meta")
TEXT_ATTRIBUTES = ("value", "title", "data-text", "data-judgment", "data-version", "aria-label")
#: A number as the page writes it: a share of the work done may read 5 % or 7.5 %.
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def skeleton(html: str) -> list[tuple[str, tuple[tuple[str, str], ...], str]]:
    """Every element of the page's body in document order: tag, attributes and text,
    with numbers masked and the item's texts left out (see the module)."""
    tree = etree.HTML(html)
    for block in TEXT_BLOCKS + JUDGE_HISTORY:
        for element in tree.iterfind(f'.//*[@id="{block}"]'):
            for child in list(element):
                element.remove(child)
            element.text = None
    # "Correct as it is" and "major / minor" are off where the candidate already reads
    # as its new reference, which the texts decide (a control's new reference joins the
    # next item's pool, as a real one's does, so the item after a control may start
    # there): a fact of the texts, left out as they are
    for button in CONTENT_SWITCHED:
        for element in tree.iterfind(f'.//*[@id="{button}"]'):
            element.attrib.pop("disabled", None)
    out = []
    for element in tree.iterfind(".//body//*"):
        attrs = tuple(
            sorted(
                (k, "·" if k in TEXT_ATTRIBUTES else NUMBER.sub("#", v))
                for k, v in element.attrib.items()
            )
        )
        text = (element.text or "").strip()
        # a pool entry: its text, and what it is and how near (as they differ between
        # any two candidates)
        if element.get("class") in POOL_TEXTS or element.tag == "textarea":
            text = "·"
        out.append((element.tag, attrs, NUMBER.sub("#", text)))
    return out


def header(html: str) -> dict[str, str]:
    tree = etree.HTML(html)
    position = "".join(tree.find('.//*[@id="position"]').itertext())
    return {
        "position": re.sub(r"\s+", " ", position).strip(),
        "label": tree.find('.//*[@id="translator-label"]').text,
    }


@pytest.fixture
def beside(tmp_path: Path, client: Client, judge: User) -> dict[str, tuple[str, str]]:
    """Walk the judge's queue; for each kind of control met first, the control's page
    and the page of the real candidate after it, each as the judge reached it. The walk
    stops once every kind drawn has both pages: the rest of the queue adds none."""
    corpus = with_every_kind(
        queue_corpus(tmp_path, "beside", [judge], sentences=3, systems=14), judge
    )
    client.force_login(judge)
    found: dict[str, tuple[str, str]] = {}
    control_page = None
    while (
        found.keys() < DRAWN_KINDS
        and (judgment := next_judgment_for(user=judge, corpus=corpus)) is not None
    ):
        response = client.get(page_url(judgment))
        assert response.status_code == 200
        html = response.content.decode()
        if control_page is not None:
            kind, before = control_page
            found.setdefault(kind, (before, html))
            control_page = None
        if judgment.control:
            control_page = (judgment.control, html)
        finish(judgment, judge, *right_answer(judgment))
    return found


def test_every_kind_of_control_is_met(beside: dict[str, tuple[str, str]]) -> None:
    assert set(beside) == {Judgment.Control.REFERENCE, Judgment.Control.DEGRADED}


@pytest.mark.parametrize("kind", [Judgment.Control.REFERENCE, Judgment.Control.DEGRADED])
def test_a_control_page_differs_from_its_neighbours_only_by_its_texts(
    beside: dict[str, tuple[str, str]], kind: str
) -> None:
    control, real = beside[kind]

    assert skeleton(control) == skeleton(real)
    shown, after = header(control), header(real)
    assert re.fullmatch(r"System \d+", shown["label"])
    assert shown["label"] != after["label"]
    sentence = r"sentence (\d+) of (\d+)"
    assert (
        re.match(sentence, shown["position"]).groups()
        == re.match(sentence, after["position"]).groups()
    )
    candidate = r".*candidate (\d+) of (\d+)"
    k, n = re.match(candidate, shown["position"]).groups()
    assert re.match(candidate, after["position"]).groups() == (str(int(k) + 1), n)
    done = r".*done (\d+)/(\d+)"
    x, t = re.match(done, shown["position"]).groups()
    assert re.match(done, after["position"]).groups() == (str(int(x) + 1), t)
