"""What an import command says about the new corpus's scoring, which a worker computes."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from annotation.jobs import Job, wait_for
from annotation.models import Corpus
from annotation.statistics import scoring_job


def report_scoring(command: BaseCommand, corpus: Corpus, *, wait: bool) -> None:
    """Say which job scores the new corpus, and wait for it with ``wait``."""
    job = scoring_job(corpus)
    if job.status == Job.Status.DONE:  # scored already (or where it was queued)
        command.stdout.write(f"Scored: its figures are stored (job {job.pk}).")
        return
    if not wait:
        command.stdout.write(
            f"Scoring queued as job {job.pk} (manage.py jobs --wait {job.pk} shows its progress)."
        )
        return
    ended = wait_for(job, out=command.stdout)
    if ended.status == Job.Status.FAILED:
        raise CommandError(f"scoring {corpus.name} failed: {ended.error}")
