"""Where the app's log goes: standard error, the stream of the moment.

gunicorn's error log is its standard error in ``make serve`` (``--error-logfile -``), a
worker's is the terminal or the service manager's journal. Django alone sends the
traceback of a 500 to the site's admins by mail when ``DEBUG`` is off, and nowhere
else: a 500 left an access-log line and no trace (issue 36). The settings' ``LOGGING``
sends it, and every warning and error, here.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A ``StreamHandler`` that writes to ``sys.stderr`` as it is when a record comes,
    not as it was when logging was configured: a test runner or a server may replace the
    stream afterwards (as :data:`logging.lastResort` does)."""

    def __init__(self, level: int = logging.NOTSET) -> None:
        logging.Handler.__init__(self, level)

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        """``StreamHandler.setStream`` has nothing to set: the stream is always stderr's."""
