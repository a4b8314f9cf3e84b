"""A list of annotator accounts (:mod:`annotation.campaigns.roster`): every refusal names
its line and reason and creates nothing; an accepted list creates every account at once,
each with a one-time password hashed quickly (no minute-long wait for 200 accounts)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.hashers import check_password
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.accounts import ONE_TIME_PBKDF2_ITERATIONS
from annotation.campaigns.roster import (
    ERR_COLUMNS,
    ERR_CSV,
    ERR_EMAIL,
    ERR_EMPTY,
    ERR_NO_USERNAME,
    ERR_TAKEN,
    ERR_TOO_MANY,
    ERR_TWICE,
    ERR_USERNAME_FORM,
    ERR_USERNAME_LENGTH,
    PROBLEMS_SHOWN,
    ROSTER_MAX_ACCOUNTS,
    ROSTER_MAX_BYTES,
    RosterEntry,
    RosterRefused,
    judges_create_from_roster,
    roster_read,
)
from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, User
from annotation.tests.factories import SEED_XML

pytestmark = pytest.mark.django_db


def refusal(data: bytes | str) -> list[str]:
    with pytest.raises(RosterRefused) as refused:
        roster_read(data)
    return [str(p) for p in refused.value.problems]


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", f"line 1: {ERR_EMPTY}"),
        ("\n  \n\n", f"line 1: {ERR_EMPTY}"),
        ("username,email\n", f"line 1: {ERR_EMPTY}"),
        ("ana\nhas space\n", "line 2: " + ERR_USERNAME_FORM.format(username="has space")),
        ("ana\nbø\nx/y", "line 3: " + ERR_USERNAME_FORM.format(username="x/y")),
        ("ana\n" + "x" * 151, "line 2: " + ERR_USERNAME_LENGTH.format(length=151)),
        ("ana\nbo\nANA\n", "line 3: " + ERR_TWICE.format(username="ANA", first=1)),
        (
            "ana,ana@example.org\nbo,not-an-email\n",
            "line 2: " + ERR_EMAIL.format(email="not-an-email"),
        ),
        ("ana\n,bo@example.org\n", f"line 2: {ERR_NO_USERNAME}"),
        (
            "ana,a@example.org,extra\n",
            "line 1: " + ERR_COLUMNS.format(count=3, separator="a comma"),
        ),
        ('ana\n"bo,bo@example.org\n', "line 2: " + ERR_CSV.format(error="unexpected end of data")),
        ("ana\tbo@example.org\tx\n", "line 1: " + ERR_COLUMNS.format(count=3, separator="a tab")),
        ("ana\nb\x00o\n", "line 2: " + ERR_USERNAME_FORM.format(username="b\x00o")),
    ],
)
def test_a_bad_list_is_refused_with_its_line_and_reason_and_creates_nothing(
    text: str, problem: str
) -> None:
    assert refusal(text) == [problem]
    with pytest.raises(RosterRefused):
        judges_create_from_roster(entries=roster_read(text), corpora=())
    assert not User.objects.exists()


def test_every_problem_of_a_list_is_named_in_line_order() -> None:
    text = "ana\nbad name\nana\nbo,nope\n"

    assert refusal(text) == [
        "line 2: " + ERR_USERNAME_FORM.format(username="bad name"),
        "line 3: " + ERR_TWICE.format(username="ana", first=1),
        "line 4: " + ERR_EMAIL.format(email="nope"),
    ]


def test_an_existing_account_in_any_case_is_refused_with_its_line(
    user_factory: Callable[..., User],
) -> None:
    user_factory("Ana")

    assert refusal("bo\nana\n") == ["line 2: " + ERR_TAKEN.format(username="ana")]
    assert User.objects.count() == 1


def test_a_file_not_in_utf8_is_refused_at_the_line_of_its_first_bad_byte() -> None:
    latin1 = "ana\nbo\njosé\n".encode("latin-1")
    utf16 = "ana\n".encode("utf-16")

    assert refusal(latin1) == [
        "line 3: invalid UTF-8 (byte 0xe9 at offset 10): save the list as UTF-8"
    ]
    assert refusal(utf16)[0].startswith("line 1: invalid UTF-8 (byte 0xff at offset 0)")


def test_a_list_too_long_or_too_big_is_refused() -> None:
    names = "\n".join(f"judge{k}" for k in range(ROSTER_MAX_ACCOUNTS + 1))
    big = "x\n" * (ROSTER_MAX_BYTES // 2 + 1)

    assert refusal(names) == [f"line {ROSTER_MAX_ACCOUNTS + 1}: {ERR_TOO_MANY}"]
    assert refusal(big)[0].startswith(f"line 1: the list is {len(big):,} bytes")


def test_a_refusal_shows_the_first_problems_and_counts_the_rest() -> None:
    text = "\n".join("bad name" for _ in range(PROBLEMS_SHOWN + 3))

    with pytest.raises(RosterRefused) as refused:
        roster_read(text)

    shown = refused.value.shown()
    assert len(shown) == PROBLEMS_SHOWN + 1
    assert shown[-1] == "and 3 more problems"


@pytest.mark.parametrize(
    "text, lines",
    [
        ("username,email\nana,ana@example.org\nbo\n", (2, 3)),
        ("\ufeffUsername;Email\r\nana;ana@example.org\r\n\r\nbo;\r\n", (2, 4)),
        ("ana\tana@example.org\nbo\n", (1, 2)),
        ('"ana","ana@example.org"\n  bo  \n', (1, 2)),
    ],
)
def test_a_header_blank_lines_bom_quotes_and_any_of_three_separators_are_read(
    text: str, lines: tuple[int, int]
) -> None:
    assert roster_read(text.encode()) == [
        RosterEntry(lines[0], "ana", "ana@example.org"),
        RosterEntry(lines[1], "bo", ""),
    ]


def test_an_accepted_list_makes_active_judges_with_one_time_passwords_and_corpora() -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus

    made = judges_create_from_roster(
        entries=roster_read("ana,ana@example.org\nbo\n"), corpora=[corpus]
    )

    assert [m.user.username for m in made] == ["ana", "bo"]
    for login in made:
        user = User.objects.get(username=login.user.username)
        assert user.check_password(login.password)
        assert user.is_active
        assert user.must_change_password
        assert user.role == User.Role.JUDGE
        assert list(user.assigned_corpora.all()) == [corpus]
    assert User.objects.get(username="ana").email == "ana@example.org"
    assert len({m.password for m in made}) == 2


def test_a_one_time_password_is_hashed_with_few_iterations_under_djangos_hasher(
    settings: Any,
) -> None:
    """Django's PBKDF2 takes a quarter of a second a password: 200 accounts took a
    minute. A one-time password (79 random bits) is hashed with fewer iterations, and
    Django hashes it again with its own at the first login."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]

    (login,) = judges_create_from_roster(entries=roster_read("ana"))

    stored = User.objects.get(username="ana").password
    assert stored.startswith(f"pbkdf2_sha256${ONE_TIME_PBKDF2_ITERATIONS}$")
    assert check_password(login.password, stored)


