"""Where an exporting command's text goes: stdout, or the ``-o`` file (UTF-8, the line
ends as written), a piece at a time, so a streamed export stays streamed."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from django.core.management.base import BaseCommand


def write_text(command: BaseCommand, pieces: Iterable[str], output: Path | None) -> None:
    """``pieces`` to ``command``'s stdout, or to ``output`` (then "Wrote …" on stderr)."""
    if output is None:
        for piece in pieces:
            command.stdout.write(piece, ending="")
        return
    with output.open("w", encoding="utf-8", newline="") as out:
        out.writelines(pieces)
    command.stderr.write(f"Wrote {output}")
