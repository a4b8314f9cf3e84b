"""A list of annotator accounts to create at once (issue 37): pasted on the judges page,
uploaded there as a file, or given to ``manage.py add_judges``.

**The list.** One account a line: its username, and optionally, after a comma, the
annotator's email (the lead's to send the link or password to; nothing is sent)::

    username,email
    ana,ana@example.org
    bo
    "carla","carla@example.org"

* UTF-8 (a byte-order mark is skipped); a file in another encoding is refused at the
  line of its first byte UTF-8 cannot read.
* Columns are separated by a comma, a semicolon or a tab: the first of tab, semicolon
  and comma found in the list, as spreadsheets write them (no username or email holds
  any of the three). CSV quoting is understood.
* A first line ``username`` (any case, with ``email`` after it or not) is a header and
  skipped; blank lines are skipped.
* A username as Django's: at most 150 letters, digits and ``@ . + - _``, and no
  account's name already in any case, nor another line's in the list.
* At most :data:`ROSTER_MAX_ACCOUNTS` accounts, :data:`ROSTER_MAX_BYTES` bytes.

A list with any problem is refused whole, every problem named with its line (up to
:data:`PROBLEMS_SHOWN` of them), and no account is created: the lead mends the list and
sends it again, never half of it. Every account created is an active judge with a
one-time password (:func:`~annotation.accounts.users_create_with_one_time_passwords`),
shown once, in the answer to the request that made it.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import EmailValidator
from django.db import IntegrityError, transaction

from annotation.accounts import users_create_with_one_time_passwords
from annotation.campaigns.judges import OneTimeLogin, usernames_taken
from annotation.limits import EVALUATOR_MAX_LENGTH
from annotation.models import Corpus, User
from metrics.textfiles import SegmentFileError, decode_segments

#: Accounts one list may create: a campaign's crowd at once, and a page that still
#: shows every password it made.
ROSTER_MAX_ACCOUNTS = 1_000
#: A list's size: a thousand lines of a long username and a long email fit.
ROSTER_MAX_BYTES = 500_000
#: The width of Django's email column.
EMAIL_MAX_LENGTH = 254
#: Problems a refusal names, the rest counted.
PROBLEMS_SHOWN = 20
#: The separators a list's columns may have, in the order they are looked for.
SEPARATORS = ("\t", ";", ",")

ERR_EMPTY = "the list is empty: write one username a line"
ERR_TOO_BIG = (
    "the list is {size:,} bytes; at most {limit:,} fit: split it (a list creates at most "
    f"{ROSTER_MAX_ACCOUNTS:,} accounts)"
)
ERR_TOO_MANY = f"more than {ROSTER_MAX_ACCOUNTS:,} accounts in one list: split it"
ERR_CSV = "not a CSV line: {error}"
ERR_COLUMNS = (
    "{count} columns: a line holds a username, and optionally an email after a comma "
    "(separated by {separator})"
)
ERR_NO_USERNAME = "no username before the email"
ERR_USERNAME_LENGTH = (
    f"the username is {{length:,}} characters long; at most {EVALUATOR_MAX_LENGTH} fit"
)
ERR_USERNAME_FORM = "{username!r} is not a username: letters, digits and @ . + - _ only"
ERR_EMAIL = "{email!r} is not an email address"
ERR_TWICE = "{username!r} is in the list twice (line {first} too)"
ERR_TAKEN = "an account named {username!r} exists already"
ERR_ENCODING = "{reason}: save the list as UTF-8"
SEPARATOR_NAMES = {"\t": "a tab", ";": "a semicolon", ",": "a comma"}


@dataclass(frozen=True)
class RosterEntry:
    """One account of the list: its line (from 1), username and email ("" if none)."""

    line: int
    username: str
    email: str = ""


@dataclass(frozen=True)
class RosterProblem:
    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


class RosterRefused(ValueError):
    """The list cannot be created: ``problems``, each with its line, in line order."""

    def __init__(self, problems: Iterable[RosterProblem]) -> None:
        self.problems = sorted(problems, key=lambda p: p.line)
        super().__init__("; ".join(str(p) for p in self.problems))

    def shown(self) -> list[str]:
        """The problems a page lists: the first :data:`PROBLEMS_SHOWN`, then a count."""
        lines = [str(p) for p in self.problems[:PROBLEMS_SHOWN]]
        more = len(self.problems) - PROBLEMS_SHOWN
        if more > 0:
            lines.append(f"and {more:,} more problem{'s' if more > 1 else ''}")
        return lines


def roster_read(data: bytes | str) -> list[RosterEntry]:
    """The accounts of a list (a file's bytes, or pasted text), every one checked: a
    :class:`RosterRefused` naming each problem's line and reason otherwise, the names
    taken by existing accounts among them (one query per 500 names)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > ROSTER_MAX_BYTES:
        reason = ERR_TOO_BIG.format(size=len(raw), limit=ROSTER_MAX_BYTES)
        raise RosterRefused([RosterProblem(1, reason)])
    try:
        lines = decode_segments(raw, "the list")
    except SegmentFileError as bad:
        reason = ERR_ENCODING.format(reason=bad.reason)
        raise RosterRefused([RosterProblem(bad.line or 1, reason)]) from None
    entries, problems = roster_parse(lines)
    taken = usernames_taken([e.username for e in entries])
    problems += [
        RosterProblem(e.line, ERR_TAKEN.format(username=e.username))
        for e in entries
        if e.username in taken
    ]
    if problems:
        raise RosterRefused(problems)
    return entries


def roster_parse(lines: Sequence[str]) -> tuple[list[RosterEntry], list[RosterProblem]]:
    """The accounts of the list's ``lines`` and the problems found (the module's rules
    but the existing accounts, which only the database knows)."""
    separator = next((s for s in SEPARATORS if any(s in line for line in lines)), ",")
    entries: list[RosterEntry] = []
    problems: list[RosterProblem] = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        fields, problem = _fields(line, separator)
        if problem is None and not entries and not problems and _is_header(fields):
            continue
        if problem is None:
            problem = _account_problem(fields)
        if problem is None:
            folded = fields[0].casefold()
            if folded in first_line:
                problem = ERR_TWICE.format(username=fields[0], first=first_line[folded])
            else:
                first_line[folded] = number
        if problem is not None:
            problems.append(RosterProblem(number, problem))
        elif len(entries) == ROSTER_MAX_ACCOUNTS:
            problems.append(RosterProblem(number, ERR_TOO_MANY))
            break
        else:
            entries.append(RosterEntry(number, fields[0], fields[1] if len(fields) > 1 else ""))
    if not entries and not problems:
        problems.append(RosterProblem(1, ERR_EMPTY))
    return entries, problems


def _fields(line: str, separator: str) -> tuple[list[str], str | None]:
    """The line's columns, stripped, or why it is not a CSV line. Quoted fields run to
    the end of the line at most: a list is read line by line, so that every problem is
    named by the line the lead sees it on."""
    try:
        row = next(csv.reader([line], delimiter=separator, strict=True))
    except csv.Error as error:
        return [], ERR_CSV.format(error=error)
    fields = [field.strip() for field in row]
    while len(fields) > 1 and not fields[-1]:  # "ana," or "ana,," : no email
        fields.pop()
    if len(fields) > 2:
        return [], ERR_COLUMNS.format(count=len(fields), separator=SEPARATOR_NAMES[separator])
    return fields, None


def _is_header(fields: list[str]) -> bool:
    names = [f.casefold() for f in fields]
    return names in (["username"], ["username", "email"])


_USERNAME = UnicodeUsernameValidator()
_EMAIL = EmailValidator()


def _account_problem(fields: list[str]) -> str | None:
    """Why the line's username or email cannot be an account's, or None."""
    username = fields[0]
    email = fields[1] if len(fields) > 1 else ""
    if not username:
        return ERR_NO_USERNAME
    if len(username) > EVALUATOR_MAX_LENGTH:
        return ERR_USERNAME_LENGTH.format(length=len(username))
    try:
        _USERNAME(username)
    except ValidationError:
        return ERR_USERNAME_FORM.format(username=username)
    if email:
        try:
            if len(email) > EMAIL_MAX_LENGTH:
                raise ValidationError("too long")
            _EMAIL(email)
        except ValidationError:
            return ERR_EMAIL.format(email=email[:80])
    return None


def judges_create_from_roster(
    *, entries: Sequence[RosterEntry], corpora: Iterable[Corpus] = ()
) -> list[OneTimeLogin]:
    """An active judge account for each of ``entries`` (:func:`roster_read`'s), each with
    a one-time password and ``corpora`` assigned, in one transaction: all of them, or
    none when a name was taken meanwhile (a :class:`RosterRefused` naming its line)."""
    try:
        with transaction.atomic():
            taken = usernames_taken([e.username for e in entries])
            if taken:
                raise RosterRefused(
                    RosterProblem(e.line, ERR_TAKEN.format(username=e.username))
                    for e in entries
                    if e.username in taken
                )
            made = users_create_with_one_time_passwords(
                accounts=[(e.username, e.email) for e in entries],
                role=User.Role.JUDGE,
                corpora=corpora,
            )
    except IntegrityError:  # an account of one of the names was created meanwhile
        raise RosterRefused(
            [RosterProblem(entries[0].line, "an account of the list was created meanwhile")]
        ) from None
    return [OneTimeLogin(user=user, password=password, created=True) for user, password in made]
