"""What a lead hands over to annotators, as CSV: the accounts a list made (with their
one-time passwords) and the links just made. Each CSV is part of the page that answers
the request that made them (a ``data:`` link to download), never stored nor served
again, so the secrets in it are as once-only as the page.

Cells a spreadsheet could take for a formula are written as text
(:func:`~annotation.formatting.spreadsheet_safe`): the lead opens these files in
one to mail-merge them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from annotation.campaigns.judges import OneTimeLogin
from annotation.campaigns.links import NewLink
from annotation.formatting import spreadsheet_safe

ACCOUNTS_HEADER = ["username", "email", "one_time_password", "login_url"]
LINKS_HEADER = ["username", "email", "link", "expires_utc"]


def _csv(rows: Sequence[Sequence[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue()


def accounts_csv(logins: Sequence[OneTimeLogin], login_url: str) -> str:
    """One row per account made: its username, email, one-time password and where to log in."""
    rows = [
        [spreadsheet_safe(x.user.username), spreadsheet_safe(x.user.email), x.password, login_url]
        for x in logins
    ]
    return _csv([ACCOUNTS_HEADER, *rows])


def links_csv(links: Sequence[NewLink], base_url: str) -> str:
    """One row per link made: its annotator, their email, the link (``base_url`` + its
    path) and when it stops opening (UTC, ISO 8601)."""
    rows = [
        [
            spreadsheet_safe(new.link.user.username),
            spreadsheet_safe(new.link.user.email),
            base_url + new.path,
            new.link.expires_at.isoformat(timespec="seconds"),
        ]
        for new in links
    ]
    return _csv([LINKS_HEADER, *rows])
