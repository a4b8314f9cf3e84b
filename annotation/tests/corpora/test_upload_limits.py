"""The work an upload may ask for (annotation/limits.py, issue 24 point 6): more systems
than a corpus may have, or more words than a text may have, are refused up front with
the line and the reason, on the page (4xx) and on the command line (an error), and leave
no hidden corpus behind. A lead raises the limits in the settings."""

from __future__ import annotations

import io
from html import escape
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse

from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import corpus_import
from annotation.corpora.systems import corpus_add_system
from annotation.corpora.text_imports import corpus_import_text
from annotation.jobs import Job
from annotation.limits import (
    ERR_DOCUMENT_TOO_LONG,
    ERR_TOO_MANY_SYSTEMS,
    ERR_TOO_MANY_WORDS,
    MAX_SYSTEMS,
    MAX_WORDS_PER_TEXT,
    WorkLimits,
)
from annotation.models import Corpus, Translator, User
from annotation.tests.factories import HTMX, SEED_XML

pytestmark = pytest.mark.django_db
UPLOAD = reverse("annotation:corpus_upload")
#: The probe's sentence: 100,000 words.
LONG_TEXT = " ".join(["word"] * 100_000)


def systems_file(systems: int) -> bytes:
    """One sentence, a first reference on line 3, then system ``k`` on line 4 + k."""
    evals = "".join(
        f'<eval translator="sys {k}"><target>candidate {k}</target></eval>\n'
        for k in range(systems)
    )
    return (
        "<evalTrans>\n<sentence><source>s</source>\n"
        '<eval translator="first reference"><target>r</target></eval>\n'
        f"{evals}</sentence>\n</evalTrans>\n"
    ).encode()


def long_sentence_file(text: str = LONG_TEXT) -> bytes:
    """A sentence whose candidate, on line 4, is ``text``."""
    return (
        "<evalTrans>\n<sentence><source>s</source>\n"
        '<eval translator="first reference"><target>r</target></eval>\n'
        f'<eval translator="sys"><target>{text}</target></eval>\n'
        "</sentence>\n</evalTrans>\n"
    ).encode()


TOO_MANY_SYSTEMS = ERR_TOO_MANY_SYSTEMS.format(
    name=f"sys {MAX_SYSTEMS}", count=MAX_SYSTEMS + 1, limit=MAX_SYSTEMS
)
TOO_MANY_WORDS = ERR_TOO_MANY_WORDS.format(what="<target>", words=100_000, limit=MAX_WORDS_PER_TEXT)


def refusal(content: bytes) -> str:
    with pytest.raises(ImportRefused) as refused:
        corpus_import(source=io.BytesIO(content), filename="probe.xml")
    return str(refused.value)


def nothing_left() -> bool:
    """No corpus, hidden or not, and no translator: the refusal stored nothing."""
    return not Corpus.all_objects.exists() and not Translator.objects.exists()


@pytest.mark.parametrize("systems", [MAX_SYSTEMS + 1, 100_000])
def test_a_file_with_more_systems_than_a_corpus_may_have_is_refused_at_the_first_too_many(
    systems: int,
) -> None:
    assert refusal(systems_file(systems)) == f"probe.xml line {4 + MAX_SYSTEMS}: {TOO_MANY_SYSTEMS}"
    assert nothing_left()


def test_references_do_not_count_as_systems() -> None:
    content = systems_file(MAX_SYSTEMS).replace(
        b"</sentence>", b'<eval translator="second reference"><target>r2</target></eval></sentence>'
    )
    assert corpus_import(source=io.BytesIO(content), filename="probe.xml").systems == MAX_SYSTEMS


def test_a_sentence_of_100000_words_is_refused_where_it_is() -> None:
    assert refusal(long_sentence_file()) == f"probe.xml line 4: {TOO_MANY_WORDS}"
    assert nothing_left()


@pytest.mark.parametrize(
    "source, judged, element",
    [
        (LONG_TEXT, "<target>t</target>", "source"),
        ("s", f"<target>t</target><newRef>{LONG_TEXT}</newRef>", "newRef"),
    ],
)
def test_sources_and_new_references_are_texts_too(source: str, judged: str, element: str) -> None:
    content = (
        f"<evalTrans><sentence><source>{source}</source>"
        "<eval translator='first reference'><target>r</target></eval>"
        f"<eval translator='sys' evaluator='JM'>{judged}</eval></sentence></evalTrans>"
    )
    reason = ERR_TOO_MANY_WORDS.format(what=f"<{element}>", words=100_000, limit=MAX_WORDS_PER_TEXT)
    assert refusal(content.encode()) == f"probe.xml line 1: {reason}"


def test_words_are_the_judges_words_punctuation_included() -> None:
    """13a splits "a,a,a" into five words: a text without spaces is no way around."""
    limits = WorkLimits(words_per_text=4)
    assert limits.words_problem("<target>", "a,a,a") == ERR_TOO_MANY_WORDS.format(
        what="<target>", words=5, limit=4
    )
    assert limits.words_problem("<target>", "a,a") is None


@pytest.mark.slow
@override_settings(EVALTOOL_MAX_SYSTEMS=MAX_SYSTEMS + 1, EVALTOOL_MAX_WORDS_PER_TEXT=100_000)
def test_a_lead_who_raises_the_limits_imports_what_they_allow() -> None:
    assert corpus_import(source=io.BytesIO(systems_file(MAX_SYSTEMS + 1)), name="a").systems == (
        MAX_SYSTEMS + 1
    )
    assert corpus_import(source=io.BytesIO(long_sentence_file()), name="b").systems == 1


