"""Jobs whose steps take as long as a test says: for the tests of what happens to a job
meanwhile (a step longer than the lease, a database restarted mid-job). The real worker
runs them like any job (the same command, runner and database); only the handler is the
test's: it sleeps ``seconds`` in ``steps`` steps, reporting progress between them. A job
queued with ``held`` (a file's path) does not take its last step before that file
exists, reporting progress meanwhile: it lasts as long as the test needs it running,
however slow a loaded machine makes the test, and ends when the test says.

Run as ``python -m annotation.tests.jobs.steps ARGS``: ``manage.py ARGS`` with these jobs
known (``worker``, ``shell``, …), or ``enqueue SECONDS STEPS [COUNT] [--held PATH]``,
which queues one (or ``COUNT``) and prints their numbers.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections import Counter
from pathlib import Path
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
    held = job.payload.get("held")
    started[job.pk] += 1
    logger.warning(STARTS.format(job=job.pk))
    progress(0, steps, "stepping")
    for k in range(steps):
        while k == steps - 1 and held and not Path(held).exists():
            time.sleep(seconds / steps)
            progress(k, steps, "held")  # each report meets the database (or its outage)
        time.sleep(seconds / steps)
        progress(k + 1, steps, "stepping")
    starts = started[job.pk]
    return lambda: {"worker": worker_id(), "starts_here": starts}


def register() -> None:
    from annotation.jobs import handler

    handler(STEP)(long_steps)


def enqueue_step(seconds: float, steps: int, held: str | None = None) -> int:
    from annotation.jobs import enqueue

    key = f"{STEP}:{time.time_ns()}"
    payload: dict[str, Any] = {"seconds": seconds, "steps": steps}
    if held:
        payload["held"] = held
    return enqueue(STEP, key, label=f"{steps} step(s) in {seconds} s", payload=payload).pk


def enqueue_arguments() -> argparse.ArgumentParser:
    """``enqueue``'s arguments: ``SECONDS STEPS [COUNT] [--held PATH]``."""
    parser = argparse.ArgumentParser(prog="enqueue")
    parser.add_argument("seconds", type=float)
    parser.add_argument("steps", type=int)
    parser.add_argument("count", type=int, nargs="?", default=1)
    parser.add_argument("--held", help="a file without which the last step is not taken")
    return parser


if __name__ == "__main__":
    import django
    from django.core.management import execute_from_command_line

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    django.setup()
    register()
    if sys.argv[1:2] == ["enqueue"]:
        asked = enqueue_arguments().parse_args(sys.argv[2:])
        for _ in range(asked.count):
            print(enqueue_step(asked.seconds, asked.steps, asked.held))
    else:
        execute_from_command_line(sys.argv)
