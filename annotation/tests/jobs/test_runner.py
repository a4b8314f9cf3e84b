"""The queue's promises, in one process: asking twice gets one job, a job is computed
once and its result stored with its end, a failure is kept with its reason until
retried, a worker whose claim was taken over stores nothing, the jobs of stopped workers
are taken over by the next worker that looks, and the Tasks API reads a job's row as its
task's result. (Real worker processes: ``test_workers.py``.)"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from django_tasks import task
from django_tasks.exceptions import InvalidTaskError

from annotation.jobs import (
    Job,
    JobLost,
    Progress,
    Refused,
    claim_next,
    enqueue,
    handler,
    live_jobs,
    retry,
    run_claimed,
    run_queued_jobs,
)
from annotation.jobs.runner import MAX_ATTEMPTS, claim, run_job, work, worker_id
from annotation.models import Corpus, Release
from annotation.release import source_version

pytestmark = pytest.mark.django_db

#: What the test jobs computed, in order (the handlers below append to it).
computed: list[str] = []


@handler("test-count")
def count_words(job: Job, progress: Progress) -> Any:
    words = job.payload["text"].split()
    for k, _ in enumerate(words, 1):
        progress(k, len(words), "counting")
    computed.append(job.key)
    return lambda: {"words": len(words)}


@handler("test-fail")
def fail(job: Job, progress: Progress) -> Any:
    raise ValueError(f"cannot read {job.payload['what']}")


@handler("test-refuse")
def refuse(job: Job, progress: Progress) -> Any:
    raise Refused(f"{job.payload['file']} line 3: no translator")


@handler("test-store-fails")
def store_fails(job: Job, progress: Progress) -> Any:
    def store() -> None:
        Corpus.objects.create(name="half-stored")
        raise RuntimeError("disk full")

    return store


def not_a_job() -> None:
    """A task function of its own, not a job's."""


@pytest.fixture(autouse=True)
def nothing_computed_yet(settings: Any) -> None:
    """Jobs wait for a worker (the jobs' own backend), and none ran before."""
    settings.TASKS = settings.QUEUED_TASKS
    computed.clear()


def counting(text: str, key: str = "count:1") -> Job:
    return enqueue("test-count", key, label="counting words", payload={"text": text})


def test_asking_twice_for_the_same_work_gets_the_same_job() -> None:
    first = counting("a b c")
    assert counting("a b c").pk == first.pk
    assert counting("a b c", key="count:2").pk != first.pk
    assert Job.objects.count() == 2


def test_the_tasks_api_reads_a_jobs_row_as_its_tasks_result() -> None:
    job = counting("a b c")
    result = run_job.get_result(str(job.pk))
    assert (result.status, result.args, result.attempts) == ("READY", [job.pk], 0)
    run_queued_jobs()
    result.refresh()
    assert (result.status, result.return_value, result.worker_ids) == (
        "SUCCESSFUL",
        {"words": 3},
        [worker_id()],
    )
    failed = enqueue("test-fail", "fail:1", label="reading", payload={"what": "line 3"})
    run_queued_jobs()
    (error,) = run_job.get_result(str(failed.pk)).errors
    assert error.traceback == "ValueError: cannot read line 3"


def test_only_jobs_go_through_the_jobs_backend() -> None:
    with pytest.raises(InvalidTaskError, match="queued as a job"):
        task()(not_a_job)


def test_a_queued_job_is_computed_once_and_its_result_stored_with_its_end() -> None:
    job = counting("one two three four")
    assert run_queued_jobs() == 1
    job.refresh_from_db()
    assert (job.status, job.result, job.attempts) == ("done", {"words": 4}, 1)
    assert (job.done, job.total, job.phase, job.percent) == (4, 4, "counting", 100)
    assert run_queued_jobs() == 0
    assert run_claimed(job.pk, "another worker") is False
    assert computed == ["count:1"]


def test_the_same_work_asked_after_the_job_ended_is_a_new_job() -> None:
    first = counting("a")
    run_queued_jobs()
    assert counting("a").pk != first.pk


