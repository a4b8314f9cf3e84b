"""IER (issue 14, point 2), the services: the default split, splitting and joining items,
marking them, the rate, undo and redo, what accepting keeps, and the refusals."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils.html import escape

from annotation.ier import default_items, items_problem, toggle_gap
from annotation.judging.changes import (
    judgment_finish,
    judgment_redo,
    judgment_set_sser,
    judgment_undo,
)
from annotation.judging.errors import (
    ERR_IER_GAP,
    ERR_IER_LABEL,
    ERR_IER_OFF,
    ERR_IER_START,
    ChangeRefused,
)
from annotation.judging.items import judgment_ier_mark, judgment_ier_split
from annotation.judging.page import judging_context
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import HTMX, change_url, fresh, import_xml, target_of
from annotation.text import words

pytestmark = pytest.mark.django_db

MARKS = "ok, syntax, meaning, other"

#: A candidate of two clauses and a question: 13 words, default items 0–5, 5–9, 9–13.
CANDIDATE = "He came home , he said . Was it late ?"
CORPUS = f"""<evalTrans>
<sentence><source>s</source>
  <eval translator="first reference"><target>He came home, he said. Was it late?</target></eval>
  <eval translator="sys"><target>{CANDIDATE}</target></eval>
</sentence>
</evalTrans>"""


@pytest.fixture
def ier_corpus(judge: User) -> Corpus:
    corpus = import_xml(CORPUS, "ier", judge)
    corpus.ier_enabled = True
    corpus.save()
    return corpus


@pytest.fixture
def judgment(ier_corpus: Corpus, judge: User) -> Judgment:
    return judgment_open(user=judge, target=target_of(ier_corpus, "sys"))


def split(j: Judgment, user: User, gap: int) -> Judgment:
    return judgment_ier_split(judgment=j, user=user, version=j.version, gap=gap)


def mark(j: Judgment, user: User, start: int, label: str) -> Judgment:
    return judgment_ier_mark(judgment=j, user=user, version=j.version, start=start, label=label)


# --- the rule ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        (CANDIDATE, [(0, 4, "ok"), (4, 7, "ok"), (7, 11, "ok")]),
        ("no punctuation at all", [(0, 4, "ok")]),
        ("Really ?! Yes .", [(0, 3, "ok"), (3, 5, "ok")]),  # a run of punctuation stays
        ("a : b ; c", [(0, 2, "ok"), (2, 4, "ok"), (4, 5, "ok")]),
        ("", []),
    ],
)
def test_the_default_split_cuts_after_punctuation_and_at_the_end(text: str, expected: list) -> None:
    assert default_items(words(text)) == expected


def test_a_gap_inside_an_item_cuts_it_and_a_boundary_joins_keeping_an_error() -> None:
    items = [(0, 4, "ok"), (4, 7, "meaning")]
    assert toggle_gap(items, 2) == [(0, 2, "ok"), (2, 4, "ok"), (4, 7, "meaning")]
    assert toggle_gap(items, 4) == [(0, 7, "meaning")]
    assert toggle_gap([(0, 2, "syntax"), (2, 3, "other")], 2) == [(0, 3, "syntax")]


@pytest.mark.parametrize(
    "items",
    [
        "0-3",
        [[0, 2, "ok"], [3, 5, "ok"]],  # a gap
        [[0, 3, "ok"], [2, 5, "ok"]],  # an overlap
        [[0, 5, "fine"]],  # an unknown mark
        [[0, 4, "ok"]],  # does not reach the end
        [[0, 0, "ok"], [0, 5, "ok"]],  # empty
        [[0, True, "ok"]],
    ],
)
def test_item_lists_that_do_not_tile_the_candidate_are_refused(items: object) -> None:
    assert items_problem(items, 5) is not None


# --- the judge's clicks -------------------------------------------------------------------------


def test_the_page_offers_the_default_split_all_ok(judgment: Judgment) -> None:
    shown = judging_context(judgment).ier
    assert shown is not None
    assert [(i.start, i.end, i.label) for i in shown.items] == [
        (0, 4, "ok"),
        (4, 7, "ok"),
        (7, 11, "ok"),
    ]
    assert (shown.errors, shown.rate) == (0, 0.0)
    assert fresh(judgment).ier_items == []  # nothing stored before the judge changes it


def test_ier_is_the_share_of_items_not_ok(judgment: Judgment, judge: User) -> None:
    split(judgment, judge, 2)  # "He came" | "home ," | "he said ." | "Was it late ?"
    mark(judgment, judge, 2, "syntax")
    mark(judgment, judge, 7, "meaning")

    stored = fresh(judgment)
    assert stored.ier_items == [[0, 2, "ok"], [2, 4, "syntax"], [4, 7, "ok"], [7, 11, "meaning"]]
    assert (stored.ier_errors, stored.ier_length) == (2, 4)
    assert judging_context(judgment).ier.rate == 50.0  # type: ignore[union-attr]
    kinds = list(stored.events.exclude(kind="open").values_list("kind", flat=True))
    assert kinds == ["ier_split", "ier_mark", "ier_mark"]


def test_joining_two_items_and_splitting_again_gives_the_split_back(
    judgment: Judgment, judge: User
) -> None:
    split(judgment, judge, 4)
    assert fresh(judgment).ier_items == [[0, 7, "ok"], [7, 11, "ok"]]
    split(judgment, judge, 4)
    assert fresh(judgment).ier_items == [[0, 4, "ok"], [4, 7, "ok"], [7, 11, "ok"]]


def test_undo_and_redo_walk_through_ier_changes(judgment: Judgment, judge: User) -> None:
    mark(judgment, judge, 4, "other")
    split(judgment, judge, 9)
    judgment_undo(judgment=judgment, user=judge, version=judgment.version)
    assert fresh(judgment).ier_items == [[0, 4, "ok"], [4, 7, "other"], [7, 11, "ok"]]
    judgment_undo(judgment=judgment, user=judge, version=judgment.version)
    stored = fresh(judgment)
    assert (stored.ier_items, stored.ier_errors, stored.ier_length) == ([], None, None)

    judgment_redo(judgment=judgment, user=judge, version=judgment.version)
    assert (fresh(judgment).ier_errors, fresh(judgment).ier_length) == (1, 3)


def test_accepting_keeps_the_items_as_shown(judgment: Judgment, judge: User) -> None:
    judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=9)
    judgment_finish(judgment=judgment, user=judge, version=judgment.version)
    stored = fresh(judgment)
    assert stored.ier_items == [[0, 4, "ok"], [4, 7, "ok"], [7, 11, "ok"]]
    assert (stored.ier_errors, stored.ier_length) == (0, 3)


def test_accepting_in_a_corpus_without_ier_stores_no_items(seed: Corpus, judge: User) -> None:
    judgment = judgment_open(user=judge, target=target_of(seed, "a translator"))
    judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=9)
    judgment_finish(judgment=judgment, user=judge, version=judgment.version)
    assert (fresh(judgment).ier_items, fresh(judgment).ier_length) == ([], None)
    assert judging_context(judgment).ier is None


# --- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize("gap", [0, 11, -1, 40])
def test_a_gap_outside_the_candidates_words_is_refused(
    judgment: Judgment, judge: User, gap: int
) -> None:
    with pytest.raises(ChangeRefused) as refused:
        split(judgment, judge, gap)
    assert refused.value.message == ERR_IER_GAP.format(gap=gap, length=11)


def test_a_mark_on_no_items_start_or_an_unknown_mark_is_refused(
    judgment: Judgment, judge: User
) -> None:
    with pytest.raises(ChangeRefused) as refused:
        mark(judgment, judge, 3, "syntax")
    assert refused.value.message == ERR_IER_START.format(start=3)
    with pytest.raises(ChangeRefused) as refused:
        mark(judgment, judge, 0, "error")
    assert refused.value.message == ERR_IER_LABEL.format(label="error", choices=MARKS)
    assert fresh(judgment).version == judgment.version


def test_ier_clicks_are_refused_where_the_lead_has_not_enabled_it(
    seed: Corpus, judge: User
) -> None:
    judgment = judgment_open(user=judge, target=target_of(seed, "a translator"))
    with pytest.raises(ChangeRefused) as refused:
        split(judgment, judge, 1)
    assert refused.value.message == ERR_IER_OFF


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"gap": "11"}, ERR_IER_GAP.format(gap=11, length=11)),
        ({"gap": "x"}, "gap 'x' where a whole number belongs"),
        (
            {"mark": "0:wrong"},
            ERR_IER_LABEL.format(label="wrong", choices="ok, syntax, meaning, other"),
        ),
        ({"mark": "5:ok"}, ERR_IER_START.format(start=5)),
        ({"mark": "ok"}, "item start 'ok' where a whole number belongs"),
        # issue 36: Python's int reads other scripts' digits; the page's are 0–9
        ({"mark": "٠:syntax"}, "item start '٠' where a whole number belongs"),
        ({"gap": "٥"}, "gap '٥' where a whole number belongs"),
    ],
)
@pytest.mark.parametrize("htmx", [True, False])
def test_the_page_refuses_bad_ier_clicks_with_422_and_the_reason(
    judgment: Judgment, judge: User, client: Client, fields: dict, message: str, htmx: bool
) -> None:
    client.force_login(judge)
    response = client.post(
        change_url(judgment, "ier"),
        {"version": judgment.version, **fields},
        **(HTMX if htmx else {}),
    )
    assert response.status_code == 422
    assert escape(message) in response.content.decode()


@pytest.mark.parametrize("htmx", [True, False])
def test_the_page_saves_an_ier_click(
    judgment: Judgment, judge: User, client: Client, htmx: bool
) -> None:
    client.force_login(judge)
    response = client.post(
        change_url(judgment, "ier"),
        {"version": judgment.version, "mark": "7:meaning"},
        **(HTMX if htmx else {}),
    )
    assert response.status_code == (200 if htmx else 303)
    assert fresh(judgment).ier_errors == 1
    if htmx:
        assert 'data-ier-errors="1"' in response.content.decode()


def test_an_anonymous_click_goes_to_the_login_and_another_judges_is_not_found(
    judgment: Judgment, client: Client, user_factory
) -> None:
    url = change_url(judgment, "ier")
    response = client.post(url, {"version": judgment.version, "mark": "0:syntax"})
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    client.force_login(user_factory("other", role=User.Role.JUDGE))
    response = client.post(url, {"version": judgment.version, "mark": "0:syntax"}, **HTMX)
    assert response.status_code == 404
    assert fresh(judgment).ier_items == []
