"""Plain one-segment-per-line files, as sacreBLEU users have them.

One place for the rules both command lines (``python -m metrics`` and
``manage.py import_text``) and the upload page apply: UTF-8 only, one segment per line,
parallel files of equal length; every problem names the file and the line.

A leading byte-order mark (U+FEFF) is dropped by default: the app stores the texts it
reads, and a judge would see no difference between a first word with the invisible mark
and one without. ``keep_bom=True`` keeps it inside the first line, as sacreBLEU and jiwer
read a file (Python's ``utf-8`` codec keeps it): ``python -m metrics`` reads its texts so,
and scores a file exactly as they do (issue 40; docs/metrics.md).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

#: The file name that means standard input (one segment per line), as for most tools.
STDIN = "-"


class SegmentFileError(ValueError):
    """``str(e)`` is one line: ``FILE line N: problem`` (or ``FILE: problem``)."""

    def __init__(self, filename: str, line: int | None, reason: str) -> None:
        self.filename = filename
        self.line = line
        self.reason = reason
        where = f"{filename} line {line}" if line is not None else filename
        super().__init__(f"{where}: {reason}")


def display_name(path: str | Path) -> str:
    """How a refusal names the file: its path as given, ``<stdin>`` for :data:`STDIN`."""
    return "<stdin>" if str(path) == STDIN else str(path)


def read_segments(path: str | Path, *, keep_bom: bool = False) -> list[str]:
    """The lines of a UTF-8 file without their line ends (a final newline ends the last
    line); :data:`STDIN` (``-``) reads standard input. ``keep_bom``: see the module doc."""
    return decode_segments(read_bytes(path), display_name(path), keep_bom=keep_bom)


def read_bytes(path: str | Path) -> bytes:
    """A file's bytes (:data:`STDIN`: standard input's), or a :class:`SegmentFileError`
    that says why not: what every command's reader says of a file it cannot open."""
    if str(path) == STDIN:
        return sys.stdin.buffer.read()
    name = display_name(path)
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise SegmentFileError(name, None, "no such file") from None
    except IsADirectoryError:
        raise SegmentFileError(name, None, "is a directory, not a file") from None
    except OSError as exc:
        raise SegmentFileError(name, None, f"cannot be read ({exc.strerror})") from None


def decode_segments(data: bytes, name: str, *, keep_bom: bool = False) -> list[str]:
    """The lines of a UTF-8 file's bytes, ``name`` naming it in a refusal: what
    :func:`read_segments` does once the file is read, for bytes that come from elsewhere
    (an upload in the browser) and must be read by the same rules."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SegmentFileError(
            name, line, f"invalid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None
    if text.startswith("\ufeff") and not keep_bom:
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def read_parallel(
    paths: Sequence[str | Path], *, keep_bom: bool | Sequence[bool] = False
) -> list[list[str]]:
    """Read files that must be parallel; the first one sets the expected line count.
    ``keep_bom``: for every file, or one flag per file (see the module doc)."""
    keep = [keep_bom] * len(paths) if isinstance(keep_bom, bool) else list(keep_bom)
    contents = [read_segments(p, keep_bom=k) for p, k in zip(paths, keep, strict=True)]
    if not contents:
        return contents
    expected = len(contents[0])
    for path, lines in zip(paths, contents, strict=True):
        if len(lines) != expected:
            line = min(len(lines), expected) + 1
            raise SegmentFileError(
                display_name(path),
                line,
                f"has {len(lines)} lines but {display_name(paths[0])} has {expected}: "
                "files must be parallel",
            )
    return contents