def test_a_failed_job_keeps_its_reason_until_the_lead_retries_it() -> None:
    job = enqueue("test-fail", "fail:1", label="reading", payload={"what": "line 3"})
    run_queued_jobs()
    job.refresh_from_db()
    assert job.status == "failed"
    assert job.error == "ValueError: cannot read line 3"
    assert job.progress_text == "failed: ValueError: cannot read line 3"
    asked_again = enqueue("test-fail", "fail:1", label="reading", payload={"what": "line 3"})
    assert (asked_again.pk, asked_again.status) == (job.pk, "failed")
    forced = enqueue("test-fail", "fail:1", label="reading", after_failure=True)
    assert (forced.pk != job.pk, forced.status) == (True, "queued")
    forced.delete()
    again = retry(job)
    assert (again.pk, again.status, again.error) == (job.pk, "queued", "")
    assert run_job.get_result(str(job.pk)).status == "READY"


def test_a_corpus_shows_the_latest_job_of_each_key_until_it_is_done() -> None:
    corpus = Corpus.objects.create(name="pending")

    def failing(key: str) -> Job:
        job = enqueue(
            "test-fail",
            key,
            label="reading",
            corpus=corpus,
            payload={"what": "x"},
            after_failure=True,
        )
        run_queued_jobs()
        job.refresh_from_db()
        return job

    first = failing("fail:a")
    other = failing("fail:b")
    assert live_jobs(corpus) == [first, other]  # each failure visible with its reason
    second = failing("fail:a")  # the same work asked for again after its failure
    assert second.pk != first.pk
    assert live_jobs(corpus) == [other, second]  # the older failure of fail:a is gone
    queued = enqueue(
        "test-count",
        "fail:b",
        label="again",
        corpus=corpus,
        payload={"text": "a"},
        after_failure=True,
    )
    assert live_jobs(corpus) == [second, queued]  # the queued one stands for its key
    run_queued_jobs()
    assert live_jobs(corpus) == [second]  # a key whose latest job is done shows nothing


def test_a_refused_job_keeps_the_refusals_own_words_as_its_reason() -> None:
    job = enqueue("test-refuse", "refuse:1", label="reading", payload={"file": "a.xml"})
    run_queued_jobs()
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "a.xml line 3: no translator")
    assert job.progress_text == "failed: a.xml line 3: no translator"


def test_a_result_that_cannot_be_stored_is_not_stored_in_part() -> None:
    job = enqueue("test-store-fails", "store:1", label="storing")
    run_queued_jobs()
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "RuntimeError: disk full")
    assert not Corpus.all_objects.filter(name="half-stored").exists()


def test_a_running_job_is_not_claimed_by_a_second_worker_while_its_lease_holds() -> None:
    job = counting("a b")
    assert claim(job.pk, "worker A") is not None
    assert claim(job.pk, "worker B") is None
    assert Job.objects.get(pk=job.pk).worker == "worker A"


