"""A server's start (``manage.py deploy``): the static files collected once per change,
into a directory of their own, and published by one rename of a link, so a server never
reads a collection half written (issue 36, point 5; two real ``make serve`` at once are
``evaltool/tests/test_serve.py``'s)."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from annotation.deployment import static_fingerprint, static_publish

#: The production storage (the test settings serve the checkout's files as they are).
MANIFEST = {
    **settings.STORAGES,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


@pytest.fixture
def extra(tmp_path: Path) -> Iterator[Path]:
    """The production storage collecting into ``tmp_path / "public"``, from the checkout's
    static files and a directory of the test's own (``extra/``, whose files it may change)."""
    own = tmp_path / "extra"
    (own / "extra").mkdir(parents=True)
    (own / "extra" / "a.css").write_text("body { color: black; }\n")
    with override_settings(
        STORAGES=MANIFEST,
        STATIC_ROOT=str(tmp_path / "public"),
        STATICFILES_DIRS=[*settings.STATICFILES_DIRS, own],
    ):
        yield own / "extra"


def collections(root: Path) -> list[str]:
    return sorted(p.name for p in root.parent.glob(f".{root.name}-*"))


def test_the_collection_is_published_once_and_again_only_when_a_source_changes(
    tmp_path: Path, extra: Path
) -> None:
    root = tmp_path / "public"

    first = static_publish()

    assert first is not None
    assert root.is_symlink()
    assert os.readlink(root) == first.name
    assert (root / "staticfiles.json").is_file()
    assert list((root / "extra").glob("a.*.css"))
    made = (root / "staticfiles.json").stat().st_mtime_ns
    assert static_publish() is None  # the same sources: nothing collected
    assert (root / "staticfiles.json").stat().st_mtime_ns == made

    (extra / "a.css").write_text("body { color: navy; }\n")
    second = static_publish()

    assert second is not None
    assert second != first
    assert os.readlink(root) == second.name
    assert collections(root) == [second.name]  # the old one deleted


def test_a_directory_collected_in_place_before_makes_way_for_the_link(
    tmp_path: Path, extra: Path
) -> None:
    root = tmp_path / "public"
    (root / "old").mkdir(parents=True)
    (root / "old" / "stale.css").write_text("")

    published = static_publish()

    assert published is not None
    assert os.readlink(root) == published.name
    assert not (root / "old").exists()
    assert collections(root) == [published.name]


def test_the_fingerprint_is_the_sources_and_the_storage(extra: Path) -> None:
    before = static_fingerprint()
    assert static_fingerprint() == before
    (extra / "b.js").write_text("")
    assert static_fingerprint() != before
    with override_settings(STATIC_URL="/assets/"):
        assert static_fingerprint() != before


@pytest.mark.django_db
def test_deploy_applies_the_migrations_and_says_where_the_files_are(
    tmp_path: Path, extra: Path
) -> None:
    out = io.StringIO()

    call_command("deploy", stdout=out)
    call_command("deploy", stdout=out)

    lines = out.getvalue().splitlines()
    assert "  No migrations to apply." in lines
    published = [line for line in lines if line.startswith("Static files:")]
    assert published[0].startswith(f"Static files: {tmp_path / 'public'} → .public-")
    assert published[1] == f"Static files: {tmp_path / 'public'} is up to date."
