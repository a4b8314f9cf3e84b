"""The Tasks API's backend for jobs (``TASKS`` in production): the queue is the jobs' own
table, so a job has one record.

:func:`annotation.jobs.enqueue` writes the job's row, queued, and enqueues its task
(:func:`annotation.jobs.runner.run_job`) in the same transaction. This backend keeps no
row of its own for it: the job's row is the queue's entry, which the workers
(``manage.py worker``) take (:func:`annotation.jobs.runner.claim_next`), and the task's
result is that row read through the Tasks API (:meth:`JobBackend.get_result`: its status,
attempts, worker and result). Nothing then keeps a task's status in step with its job's,
and what a task backend of its own lacks (a lease that shows a worker was killed, a job
taken over after it, progress, a database restart ridden out) is the row's already.
"""

from __future__ import annotations

from typing import Any

from django_tasks.backends.base import BaseTaskBackend
from django_tasks.base import Task, TaskError, TaskResult, TaskResultStatus
from django_tasks.exceptions import InvalidTaskError, TaskResultDoesNotExist

from annotation.models import Job

#: The one task this backend runs: every kind of job is computed by it.
RUN_JOB = "annotation.jobs.runner.run_job"

#: A job's status as the Tasks API names it.
STATUS = {
    Job.Status.QUEUED: TaskResultStatus.READY,
    Job.Status.RUNNING: TaskResultStatus.RUNNING,
    Job.Status.DONE: TaskResultStatus.SUCCESSFUL,
    Job.Status.FAILED: TaskResultStatus.FAILED,
}


class JobFailed(Exception):
    """How the Tasks API names a failed job's error (its reason is the job's ``error``)."""


FAILED = f"{__name__}.{JobFailed.__name__}"


class JobBackend(BaseTaskBackend):
    """Tasks whose queue and results are the jobs' rows (see the module's docstring)."""

    supports_get_result = True

    def validate_task(self, task: Task[Any, Any]) -> None:
        super().validate_task(task)
        if task.module_path != RUN_JOB:
            raise InvalidTaskError(
                f"{task.module_path}: work is queued as a job (annotation.jobs.enqueue)"
            )

    def enqueue(self, task: Task[Any, Any], args: Any, kwargs: Any) -> TaskResult[Any]:
        """The task of job ``args[0]``, whose row the caller has just written queued: the
        row is the queue's entry, so there is nothing left to write."""
        self.validate_task(task)
        (job_id,) = args
        return self._result(task, Job(pk=job_id, status=Job.Status.QUEUED))

    def get_result(self, result_id: str) -> TaskResult[Any]:
        """The task of job ``result_id`` as its row says it is now."""
        from annotation.jobs.runner import run_job

        try:
            job = Job.objects.defer("upload").get(pk=int(result_id))
        except (ValueError, Job.DoesNotExist):
            raise TaskResultDoesNotExist(result_id) from None
        return self._result(run_job, job)

    def _result(self, task: Task[Any, Any], job: Job) -> TaskResult[Any]:
        """``job``'s row as the Tasks API's result of its task."""
        failed = job.status == Job.Status.FAILED
        result: TaskResult[Any] = TaskResult(
            task=task,
            id=str(job.pk),
            status=STATUS[Job.Status(job.status)],
            enqueued_at=job.created_at,
            started_at=job.started_at,
            last_attempted_at=job.started_at,
            finished_at=job.finished_at,
            args=[job.pk],
            kwargs={},
            backend=self.alias,
            errors=[TaskError(exception_class_path=FAILED, traceback=job.error)] if failed else [],
            worker_ids=[job.worker] if job.worker else [],  # its last (the row keeps no other)
        )
        object.__setattr__(result, "_return_value", job.result)
        return result
