"""Large computations done apart from the server process, in forked children.

Scoring a whole corpus under a new preprocessing choice (1,000 sentences × 20 systems × 3
references: about 2 seconds, a hundred megabytes of arrays and millions of small strings)
has two costs for a server process besides its time: its memory peaks while it runs, and
what it frees stays fragmented in the process's heap, tens of megabytes a choice that the
operating system never gets back (``bench/pages.py``'s dashboard tour). So the server
forks: each child computes one share of the work from what the parent has already read
(the child inherits it, nothing is copied), writes the result to a pipe as bytes and
exits, and the parent, which meanwhile only waits, keeps just those bytes. On a machine
with several cores the shares run at once.

A child never touches the database, the parent's files or its sockets: it only computes
and writes its pipe, then ends with ``os._exit`` (no cleanup of the parent's objects, no
connection closed on the parent's behalf). A child that fails or takes longer than
:data:`CHILD_TIMEOUT` is killed and its share computed in the parent, so the page still
comes, only more slowly; where ``fork`` does not exist (or ``EVALTOOL_COMPUTE_APART`` is
off) everything is computed in the parent.
"""

from __future__ import annotations

import ctypes
import logging
import os
import selectors
import signal
import time
from collections.abc import Callable, Sequence
from functools import cache, wraps
from typing import Any, TypeVar

from django.conf import settings
from django.http import HttpResponseBase
from django.template.response import SimpleTemplateResponse

logger = logging.getLogger(__name__)

#: Seconds a child may take before it is killed and its share computed in the parent.
CHILD_TIMEOUT = 120.0


def computed_apart(shares: Sequence[Callable[[], bytes]]) -> list[bytes]:
    """``[share() for share in shares]``, each share computed in a forked child (all at
    once), or in this process where that is not possible (the module says when)."""
    if not shares:
        return []
    if not getattr(settings, "EVALTOOL_COMPUTE_APART", True) or not hasattr(os, "fork"):
        return [share() for share in shares]
    children = [_start(share) for share in shares]
    results = _collect(children)
    return [
        found if found is not None else share()
        for found, share in zip(results, shares, strict=True)
    ]


def _start(share: Callable[[], bytes]) -> tuple[int, int] | None:
    """Fork a child computing ``share``; (pid, read end of its pipe), None if the fork failed."""
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: compute, write, exit without any cleanup
        code = 1
        try:
            os.close(read_end)
            data = share()
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view) :]
            code = 0
        except BaseException:  # reported by the parent's fallback; never propagated
            logger.exception("a computation apart failed; the server computes it itself")
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def _collect(children: Sequence[tuple[int, int] | None]) -> list[bytes | None]:
    """Each child's bytes (None for a child that failed, timed out or never started),
    read from all pipes at once so that no child blocks on a full pipe."""
    chunks: dict[int, list[bytes]] = {c[1]: [] for c in children if c is not None}
    open_fds = set(chunks)
    deadline = time.monotonic() + CHILD_TIMEOUT
    with selectors.DefaultSelector() as waiting:  # epoll: any descriptor number
        for fd in open_fds:
            waiting.register(fd, selectors.EVENT_READ)
        while open_fds:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            for key, _ in waiting.select(left):
                fd = int(key.fd)
                data = os.read(fd, 1 << 20)
                if data:
                    chunks[fd].append(data)
                else:
                    open_fds.discard(fd)
                    waiting.unregister(fd)
    out: list[bytes | None] = []
    for child in children:
        if child is None:
            out.append(None)
            continue
        pid, fd = child
        if fd in open_fds:  # timed out
            os.kill(pid, signal.SIGKILL)
        os.close(fd)
        data = b"".join(chunks[fd])
        try:
            _, status = os.waitpid(pid, 0)
            exited_well = os.waitstatus_to_exitcode(status) == 0
        except ChildProcessError:  # reaped already (a server that ignores SIGCHLD)
            exited_well = bool(data)  # a share is never empty; a failed child writes nothing
        out.append(data if fd not in open_fds and exited_well else None)
    return out


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):  # not glibc
        return None
    return trim


def give_back_memory() -> None:
    """Return the memory a scoring freed to the operating system.

    Scoring a corpus allocates and frees a hundred megabytes of numpy arrays. glibc keeps
    freed heap memory for later (and, after a large block is freed, serves blocks of that
    size from the heap instead of the system), so without this a server process would
    stay at the size of its largest scoring for good. ``malloc_trim(0)`` gives the free
    memory back; where malloc is not glibc's, nothing happens.
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


View = TypeVar("View", bound=Callable[..., HttpResponseBase])


def giving_back_memory(view: View) -> View:
    """A view whose requests allocate and free tens of megabytes (the dashboard's: the
    stored statistics read back, the judgments, the bootstrap): once its answer is
    rendered, the context's values that hold computed parts let go of them (their
    ``release()``: a template context sits in a reference cycle, so without it they live
    until Python's cycle collector runs) and the freed memory goes back to the system
    (:func:`give_back_memory`, a few milliseconds). Each request then starts from the
    process's own size rather than from the last one's peak."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(*args, **kwargs)
        if isinstance(response, SimpleTemplateResponse) and not response.is_rendered:
            response.add_post_render_callback(_released)
        else:
            give_back_memory()
        return response

    return wrapped  # type: ignore[return-value]


def _released(response: SimpleTemplateResponse) -> None:
    for value in (response.context_data or {}).values():
        release = getattr(value, "release", None)
        if callable(release):
            release()
    give_back_memory()
