"""Jobs across an upgrade: a worker never computes a job queued by a later release.

During an upgrade, app servers and workers of two releases run side by side for a while
(``docs/operator.md``: migrate once, then restart them one by one). A job a server of the
new release queues may mean something the old code does not know (a new payload, a
figure computed by new rules, stored statistics of a new metrics version): a worker still
running the old code would compute it wrongly, or store figures that the new servers then
read as their own. So a job records the release that queued it (:attr:`Job.release`), the
releases are ordered by when a process of each was first seen (:class:`Release`: a
digest says that two releases differ, not which is the newer), and a worker leaves a job
of a later release than its own queued for a worker that runs it, saying so in its log
once per job. A job of an earlier release (or of none: queued before releases were
recorded) is computed: a handler keeps reading what earlier releases queued.
"""

from __future__ import annotations

import functools
import logging
from datetime import datetime

from django.db.models import Q, QuerySet

from annotation.models import Job, Release
from annotation.release import source_version

logger = logging.getLogger(__name__)

#: The jobs this process has said it leaves to a later release (said once each), by
#: primary key and creation time (a primary key alone may be used again).
_said: set[tuple[int, datetime]] = set()


def this_release() -> Release:
    """This process's release, recorded when it first queues or looks for a job."""
    return Release.objects.get_or_create(digest=source_version())[0]


@functools.cache
def recorded_release() -> str:
    """This process's release, recorded once in the process's life (its first job
    queued): a job's row names it, and a page that queues a job pays no query for it
    after the first. (A worker's look for work reads the release's row each time,
    :func:`later_releases`.)"""
    return this_release().digest


def later_releases() -> QuerySet[Release]:
    """The releases first seen after this process's own: their jobs are not its to do."""
    return Release.objects.filter(first_seen__gt=this_release().first_seen)


def of_a_later_release() -> Q:
    """The jobs queued by a later release than this process's."""
    return Q(release__in=later_releases().values("digest"))


def say_jobs_left_to_later_releases(jobs: QuerySet[Job]) -> None:
    """Log, once per job, each of ``jobs`` left queued for a worker of a later release:
    what an operator who forgot to restart this worker reads in its log."""
    left = jobs.filter(of_a_later_release())
    for pk, created, label, release in left.values_list("pk", "created_at", "label", "release"):
        if (pk, created) not in _said:
            _said.add((pk, created))
            logger.warning(
                "job %s (%s) was queued by a later release of evaltool (%s) than this "
                "worker's (%s): left to a worker of that release (restart this one with "
                "the new code)",
                pk,
                label,
                release,
                source_version(),
            )
