"""What every ``python -m metrics`` command shares: its name, and one-line refusals.

Bad input never gives a traceback: argparse's errors and ours are one line on stderr,
``<command>: error: <what>``, and the exit status is :data:`EXIT_BAD_INPUT`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

EXIT_BAD_INPUT = 2
#: The installed command (``pip install .``; pyproject's ``[project.scripts]``).
CONSOLE_SCRIPT = "evaltool-metrics"


class OneLineParser(argparse.ArgumentParser):
    """argparse, but an error is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def program_name() -> str:
    """The command's name in usage and error lines: the installed script's when run as
    it, else ``python -m metrics``."""
    return CONSOLE_SCRIPT if Path(sys.argv[0]).name == CONSOLE_SCRIPT else "python -m metrics"
