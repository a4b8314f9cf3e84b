"""Reading one-segment-per-line text: the same rules for a file on disk and for bytes
that came another way (an upload)."""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.textfiles import SegmentFileError, decode_segments, read_segments

CASES = [
    (b"a b\nc\n", ["a b", "c"]),
    (b"a b\nc", ["a b", "c"]),
    (b"a\r\nb\r\n", ["a", "b"]),
    (b"\xef\xbb\xbfa\nb\n", ["a", "b"]),
    (b"a\n\nb\n", ["a", "", "b"]),
    (b"", []),
    (b"\n", [""]),
]


@pytest.mark.parametrize("data, expected", CASES)
def test_bytes_and_files_give_the_same_lines(
    data: bytes, expected: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "hyp.txt"
    path.write_bytes(data)

    assert decode_segments(data, "hyp.txt") == read_segments(path) == expected


def test_invalid_utf8_names_the_file_the_line_and_the_byte() -> None:
    with pytest.raises(SegmentFileError) as refused:
        decode_segments("one\ntwo\ntrois \u00e9tages\n".encode("latin-1"), "hyp.txt")

    assert (refused.value.filename, refused.value.line) == ("hyp.txt", 3)
    assert str(refused.value) == "hyp.txt line 3: invalid UTF-8 (byte 0xe9 at offset 14)"
