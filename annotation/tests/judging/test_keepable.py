"""The judge's page refuses what could not be kept (production issue): a character XML
cannot hold, a new reference far longer than the sentence; and nothing any click stores
can make the export fail."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from lxml import etree

from annotation.corpora.exports import corpus_export
from annotation.judging.changes import (
    judgment_edit_ref,
    judgment_edit_word,
    judgment_finish,
    judgment_redo,
    judgment_set_sser,
    judgment_undo,
    judgment_use_ref,
)
from annotation.judging.errors import ChangeRefused
from annotation.models import Corpus, Judgment, User
from annotation.tests.factories import FIGURE_1_FIRST_REF, HTMX, change_url, click, fresh
from metrics.align import Op

pytestmark = pytest.mark.django_db

#: NUL (PostgreSQL cannot store it), a C0 control, the two non-characters, a lone surrogate.
UNKEEPABLE = ["\x00", "\x07", "\ufffe", "\uffff", "\ud800"]


@pytest.mark.parametrize("bad", UNKEEPABLE)
def test_a_new_reference_with_a_character_xml_cannot_hold_is_refused(
    figure_1: Judgment, judge: User, bad: str
) -> None:
    before = (figure_1.new_ref, figure_1.version)

    with pytest.raises(ChangeRefused, match=r"character U\+[0-9A-F]{4} cannot be written in XML"):
        judgment_edit_ref(judgment=figure_1, user=judge, version=figure_1.version, text=f"a{bad}b")
    with pytest.raises(ChangeRefused, match="cannot be written in XML"):
        judgment_edit_word(
            judgment=figure_1,
            user=judge,
            version=figure_1.version,
            pos=0,
            action="replace",
            text=f"x{bad}",
        )
    stored = fresh(figure_1)
    assert (stored.new_ref, stored.version) == before


def test_a_nul_byte_posted_by_the_page_is_a_422_with_its_reason(
    judge_client: Client, figure_1: Judgment
) -> None:
    response = judge_client.post(
        change_url(figure_1, "new-ref"),
        {"text": "a\x00b", "version": figure_1.version},
        **HTMX,
    )

    assert response.status_code == 422
    assert "character U+0000 cannot be written in XML" in response.content.decode()


def test_a_new_reference_far_longer_than_the_sentence_is_refused(
    figure_1: Judgment, judge: User
) -> None:
    huge = "word " * 250_000  # about 1.25 MB pasted

    with pytest.raises(ChangeRefused, match=r"at most 1,000 fit"):
        judgment_use_ref(judgment=figure_1, user=judge, version=figure_1.version, text=huge)
    assert fresh(figure_1).version == figure_1.version


def test_a_long_correction_within_the_bound_is_kept(figure_1: Judgment, judge: User) -> None:
    text = " ".join([FIGURE_1_FIRST_REF] * 15)  # 900 characters: under the 1,000 floor

    judgment_edit_ref(judgment=figure_1, user=judge, version=figure_1.version, text=text)

    assert len(fresh(figure_1).new_ref) > 800


def test_the_export_works_after_every_kind_of_write(
    seed: Corpus, figure_1: Judgment, judge: User
) -> None:
    j = figure_1
    click(j, judge, Op.MISSING, "This")
    judgment_edit_word(
        judgment=j, user=judge, version=j.version, pos=0, action="replace", text="Diagramme"
    )
    for bad in UNKEEPABLE:
        with pytest.raises(ChangeRefused):
            judgment_edit_ref(judgment=j, user=judge, version=j.version, text=f"x{bad}")
    judgment_edit_ref(judgment=j, user=judge, version=j.version, text="« Diagramme » — 図 ok")
    judgment_use_ref(judgment=j, user=judge, version=j.version, text=FIGURE_1_FIRST_REF)
    judgment_undo(judgment=j, user=judge, version=j.version)
    judgment_redo(judgment=j, user=judge, version=j.version)
    judgment_set_sser(judgment=j, user=judge, version=j.version, sser=6)
    judgment_finish(judgment=j, user=judge, version=j.version)
    out = io.BytesIO()

    corpus_export(corpus=seed, out=out)

    tree = etree.fromstring(out.getvalue())
    judged = tree.find(".//eval[@evaluator='judge']")
    assert judged is not None
    assert judged.get("sser") == "6"
    assert judged.findtext("newRef") == fresh(j).new_ref
