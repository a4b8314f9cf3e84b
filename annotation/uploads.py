"""An upload's import as a job (:mod:`annotation.corpora.import_jobs` runs it), as the
pages that are not the upload's read it: its kind, and the failed imports a lead can
still retry, listed on the lead's home and on the campaign page the file was meant for.
"""

from __future__ import annotations

from annotation.jobs import Job, pending
from annotation.models import Campaign

#: The kind of an upload's import job.
IMPORT = "import"


def failed_imports(*, campaign: Campaign | None = None) -> list[Job]:
    """Failed imports that left no corpus (a refused file, a worker given up), newest
    last, while a Retry can still work (their file is kept: :mod:`~annotation.jobs.
    pruning`) and no later upload of the name was queued; with ``campaign``, only those
    meant for it. The lead's home lists them, a campaign page its own: one query."""
    jobs = Job.objects.filter(
        kind=IMPORT, status=Job.Status.FAILED, corpus__isnull=True, upload__isnull=False
    )
    if campaign is not None:
        jobs = jobs.filter(payload__campaign=campaign.pk)
    return list(pending(jobs))