def test_a_list_is_created_in_a_few_batches_never_a_query_per_account() -> None:
    corpus = corpus_import(source=SEED_XML, name="seed").corpus
    entries = roster_read("\n".join(f"judge{k}" for k in range(300)))

    with CaptureQueriesContext(connection) as captured:
        judges_create_from_roster(entries=entries, corpora=[corpus])

    assert len(captured) <= 12
    assert Corpus.objects.get(pk=corpus.pk).judges.count() == 300


def test_a_name_taken_meanwhile_creates_none_of_the_list(
    user_factory: Callable[..., User],
) -> None:
    entries = roster_read("ana\nbo\n")
    user_factory("BO")  # another lead, between the check and the creation

    with pytest.raises(RosterRefused) as refused:
        judges_create_from_roster(entries=entries)

    assert [str(p) for p in refused.value.problems] == [
        "line 2: " + ERR_TAKEN.format(username="bo")
    ]
    assert list(User.objects.values_list("username", flat=True)) == ["BO"]


def test_manage_add_judges_prints_the_accounts_as_csv_once(tmp_path: Path) -> None:
    corpus_import(source=SEED_XML, name="seed")
    out, err = io.StringIO(), io.StringIO()
    listed = tmp_path / "judges.csv"
    listed.write_text("username,email\nana,ana@example.org\nbo\n", encoding="utf-8")

    call_command(
        "add_judges",
        str(listed),
        "--corpus",
        "seed",
        "--login-url",
        "https://x/",
        stdout=out,
        stderr=err,
    )

    lines = out.getvalue().splitlines()
    assert lines[0] == "username,email,one_time_password,login_url"
    ana = lines[1].split(",")
    assert ana[:2] == ["ana", "ana@example.org"]
    assert ana[3] == "https://x/"
    assert User.objects.get(username="ana").check_password(ana[2])
    assert [c.name for c in User.objects.get(username="bo").assigned_corpora.all()] == ["seed"]
    assert "Created 2 judge accounts." in err.getvalue()


def test_manage_add_judges_refuses_a_bad_list_whole(tmp_path: Path) -> None:
    listed = tmp_path / "judges.csv"
    listed.write_text("ana\nbad name\n", encoding="utf-8")

    with pytest.raises(CommandError) as refused:
        call_command("add_judges", str(listed))

    assert "nothing created" in str(refused.value)
    assert "line 2: " + ERR_USERNAME_FORM.format(username="bad name") in str(refused.value)
    assert not User.objects.exists()
