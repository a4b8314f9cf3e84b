"""Fixtures of the judging tests (plain helpers are in :mod:`annotation.tests.factories`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import import_xml, target_of


@pytest.fixture
def page(page: Page) -> Page:
    """The browser tab, with Playwright's request interception on before its first page.

    The tests hold a request on its way (``hold_the_first_request``) by a route added
    once the judge's page is open. Turned on for a page already loaded, Chromium's
    interception reaches the page's loaders a moment later, and a key pressed at once
    (input goes first in the page's queue) could send its request unseen: the test then
    waited for a request already answered (2 CI runs in about 30; 1 in 30 here with the
    processors busy). With interception on from the start, a route added later applies
    to the very next request: only the patterns change."""
    page.route("**/never-requested-by-the-app/", lambda route: route.continue_())
    return page


@pytest.fixture
def figures_shown(seed: Corpus) -> Corpus:
    """The seed corpus with the system's live figures shown to its judges (blind, it
    hides them unless a lead shows them)."""
    seed.judges_see_figures = True
    seed.save(update_fields=["judges_see_figures"])
    return seed


@pytest.fixture
def figure_1(seed: Corpus, judge: User) -> Judgment:
    """The judge's judgment of seed 001 Figure 1's candidate, as the services open it."""
    return judgment_open(user=judge, target=target_of(seed, "a translator"))


@pytest.fixture
def documents(judge: User) -> Callable[[list[str | None]], Corpus]:
    """Make a corpus assigned to the judge with one sentence per entry of the list given
    (its ``doc`` id, None for none): source "s<k>", one reference, system "sys"."""

    def sentence(k: int, doc: str | None) -> str:
        attr = "" if doc is None else f' doc="{doc}"'
        return (
            f"<sentence{attr}><source>s{k}</source>"
            '<eval translator="first reference"><target>r</target></eval>'
            f'<eval translator="sys"><target>c{k}</target></eval></sentence>\n'
        )

    def make(docs: list[str | None]) -> Corpus:
        body = "".join(sentence(k, d) for k, d in enumerate(docs))
        return import_xml(f"<evalTrans>\n{body}</evalTrans>", "docs", judge)

    return make
