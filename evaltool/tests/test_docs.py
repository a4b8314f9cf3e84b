"""The documentation holds together: the README is a front door (what evaltool is, the two
commands, a screenshot, links to one guide per reader), every link between the docs lands
on a file and a heading, and every file of the project the docs name exists. Code moves
under the docs; these tests say where a page went stale (a guide citing a module that was
renamed, a link to a section that was retitled)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
GUIDES = ("judge", "lead", "operator", "researcher", "contributor")
#: A project path in backticks: `annotation/statistics/live.py`, `docs/img/judge-page.png`.
PROJECT_PATH = re.compile(
    r"`((?:annotation|metrics|evaltool|bench|templates|static|fixtures|docs)/[\w./+-]*)`"
)
#: What the benchmarks write as they run (bench/out/), never in a checkout.
WRITTEN_BY_RUNS = ("bench/out/",)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchor(heading: str) -> str:
    """A Markdown heading's anchor as GitHub makes it: lower case, punctuation dropped,
    spaces as hyphens (``## One server: `make serve``` → ``one-server-make-serve``)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {anchor(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", page.read_text(), re.MULTILINE)}


def test_the_readme_is_a_front_door_of_at_most_200_lines() -> None:
    text = README.read_text()
    assert len(text.splitlines()) <= 200
    quick_start = text.split("## Quick start", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in quick_start.splitlines()] == [
        "make run",
        "make test",
    ]
    assert "make serve" in text
    assert "](docs/img/judge-page.png)" in text
    for guide in GUIDES:
        assert f"](docs/{guide}.md)" in text


def test_the_docs_index_lists_every_page_of_docs() -> None:
    index = (ROOT / "docs" / "README.md").read_text()
    for page in DOCS:
        if page.name != "README.md":
            assert f"]({page.name})" in index, page.name


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_lands_on_a_file_and_its_heading(page: Path) -> None:
    for link in LINK.findall(page.read_text()):
        if link.startswith(("http://", "https://")):
            continue
        path, _, heading = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.exists(), f"{page.name}: {link} names no file"
        if heading and target.suffix == ".md":
            assert heading in anchors(target), f"{page.name}: {link} names no heading"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_project_file_the_docs_name_exists(page: Path) -> None:
    for path in PROJECT_PATH.findall(page.read_text()):
        if path.startswith(WRITTEN_BY_RUNS):
            continue
        assert (ROOT / path.rstrip(".")).exists(), f"{page.name} names {path}, which is gone"
