"""gunicorn's logger for ``make serve`` (``--logger-class``): gunicorn's own, with every
per-annotator link's token cut to its hint in the access log and the error log
(:class:`evaltool.logs.LinkTokenFilter`).

The access log's request line (``%(r)s``), path (``%(U)s``) and Referer (``%(f)s``) all
carry the path ``/a/<token>/`` of a link, and a token is a password in a URL: whoever
reads the logs could open the annotator's queue. gunicorn loads this class in its master
process, before Django: it and what it imports stay free of Django.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger as GunicornLogger

from evaltool.logs import LinkTokenFilter


class LinkRedactingLogger(GunicornLogger):
    """gunicorn's ``Logger``, its two loggers filtered by :class:`LinkTokenFilter` (set
    again at each ``setup``: a configuration reload runs it anew)."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            if not any(isinstance(f, LinkTokenFilter) for f in log.filters):
                log.addFilter(LinkTokenFilter())
