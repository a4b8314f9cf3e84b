"""The import job's promises beyond the page (test_upload_views.py): the job names the
hidden corpus it writes before writing it, so a retry after a killed worker (which runs
no cleanup) removes exactly what that attempt left, and an attempt that had finished the
import when its worker stopped is not imported twice."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from annotation.corpora.import_jobs import (
    IMPORT,
    WARN_SUMMARY_LOST,
    estimated_sentences,
    queue_import,
)
from annotation.corpora.imports import corpus_import
from annotation.jobs import Job, run_queued_jobs
from annotation.jobs.runner import MAX_ATTEMPTS, claim
from annotation.models import Corpus, Sentence, User
from annotation.tests.factories import DEMO_XML, JUDGED

pytestmark = pytest.mark.django_db
DEMO = DEMO_XML.read_bytes()


@pytest.fixture(autouse=True)
def jobs_wait_for_a_worker(settings: Any) -> None:
    """Each job waits for a worker (the jobs' own backend), as in production, where the
    test settings would compute it where it is queued: a test plays the killed worker."""
    settings.TASKS = settings.QUEUED_TASKS


def queued_demo(lead: User, data: bytes = DEMO) -> Job:
    return queue_import(
        data=data, filename="demo.xml", name="demo", reference_names=(), assign=False, lead=lead
    )


def killed_mid_job(job: Job, left: Corpus) -> None:
    """What a worker killed while importing ``job`` leaves: its claim, run out, and the
    corpus the job named, still hidden."""
    assert claim(job.pk, "worker killed mid-import") is not None
    Job.objects.filter(pk=job.pk).update(
        corpus=left, lease_until=timezone.now() - timedelta(seconds=1)
    )


def test_the_job_names_its_hidden_corpus_as_it_takes_the_name(lead: User) -> None:
    """In the same transaction, before a sentence is written: a worker killed between
    taking the name and recording the corpus would leave a hidden corpus no job names."""
    job = queued_demo(lead)

    with CaptureQueriesContext(connection) as queries:
        run_queued_jobs()

    statements = [q["sql"] for q in queries.captured_queries]
    named = next(k for k, sql in enumerate(statements) if 'INSERT INTO "annotation_corpus"' in sql)
    recorded = next(k for k, sql in enumerate(statements) if 'SET "corpus_id"' in sql)
    first_sentence = next(k for k, sql in enumerate(statements) if "annotation_sentence" in sql)
    assert named < recorded < first_sentence
    # (the test runs in a transaction of its own: the import's are savepoints in it)
    assert open_savepoints(statements[:named]) & open_savepoints(statements[:recorded])
    job.refresh_from_db()
    assert job.corpus == Corpus.objects.get(name="demo")


def open_savepoints(statements: list[str]) -> set[str]:
    """The savepoints still open after ``statements``."""
    opened: set[str] = set()
    for sql in statements:
        if sql.startswith("SAVEPOINT "):
            opened.add(sql.split()[-1])
        elif sql.startswith(("RELEASE SAVEPOINT ", "ROLLBACK TO SAVEPOINT ")):
            opened.discard(sql.split()[-1])
    return opened


def test_a_retry_after_a_killed_worker_removes_what_that_attempt_left(lead: User) -> None:
    job = queued_demo(lead)
    half_written = corpus_import(source=io.BytesIO(DEMO), name="demo").corpus
    Corpus.all_objects.filter(pk=half_written.pk).update(ready=False)
    killed_mid_job(job, half_written)

    assert run_queued_jobs(kinds=[IMPORT]) == 1  # the killed attempt's job, taken over
    run_queued_jobs()  # and the scoring it queued

    job.refresh_from_db()
    imported = Corpus.objects.get(name="demo")
    assert (job.status, job.attempts, job.result["sentences"]) == ("done", 2, 40)
    assert imported.pk != half_written.pk
    assert not Corpus.all_objects.filter(pk=half_written.pk).exists()
    assert Sentence.objects.count() == 40  # none of the killed attempt's
    assert list(imported.leads.all()) == [lead]


def test_a_retry_removes_the_evaluator_accounts_of_the_killed_attempt(lead: User) -> None:
    earlier = corpus_import(source=io.BytesIO(JUDGED), name="earlier").corpus
    kept = {u.pk: u.username for u in User.objects.filter(is_active=False)}
    job = queued_demo(lead, JUDGED.replace(b'evaluator="JM"', b'evaluator="KM"'))
    half_written = corpus_import(
        source=io.BytesIO(JUDGED.replace(b'evaluator="JM"', b'evaluator="ZZ"')), name="demo"
    ).corpus
    Corpus.all_objects.filter(pk=half_written.pk).update(ready=False)
    killed_mid_job(job, half_written)

    run_queued_jobs()

    inactive = {u.pk: u.username for u in User.objects.filter(is_active=False)}
    assert "ZZ" not in inactive.values()  # the killed attempt's own account
    assert {"KM", "AB"} <= set(inactive.values())  # the retry's
    assert kept.items() <= inactive.items()  # an earlier import's, judging in its corpus
    assert Corpus.objects.filter(pk=earlier.pk).exists()


def test_an_import_given_up_after_its_workers_were_killed_leaves_nothing(lead: User) -> None:
    job = queued_demo(lead, JUDGED)
    half_written = corpus_import(source=io.BytesIO(JUDGED), name="demo").corpus
    Corpus.all_objects.filter(pk=half_written.pk).update(ready=False)
    made = set(User.objects.filter(is_active=False).values_list("username", flat=True))
    Job.objects.filter(pk=job.pk).update(attempts=MAX_ATTEMPTS - 1)
    killed_mid_job(job, half_written)

    assert run_queued_jobs(kinds=[IMPORT]) == 0  # given up, not taken over

    job.refresh_from_db()
    assert job.status == "failed"
    assert "stopped 3 times" in job.error
    assert {"JM", "AB"} <= made
    assert not User.objects.filter(username__in=made).exists()
    assert not Corpus.all_objects.exists()  # the name is free for the lead's retry
    assert User.objects.filter(pk=lead.pk).exists()


def test_an_attempt_that_had_finished_the_import_is_not_imported_again(lead: User) -> None:
    job = queued_demo(lead)
    finished = corpus_import(source=io.BytesIO(DEMO), name="demo").corpus
    killed_mid_job(job, finished)  # after the corpus was complete, before the job was

    run_queued_jobs()

    job.refresh_from_db()
    assert job.status == "done"
    assert job.result["lines"] == [
        "Imported corpus 'demo': 40 sentences, 5 systems.",
        WARN_SUMMARY_LOST,
    ]
    assert list(Corpus.all_objects.all()) == [finished]
    assert list(finished.leads.all()) == [lead]


def test_a_failed_import_leaves_no_corpus_for_its_job_to_name(lead: User) -> None:
    broken = DEMO.replace(b"</evalTrans>", b"<sentence><eval/></sentence></evalTrans>")
    job = queued_demo(lead, broken)

    run_queued_jobs()

    job.refresh_from_db()
    assert (job.status, job.corpus) == ("failed", None)
    assert not Corpus.all_objects.exists()


@pytest.mark.parametrize(
    "data, sentences",
    [
        (DEMO, 40),
        (JUDGED, 1),
        (b"<evalTrans><sentence/><sentence\n id='2'><source>s</source></sentence>", 2),
        (b"<evalTrans><sentences/></evalTrans>", 0),
    ],
)
def test_the_progress_total_is_the_files_sentence_tags(data: bytes, sentences: int) -> None:
    assert estimated_sentences(data) == sentences


def test_the_home_page_links_a_running_imports_hidden_corpus_to_its_job(
    lead: User, client: Any
) -> None:
    job = queued_demo(lead)
    assert claim(job.pk, "a worker") is not None
    writing = corpus_import(source=io.BytesIO(DEMO), name="demo").corpus
    Corpus.all_objects.filter(pk=writing.pk).update(ready=False)
    Job.objects.filter(pk=job.pk).update(corpus=writing)
    client.force_login(lead)

    home = client.get("/").content.decode()

    assert f'href="/corpora/imports/{job.pk}/" data-import-job="{job.pk}"' in home
    assert 'data-status="running"' in home
