"""The grown reference pool as references (annotation/statistics/pool_references.py) and
``manage.py export_references``: which new references join, each translation once, and
the files sacreBLEU reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotation.judging.start import judgment_open
from annotation.models import Corpus, User
from annotation.statistics.pool_references import (
    SentencePool,
    new_references,
    reference_slots,
    sentence_pools,
    write_reference_files,
)
from annotation.tests.factories import CATS, finish, import_xml, target_of

POOL_CASES = [
    # (the sentence's references, new references in order, the pool)
    (("a b.",), [], SentencePool(("a b.",), ())),
    (("a b.",), ["a c."], SentencePool(("a b.",), ("a c.",))),
    # the same 13a words as a reference, or as an earlier new reference: once
    (("a, b.",), ["a , b.", "a c.", "a c."], SentencePool(("a, b.",), ("a c.",))),
    # case counts (13a keeps it)
    (("a b.",), ["A b."], SentencePool(("a b.",), ("A b.",))),
    # a reference repeated within its sentence is read once; the first stays first
    (("x y", "x y", "z"), ["x  y"], SentencePool(("x y", "z"), ())),
    # a new reference without words is none
    ((), ["", "a"], SentencePool((), ("a",))),
]


@pytest.mark.parametrize("refs, new, expected", POOL_CASES)
def test_each_translation_joins_the_pool_once_after_the_references(
    refs: tuple[str, ...], new: list[str], expected: SentencePool
) -> None:
    assert sentence_pools([refs], {0: new}) == [expected]


def test_slots_repeat_a_sentences_first_reference_where_it_has_fewer() -> None:
    refs = [("a", "b", "c"), ("d",), ("e", "f"), ()]

    assert reference_slots(refs) == [["a", "d", "e", ""], ["b", "d", "f", ""], ["c", "d", "e", ""]]
    assert reference_slots([]) == [[]]


def test_the_files_are_ref0_ref1_one_line_per_sentence(tmp_path: Path) -> None:
    (tmp_path / "ref2.txt").write_text("an earlier export's third slot\n")
    paths = write_reference_files([("a b", "c\nd"), ("e",)], tmp_path)

    assert [p.name for p in paths] == ["ref0.txt", "ref1.txt"]
    assert paths[0].read_text() == "a b\ne\n"
    assert paths[1].read_text() == "c d\ne\n"
    assert not (tmp_path / "ref2.txt").exists()  # ref*.txt is one pool


# ------------------------------------------------------------------ from judgments


@pytest.fixture
def cats(judge: User) -> Corpus:
    """The cats corpus: "sys A" judged into "a cat sat on a mat.", "sys B" into the
    first reference's words (no new reference)."""
    corpus = import_xml(CATS.format(b="the cat sat on the mat"), "cats", judge)
    finish(
        judgment_open(user=judge, target=target_of(corpus, "sys A")),
        judge,
        "a cat sat on a mat.",
        9,
    )
    finish(
        judgment_open(user=judge, target=target_of(corpus, "sys B")),
        judge,
        "the cat sat on the mat.",
        10,
    )
    return corpus


@pytest.mark.django_db
def test_the_new_references_are_the_counted_judgments(cats: Corpus) -> None:
    """In the order they were made, repeats still in (the pool drops them)."""
    assert new_references(cats) == {0: ["a cat sat on a mat.", "the cat sat on the mat."]}


@pytest.mark.django_db
def test_export_references_writes_the_pool(
    cats: Corpus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("export_references", "cats", "--out", str(tmp_path / "pool"))
    call_command("export_references", "cats", "--out", str(tmp_path / "own"), "--original")

    assert (tmp_path / "pool" / "ref0.txt").read_text() == "the cat sat on the mat .\n"
    assert (tmp_path / "pool" / "ref1.txt").read_text() == "a cat sat on a mat.\n"
    assert sorted(p.name for p in (tmp_path / "own").iterdir()) == ["ref0.txt"]
    assert "1 sentence, 2 references each, 1 new" in capsys.readouterr().err


@pytest.mark.django_db
@pytest.mark.parametrize(
    "args, message",
    [
        (["nope", "--out", "{tmp}"], "no corpus named 'nope'"),
        (["cats", "--out", "{tmp}/file"], "is a file, not a directory"),
    ],
)
def test_export_references_refuses_naming_the_problem(
    cats: Corpus, tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(CommandError, match=message):
        call_command("export_references", *(a.format(tmp=tmp_path) for a in args))