def test_the_upload_page_refuses_with_the_reason_and_leaves_nothing(
    client: Client, lead: User
) -> None:
    client.force_login(lead)

    def upload(content: bytes, **extra: str):
        return client.post(UPLOAD, {"file": SimpleUploadedFile("probe.xml", content)}, **extra)

    plain = upload(long_sentence_file())
    htmx = upload(systems_file(100_000), **HTMX)

    assert plain.status_code == 400
    assert escape(TOO_MANY_WORDS) in plain.content.decode()
    assert htmx.status_code == 200  # htmx swaps only 2xx: the refusal is in the fragment
    assert escape(TOO_MANY_SYSTEMS) in htmx.content.decode()
    assert nothing_left()


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_the_upload_page_refuses_a_first_source_too_long_before_queueing_anything(
    client: Client, lead: User, htmx: bool
) -> None:
    """Issue 36, point 8f: the page checks the file's first sentence, its ``<source>``
    too (it read the targets and let a source of 100,000 words through to the job)."""
    client.force_login(lead)
    content = long_sentence_file("t").replace(
        b"<source>s</source>", f"<source>{LONG_TEXT}</source>".encode()
    )

    response = client.post(
        UPLOAD, {"file": SimpleUploadedFile("probe.xml", content)}, **(HTMX if htmx else {})
    )

    assert response.status_code == (200 if htmx else 400)
    reason = ERR_TOO_MANY_WORDS.format(what="<source>", words=100_000, limit=MAX_WORDS_PER_TEXT)
    assert escape(f"probe.xml line 2: {reason}") in response.content.decode()
    assert not Job.objects.exists()
    assert nothing_left()


def test_the_command_line_refuses_with_the_line_and_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "probe.xml"
    path.write_bytes(long_sentence_file())

    with pytest.raises(CommandError, match="probe.xml line 4: <target> has 100,000 words"):
        call_command("import_evaltrans", str(path))
    assert nothing_left()


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_plain_text_imports_have_the_same_limits(tmp_path: Path) -> None:
    source = write_lines(tmp_path / "src.txt", ["s one", "s two"])
    ref = write_lines(tmp_path / "ref.txt", ["r one", "r two"])
    long_hyp = write_lines(tmp_path / "long.txt", ["h one", LONG_TEXT])
    hyps = [(f"sys {k}", ref) for k in range(MAX_SYSTEMS + 1)]

    with pytest.raises(ImportRefused) as too_many:
        corpus_import_text(name="many", source=source, refs=[ref], hyps=hyps)
    with pytest.raises(ImportRefused) as too_long:
        corpus_import_text(name="long", source=source, refs=[ref], hyps=[("sys", long_hyp)])

    assert str(too_many.value) == f"{ref}: {TOO_MANY_SYSTEMS}"
    reason = ERR_TOO_MANY_WORDS.format(what="the line", words=100_000, limit=MAX_WORDS_PER_TEXT)
    assert str(too_long.value) == f"{long_hyp} line 2: {reason}"
    assert nothing_left()


def test_a_system_added_to_a_full_corpus_or_with_a_long_line_is_refused() -> None:
    seed = corpus_import(source=SEED_XML, name="seed").corpus
    lines = ["one"] * seed.n_sentences

    with (
        override_settings(EVALTOOL_MAX_SYSTEMS=seed.n_systems),
        pytest.raises(ImportRefused) as full,
    ):
        corpus_add_system(
            corpus=seed, name="new", lines=lines, filename="new.txt", unsegmented=False
        )
    with pytest.raises(ImportRefused) as long:
        corpus_add_system(
            corpus=seed,
            name="new",
            lines=[LONG_TEXT, *lines[1:]],
            filename="new.txt",
            unsegmented=False,
        )

    assert str(full.value) == "new.txt: " + ERR_TOO_MANY_SYSTEMS.format(
        name="new", count=seed.n_systems + 1, limit=seed.n_systems
    )
    reason = ERR_TOO_MANY_WORDS.format(what="the line", words=100_000, limit=MAX_WORDS_PER_TEXT)
    assert str(long.value) == f"new.txt line 1: {reason}"
    assert not seed.translators.filter(name="new").exists()


def test_a_document_to_cut_is_counted_whole_against_its_sentences() -> None:
    """Seed 002: a system's output as one document, often one long line. Its lines are
    not texts; the document may have as many words as the corpus's sentences together."""
    seed = corpus_import(source=SEED_XML, name="seed").corpus
    limit = 5 * seed.n_sentences
    fits = [" ".join(["word"] * limit)]  # one line, longer than a text may be
    too_long = [" ".join(["word"] * (limit + 1))]

    with override_settings(EVALTOOL_MAX_WORDS_PER_TEXT=5):
        with pytest.raises(ImportRefused) as refused:
            corpus_add_system(
                corpus=seed, name="long", lines=too_long, filename="doc.txt", unsegmented=True
            )
        added = corpus_add_system(
            corpus=seed, name="speech", lines=fits, filename="doc.txt", unsegmented=True
        )

    assert str(refused.value) == "doc.txt: " + ERR_DOCUMENT_TOO_LONG.format(
        words=limit + 1, sentences=seed.n_sentences, limit=limit, per_text=5
    )
    assert added.words == limit
