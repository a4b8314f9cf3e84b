"""Templates: a Django ``{# … #}`` comment ends on its own line. One that spans lines is
not a comment at all: Django prints it on the page (it did, on every page, above the
header)."""

from __future__ import annotations

import re
from pathlib import Path

from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
OPEN_COMMENT = re.compile(r"\{#(?!.*#\})")


def test_no_template_comment_spans_lines() -> None:
    unclosed = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OPEN_COMMENT.search(line)
    ]
    assert unclosed == []


def test_the_home_page_shows_no_template_syntax(lead_client: Client) -> None:
    page = lead_client.get("/").content.decode()
    assert "{#" not in page
    assert "#}" not in page
    assert "{%" not in page
