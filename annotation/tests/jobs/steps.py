"""Jobs whose steps take as long as a test says: for the tests of what happens to a job
meanwhile (a step longer than the lease, a database restarted mid-job). The real worker
runs them like any job (the same command, runner and database); only the handler is the
test's: it sleeps ``seconds`` in ``steps`` steps, reporting progress between them.

Run as ``python -m annotation.tests.jobs.steps ARGS``: ``manage.py ARGS`` with these jobs
known (``worker``, ``shell``, …), or ``enqueue SECONDS STEPS [COUNT]``, which queues one
(or ``COUNT``) and prints their numbers.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from annotation.jobs import Job, Progress

STEP = "test-step"
#: What a worker logs each time it starts computing a step job (the tests count them).
STARTS = "step job {job}: starts"

logger = logging.getLogger("annotation.tests.jobs.steps")
started: Counter[int] = Counter()


def long_steps(job: Job, progress: Progress) -> Any:
    from annotation.jobs.runner import worker_id

    seconds, steps = float(job.payload["seconds"]), int(job.payload["steps"])
    started[job.pk] += 1
    logger.warning(STARTS.format(job=job.pk))
    progress(0, steps, "stepping")
    for k in range(steps):
        time.sleep(seconds / steps)
        progress(k + 1, steps, "stepping")
    starts = started[job.pk]
    return lambda: {"worker": worker_id(), "starts_here": starts}


def register() -> None:
    from annotation.jobs import handler

    handler(STEP)(long_steps)


def enqueue_step(seconds: float, steps: int) -> int:
    from annotation.jobs import enqueue

    key = f"{STEP}:{time.time_ns()}"
    payload = {"seconds": seconds, "steps": steps}
    return enqueue(STEP, key, label=f"{steps} step(s) in {seconds} s", payload=payload).pk


if __name__ == "__main__":
    import django
    from django.core.management import execute_from_command_line

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    django.setup()
    register()
    if sys.argv[1:2] == ["enqueue"]:
        count = int(sys.argv[4]) if len(sys.argv) > 4 else 1
        for _ in range(count):
            print(enqueue_step(float(sys.argv[2]), int(sys.argv[3])))
    else:
        execute_from_command_line(sys.argv)