def test_a_worker_whose_lease_was_taken_over_stores_nothing() -> None:
    job = counting("a b c")
    held_by_a = claim(job.pk, "worker A")
    assert held_by_a is not None
    Job.objects.filter(pk=job.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    held_by_b = claim(job.pk, "worker B")
    assert held_by_b is not None
    assert held_by_b.attempts == 2
    with pytest.raises(JobLost):
        Progress(held_by_a)(1, 3, "counting")
    Progress(held_by_b)(1, 3, "counting")  # B's reports still count
    assert Job.objects.get(pk=job.pk).worker == "worker B"


def test_the_job_of_a_stopped_worker_is_taken_over_by_the_next_worker_that_looks() -> None:
    job = counting("a b c")
    claim(job.pk, "worker killed mid-job")
    assert claim_next("another worker") is None  # its lease holds: the worker may live
    Job.objects.filter(pk=job.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    job.refresh_from_db()
    assert job.progress_text == "queued again (its worker stopped)"

    taken = claim_next("another worker")
    assert taken is not None
    assert (taken.pk, taken.status, taken.worker, taken.attempts) == (
        job.pk,
        "running",
        "another worker",
        2,
    )
    Job.objects.filter(pk=job.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    assert run_queued_jobs() == 1  # and so on, by whoever looks next
    job.refresh_from_db()
    assert (job.status, job.attempts, job.result) == ("done", 3, {"words": 3})


def test_the_next_job_is_the_oldest_there_is_to_take_of_the_kinds_asked_for() -> None:
    first, second = counting("a", key="count:1"), counting("b", key="count:2")
    failing = enqueue("test-fail", "fail:1", label="reading", payload={"what": "x"})
    claim(first.pk, "worker A")
    assert claim_next("worker B", ["test-fail"]) == failing
    assert claim_next("worker B") == second
    assert claim_next("worker B") is None


@pytest.mark.django_db(transaction=True)  # a worker's loop recycles its connection
def test_a_worker_asked_to_stop_takes_no_job_and_in_a_batch_stops_when_none_is_left() -> None:
    job = counting("a b")
    work(interval=0, stopping=lambda: True)
    assert Job.objects.get(pk=job.pk).status == "queued"
    work(interval=0, batch=True, stopping=lambda: False)
    assert Job.objects.get(pk=job.pk).status == "done"


def test_a_job_whose_workers_keep_dying_fails_with_the_reason() -> None:
    job = counting("a")
    Job.objects.filter(pk=job.pk).update(
        status="running", attempts=MAX_ATTEMPTS, lease_until=timezone.now() - timedelta(1)
    )
    assert claim(job.pk, "yet another worker") is None
    assert claim_next("yet another worker") is None
    job.refresh_from_db()
    assert job.status == "failed"
    assert job.error == f"its worker stopped {MAX_ATTEMPTS} times (killed, or out of memory)"


def test_progress_reads_the_same_on_the_page_and_the_command_line() -> None:
    job = Job(label="x", status="running", phase="scoring", done=3, total=15)
    assert (job.progress_text, job.percent) == ("scoring 3 of 15 (20 %)", 20)
    assert Job(label="x", status="queued").progress_text == "queued"


def test_a_job_records_the_release_that_queued_it_and_a_worker_that_looks_its_own() -> None:
    job = counting("a")
    assert job.release == source_version()
    claim_next("worker A")
    assert list(Release.objects.values_list("digest", flat=True)) == [source_version()]


def test_a_worker_leaves_a_job_queued_by_a_later_release_and_says_so_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A worker not yet restarted in an upgrade, and a job a new server queued."""
    ours = counting("a", key="count:1")
    later = Release.objects.create(
        digest="0123456789abcdef", first_seen=timezone.now() + timedelta(hours=1)
    )
    theirs = counting("a b", key="count:2")
    Job.objects.filter(pk=theirs.pk).update(release=later.digest)
    with caplog.at_level(logging.WARNING, logger="annotation.jobs.releases"):
        assert run_queued_jobs() == 1
        assert run_queued_jobs() == 0
    assert Job.objects.get(pk=ours.pk).status == "done"
    assert Job.objects.get(pk=theirs.pk).status == "queued"
    said = [r.getMessage() for r in caplog.records if "later release" in r.getMessage()]
    assert len(said) == 1
    assert f"job {theirs.pk} (counting words)" in said[0]
    assert "0123456789abcdef" in said[0]


def test_a_job_of_an_earlier_release_or_of_none_recorded_is_computed() -> None:
    earlier = Release.objects.create(
        digest="fedcba9876543210", first_seen=timezone.now() - timedelta(days=30)
    )
    of_earlier, of_none = counting("a", key="count:1"), counting("a b", key="count:2")
    Job.objects.filter(pk=of_earlier.pk).update(release=earlier.digest)
    Job.objects.filter(pk=of_none.pk).update(release="")
    assert run_queued_jobs() == 2
    assert set(Job.objects.values_list("status", flat=True)) == {"done"}
