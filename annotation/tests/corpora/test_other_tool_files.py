"""The files of other tools alone, no database: Appraise's CSV written and read back
equal, WMT's <v>…</v> marks, and a span's place once the text is whitespace-normalised."""

from __future__ import annotations

import pytest

from annotation.corpora.appraise_csv import (
    AppraiseRow,
    AppraiseSpan,
    appraise_csv,
    iso_639_3,
    read_appraise_rows,
    standing_rows,
)
from annotation.corpora.mqm_tsv import marked_span
from annotation.corpora.wmt_texts import normalised_offset


def appraise_row(**changed: object) -> AppraiseRow:
    values: dict[str, object] = {
        "user": "u1",
        "system": "sys, A",  # a comma: quoted
        "item_id": 3,
        "item_type": "TGT",
        "source_language": "eng",
        "target_language": "jpn",
        "score": 66,
        "document_id": "doc#1",
        "is_document": False,
        "spans": (AppraiseSpan(0, 4, "minor"), AppraiseSpan(9, 9, "major", "Other")),
        "start_time": 1718899200.5,
        "end_time": 1718899260.0,
        "line": 1,
    }
    values.update(changed)
    return AppraiseRow(**values)  # type: ignore[arg-type]


def test_a_written_csv_reads_back_the_same_rows() -> None:
    rows = [appraise_row(), appraise_row(user="u2", line=2, is_document=True, spans=())]
    text = appraise_csv(rows)

    assert (
        text.splitlines()[1] == 'u2,"sys, A",3,TGT,eng,jpn,66,doc#1,True,[],1718899200.5,1718899260'
    )
    assert read_appraise_rows(text.encode()) == rows


def test_of_two_ratings_of_an_item_the_later_end_time_stands() -> None:
    earlier_line = appraise_row(score=10, line=1, end_time=1718899300.0)
    later_line = appraise_row(score=20, line=2, end_time=1718899260.0)
    assert standing_rows([earlier_line, later_line]) == [earlier_line]


@pytest.mark.parametrize(
    "code, expected", [("en", "eng"), ("ja", "jpn"), ("JPN", "jpn"), ("zh", "zho")]
)
def test_a_pair_code_has_its_iso_639_3_code(code: str, expected: str) -> None:
    assert iso_639_3(code) == expected


@pytest.mark.parametrize(
    "target, expected",
    [
        ("Der Hund bellt <v>laut</v>.", ("Der Hund bellt laut.", 15, 19)),
        ("Bis dann.<v></v>", ("Bis dann.", 9, 9)),
        ("Gute Nacht.", ("Gute Nacht.", None, None)),
    ],
)
def test_a_wmt_mark_is_the_characters_it_encloses(
    target: str, expected: tuple[str, int | None, int | None]
) -> None:
    assert marked_span(target) == expected


@pytest.mark.parametrize("target", ["<v>a</v> <v>b</v>", "</v>a<v>", "<v>a"])
def test_marks_that_are_not_one_pair_are_refused(target: str) -> None:
    with pytest.raises(ValueError, match="not one <v>…</v>"):
        marked_span(target)


@pytest.mark.parametrize(
    "text, offset, expected",
    [
        ("Es ist  spät.", 8, 7),  # after the two blanks: one
        ("Es ist  spät.", 6, 6),  # before them
        ("  ab", 2, 0),  # leading blanks go
        ("ab  ", 4, 2),  # trailing ones too
        ("a b", 3, 3),
    ],
)
def test_an_offset_moves_with_the_blanks_normalising_removes(
    text: str, offset: int, expected: int
) -> None:
    assert normalised_offset(text, offset) == expected
