"""The judge's keys come from one table (annotation/judging/keys.py): the page's script
reads it from the page, the buttons and the key list draw their keys from it, and every
button a key presses is on the page."""

from __future__ import annotations

import json
from collections import Counter

import lxml.html
import pytest
from django.test import Client

from annotation.judging.keys import BINDINGS, caps, script_table
from annotation.models import Judgment
from annotation.tests.factories import page_url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "key, shown",
    [
        ("u", ["u"]),
        ("=", ["="]),
        ("I", ["Shift", "I"]),
        ("Digit2", ["Shift", "2"]),
        ("Ctrl+z", ["Ctrl", "Z"]),
        ("Ctrl+Shift+z", ["Ctrl", "Shift", "Z"]),
        ("Ctrl+enter", ["Ctrl", "Enter"]),
        ("ArrowRight", ["→"]),
        ("Escape", ["Esc"]),
    ],
)
def test_a_key_is_shown_as_the_caps_it_is_pressed_with(key: str, shown: list[str]) -> None:
    assert caps(key) == shown


def test_no_key_does_two_things_where_it_holds() -> None:
    for scope in ("page", "ier", "item"):
        keys = Counter(k for b in BINDINGS if b.scope == scope for k in b.keys)
        assert [k for k, n in keys.items() if n > 1] == [], scope
    page = {k for b in BINDINGS if b.scope in ("page", "ier") for k in b.keys}
    assert len(page) == sum(len(b.keys) for b in BINDINGS if b.scope in ("page", "ier"))


def full_page(client: Client, judgment: Judgment, query: str = "") -> lxml.html.HtmlElement:
    return lxml.html.fromstring(client.get(page_url(judgment) + query).content.decode())


def test_the_page_gives_its_script_the_table_and_its_buttons_say_their_keys(
    judge_client: Client, figure_1: Judgment
) -> None:
    page = full_page(judge_client, figure_1)

    (block,) = page.xpath('//script[@id="judge-keys"]')
    assert block.get("type") == "application/json"
    assert json.loads(block.text) == script_table(ier=False)
    assert "i" not in script_table(ier=False)["page"]  # IER's keys only where IER is on
    assert script_table(ier=True)["item"]["m"] == "mark:meaning"
    for button, key in [("#undo", "u"), ("#redo", "r"), ("#accept-next", "n"), ("#previous", "p")]:
        assert page.cssselect(f"{button} kbd")[0].text == key, button
    (undo,) = page.xpath('//*[@id="keys"]//div[dd="undo / redo"]/dt')
    assert [k.text for k in undo.iter("kbd")] == ["u", "r", "Ctrl", "Z", "Ctrl", "Y"]


def test_every_button_a_key_presses_is_on_the_page(
    judge_client: Client, figure_1: Judgment
) -> None:
    """On a page with the word editor open (Esc closes it); a reused judgment's Confirm and
    the nearest references past the sentence's own are the only ones a page may lack."""
    judge = full_page(judge_client, figure_1, "?edit=0").cssselect("#judge")[0]
    pool = len(judge.cssselect("[data-pool]"))
    absent = {"confirm-reuse", *(f"pool-{n}" for n in range(pool + 1, 5))}

    pressed = {b.does for b in BINDINGS if b.does[0] in "#[" and b.name not in absent}

    assert pool == 3
    assert [s for s in sorted(pressed) if not judge.cssselect(s)] == []
    assert len(pressed) == 11 + 3 + 6  # SSER, pool, undo redo accept previous as-is close
