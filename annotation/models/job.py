"""The queue's record of one piece of long work: what it computes, who computes it, how
far it is, and how it ended.

This row is the job's one record: the queue's entry, and its task's result for the Tasks
API (:class:`annotation.jobs.backend.JobBackend`, which keeps no row of its own). It is
what makes a job safe to hand to any worker on any machine: a worker *claims* it with
one conditional UPDATE (:func:`annotation.jobs.runner.claim`), holds it under a lease a
heartbeat of the worker renews while it computes, and stores the result in the
transaction that marks it done, only while the lease is still its own. A worker killed
mid-job leaves a lease that runs out; the next worker that looks for work then claims
the job again (``attempts`` counts the claims).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    #: Statuses of a job not yet ended: at most one such job per key.
    LIVE = (Status.QUEUED, Status.RUNNING)

    kind = models.CharField(max_length=40, help_text="the handler that computes it")
    key = models.CharField(max_length=300, help_text="what it computes; one live job per key")
    label = models.CharField(max_length=300, help_text="what the lead reads")
    corpus = models.ForeignKey(
        "annotation.Corpus",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,  # a job that deletes its corpus outlives it
        related_name="jobs",
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    payload = models.JSONField(default=dict, blank=True)
    #: A file handed to the worker (an upload), removed once the job is done, and from a
    #: failed one some days later (annotation.jobs.pruning).
    upload = models.BinaryField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    phase = models.CharField(max_length=200, blank=True, help_text="e.g. 'scoring'")
    done = models.PositiveBigIntegerField(default=0)
    total = models.PositiveBigIntegerField(default=0)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="times it was claimed")
    worker = models.CharField(max_length=100, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: The release of the code that queued it (:func:`annotation.release.source_version`;
    #: empty for a job queued before releases were recorded): a worker of an earlier
    #: release leaves it to one of this release (:mod:`annotation.jobs.releases`).
    release = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["key"],
                condition=Q(status__in=["queued", "running"]),
                name="job_one_live_per_key",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "lease_until"], name="job_status_lease"),
            models.Index(fields=["corpus", "status"], name="job_corpus_status"),
        ]

    def __str__(self) -> str:
        return f"job {self.pk}: {self.label} ({self.status})"

    @property
    def live(self) -> bool:
        return self.status in self.LIVE

    @property
    def percent(self) -> int:
        """How far it is, 0–100 (0 before it reports a total)."""
        if self.status == self.Status.DONE:
            return 100
        if not self.total:
            return 0
        return min(99, int(100 * self.done / self.total))

    @property
    def abandoned(self) -> bool:
        """Running under a lease that has run out: its worker stopped (killed, out of
        memory), and the job waits for the next worker that looks for work."""
        return (
            self.status == self.Status.RUNNING
            and self.lease_until is not None
            and self.lease_until < timezone.now()
        )

    @property
    def progress_text(self) -> str:
        """'scoring 3 of 15', 'queued', 'done', 'failed: …': the same words on the page
        and the command line."""
        if self.status == self.Status.QUEUED:
            return "queued"
        if self.status == self.Status.DONE:
            return "done"
        if self.status == self.Status.FAILED:
            return f"failed: {self.error}"
        if self.abandoned:
            return "queued again (its worker stopped)"
        phase = self.phase or "working"
        if self.total:
            return f"{phase} {self.done:,} of {self.total:,} ({self.percent} %)"
        return f"{phase}…"

    def as_json(self) -> dict[str, object]:
        """The job as ``manage.py jobs --json`` and the pages' JSON answers give it (leads
        script against these keys)."""
        return {
            "id": self.pk,
            "kind": self.kind,
            "label": self.label,
            "corpus": self.corpus_id,
            "status": self.status,
            "phase": self.phase,
            "done": self.done,
            "total": self.total,
            "percent": self.percent,
            "progress": self.progress_text,
            "attempts": self.attempts,
            "worker": self.worker,
            "error": self.error,
            "created_at": self.created_at.isoformat() if self.created_at else None,
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }


class Release(models.Model):
    """A release of the code (:func:`annotation.release.source_version`) and when a
    process of it first queued or looked for a job: the order of two releases, for a
    worker to tell a job of a later one (:mod:`annotation.jobs.releases`). A digest
    alone says that two releases differ, not which is the newer."""

    digest = models.CharField(max_length=16, unique=True)
    first_seen = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"release {self.digest} (first seen {self.first_seen:%Y-%m-%d %H:%M})"
