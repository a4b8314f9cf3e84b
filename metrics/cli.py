"""What every ``python -m metrics`` command shares: its name, and one-line refusals.

Bad input never gives a traceback: argparse's errors and ours are one line on stderr,
``<command>: error: <what>``, and the exit status is :data:`EXIT_BAD_INPUT`. Nor does a
reader that stops reading (``| head -1``): the command ends quietly with
:data:`EXIT_BROKEN_PIPE` (:func:`quiet_when_the_reader_leaves`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

EXIT_BAD_INPUT = 2
#: The status of a command whose standard output's reader went away: a shell's for a
#: process ended by SIGPIPE (128 + 13), which is how sacreBLEU's command line ends then.
EXIT_BROKEN_PIPE = 141
#: The installed command (``pip install .``; pyproject's ``[project.scripts]``).
CONSOLE_SCRIPT = "evaltool-metrics"


class OneLineParser(argparse.ArgumentParser):
    """argparse, but an error is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def refused(prog: str, exc: Exception) -> int:
    """A refusal of bad input: ``<prog>: error: <what>`` on stderr, and the exit status
    :data:`EXIT_BAD_INPUT`."""
    print(f"{prog}: error: {exc}", file=sys.stderr)
    return EXIT_BAD_INPUT


def program_name() -> str:
    """The command's name in usage and error lines: the installed script's when run as
    it, else ``python -m metrics``."""
    return CONSOLE_SCRIPT if Path(sys.argv[0]).name == CONSOLE_SCRIPT else "python -m metrics"


def quiet_when_the_reader_leaves(run: Callable[[], int]) -> int:
    """``run()``'s exit status; :data:`EXIT_BROKEN_PIPE`, with nothing on standard error,
    when standard output's reader has gone (``python -m metrics … | head -1``).

    sacreBLEU's command line restores SIGPIPE's default action, so the signal ends it
    silently; doing that here would also change the signal for whatever process calls
    :func:`metrics.__main__.main` (the tests do), so the write's ``BrokenPipeError`` is
    caught instead. Standard output is flushed here, where a failure can be caught,
    and then pointed at the null device, so Python's own flush at exit has nothing left
    to fail on.
    """
    try:
        try:
            return run()
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE
